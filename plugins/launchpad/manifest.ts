import { Type } from '@sinclair/typebox'
import { defineManifest } from '../../src/core/manifest.ts'
import { FeedLimit, FocusToken } from '../../src/feeds/feed.ts'
import {
  Preset,
  Stage,
  LAUNCH_LIMIT,
  NEW_WITHIN_MIN,
  GRADUATION_MIN_PROGRESS,
  LaunchRadarResult,
  GraduationRadarResult,
  SMART_INTERVALS,
  SMART_LIMIT,
  SmartMoneyResult,
  MOMENTUM_LIMIT,
  MOMENTUM_MIN_PROGRESS,
  MomentumResult,
} from '../../src/feeds/launchpad/schemas.ts'

export * from '../../src/feeds/launchpad/schemas.ts'

export const launchRadarManifest = defineManifest({
  name: 'launch-radar',
  skill: {
    id: 'launch_radar',
    name: 'Solana launch radar',
    description:
      'Live pump.fun launches by stage (new creations, near completion) with bonding progress, market cap, manipulation indicators (bundled launch, sniper share, wash trading) and a safety grade.',
    tags: ['solana', 'launchpad', 'pump.fun', 'risk'],
    examples: [
      'What is launching on pump.fun right now, and is it safe?',
      'Show new pump.fun coins with the safe preset',
    ],
  },
  routes: {
    launchRadar: {
      method: 'POST',
      path: '/launch/radar',
      summary: 'Live launchpad tokens by stage, with manipulation indicators and a grade',
      description:
        'pump.fun coins followed live from the program’s events: new creations and curves near completion, each with ' +
        'bonding progress, market cap, traders, fill rate, manipulation indicators (bundled launch, sniper share, ' +
        'round-trip volume, creator sold) and its quick-scan grade; presets `safe` and `strict` leave the risky ones out. ' +
        'With `token_address`, that coin is read whatever the filters. Answers within 8 s.',
      price: { usd: '0.05' },
      accounts: { token_address: 'token_mint' },
      body: Type.Object({
        token_address: FocusToken,
        stage: Stage,
        preset: Preset,
        new_within_minutes: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: NEW_WITHIN_MIN.max,
            default: NEW_WITHIN_MIN.default,
            description: `What counts as a new creation: created within this many minutes, 1 to ${NEW_WITHIN_MIN.max} (default ${NEW_WITHIN_MIN.default})`,
          }),
        ),
        limit: FeedLimit(LAUNCH_LIMIT.default, LAUNCH_LIMIT.max),
      }),
      response: LaunchRadarResult,
      rateLimit: 'scanner',
      tags: ['catalogue'],
    },
  },
})

export const graduationRadarManifest = defineManifest({
  name: 'graduation-radar',
  skill: {
    id: 'graduation_radar',
    name: 'Solana graduation radar',
    description:
      'pump.fun bonding curves close to graduating: bonding progress, fill rate per minute, estimated minutes to graduation and a safety grade.',
    tags: ['solana', 'launchpad', 'pump.fun', 'graduation'],
    examples: ['Which pump.fun curves graduate next?', 'Curves above 80% bonded'],
  },
  routes: {
    graduationRadar: {
      method: 'POST',
      path: '/graduation/radar',
      summary: 'Bonding curves close to graduating, soonest first',
      description:
        'pump.fun curves not yet complete with at least `min_progress_pct` sold, ordered by the estimated minutes to ' +
        'graduation at their last-10-minute fill rate: bonding progress, fill rate per minute, minutes to graduation, ' +
        'manipulation indicators and the quick-scan grade. Answers within 8 s.',
      price: { usd: '0.06' },
      accounts: { token_address: 'token_mint' },
      body: Type.Object({
        token_address: FocusToken,
        min_progress_pct: Type.Optional(
          Type.Number({
            minimum: GRADUATION_MIN_PROGRESS.min,
            maximum: GRADUATION_MIN_PROGRESS.max,
            default: GRADUATION_MIN_PROGRESS.default,
            description: `Least bonding progress to list, percent (default ${GRADUATION_MIN_PROGRESS.default})`,
          }),
        ),
        limit: FeedLimit(LAUNCH_LIMIT.default, LAUNCH_LIMIT.max),
      }),
      response: GraduationRadarResult,
      rateLimit: 'scanner',
      tags: ['catalogue'],
    },
  },
})

export const momentumManifest = defineManifest({
  name: 'graduation-momentum',
  skill: {
    id: 'graduation_momentum',
    name: 'Solana graduation momentum',
    description:
      'The top near-graduation pump.fun curves enriched with market intel, an exit check and developer history: momentum score 0-100, label (HOT, HEATING, COOLING, FLAT) and the cited factors.',
    tags: ['solana', 'launchpad', 'momentum', 'risk'],
    examples: ['Which curve about to graduate has the most momentum?', 'Is this near-graduation coin safe to ride?'],
  },
  routes: {
    momentum: {
      method: 'POST',
      path: '/graduation/momentum',
      summary: 'Which near-graduation curve has the momentum, and is it safe to ride?',
      description:
        'The top candidates of the graduation radar (at least `min_progress_pct` sold, default 60), each enriched with ' +
        'market intel, an exit check and its developer’s history: `momentum_score` 0–100 and a label (HOT, HEATING, ' +
        'COOLING, FLAT) with every point cited, hard caps (not sellable, a developer who rugged, a D/F grade), and which ' +
        'components answered. Answers within 15 s.',
      price: { usd: '0.40' },
      accounts: { token_address: 'token_mint' },
      body: Type.Object({
        token_address: FocusToken,
        min_progress_pct: Type.Optional(
          Type.Number({
            minimum: 0,
            maximum: 100,
            default: MOMENTUM_MIN_PROGRESS.default,
            description: 'Least bonding progress, percent (default 60)',
          }),
        ),
        limit: FeedLimit(MOMENTUM_LIMIT.default, MOMENTUM_LIMIT.max),
      }),
      response: MomentumResult,
      rateLimit: 'scanner',
      tags: ['catalogue'],
    },
  },
})

export const smartMoneyManifest = defineManifest({
  name: 'smart-money',
  skill: {
    id: 'smart_money',
    name: 'Solana smart money',
    description:
      'Launchpad coins that wallets with a proven record (their own round trips) are buying now: net flow, number of such wallets, and a safety grade.',
    tags: ['solana', 'wallets', 'smart money', 'launchpad'],
    examples: ['What are profitable wallets buying right now?', 'Smart money flows over the last 6 hours'],
  },
  routes: {
    smartMoney: {
      method: 'POST',
      path: '/scan/smart-money',
      summary: 'What wallets with a proven record are buying on the launchpad',
      description:
        'Wallets proven by their own round trips in the launchpad index (3 or more, 60% won, in profit), and the coins ' +
        'they bought in `interval` net of what they sold: `smart_wallets`, `net_flow_sol` (and USD), bonding progress and ' +
        'each coin’s quick-scan grade. Read from the pump.fun program’s events: launchpad coins only. With ' +
        '`token_address`, that coin’s flow whatever it is. Answers within 8 s.',
      price: { usd: '0.05' },
      accounts: { token_address: 'token_mint' },
      body: Type.Object({
        token_address: FocusToken,
        interval: Type.Optional(
          Type.Union(
            Object.keys(SMART_INTERVALS).map((key) => Type.Literal(key)),
            { default: '1h', description: 'The window the buys are counted over (default 1h)' },
          ),
        ),
        limit: FeedLimit(SMART_LIMIT.default, SMART_LIMIT.max),
      }),
      response: SmartMoneyResult,
      rateLimit: 'scanner',
      tags: ['catalogue'],
    },
  },
})

/** The launchpad plugin's manifests: one per route, each a skill of the service catalogue. */
export const LAUNCHPAD_MANIFESTS = [
  launchRadarManifest,
  graduationRadarManifest,
  momentumManifest,
  smartMoneyManifest,
] as const
