import { Type } from '@sinclair/typebox'
import { ExitCheckResult } from '../../exit/schemas.ts'
import { FeedRank, FeedResult, QuickScanSnapshot } from '../feed.ts'
import { MOMENTUM_LABELS } from '../../launchpad/momentum.ts'
import { NullableNumber } from '../../pipeline/schemas.ts'

export const STAGES = ['new_creation', 'near_completion', 'both'] as const
export const PRESETS = ['none', 'safe', 'strict'] as const
export const LAUNCH_FLAGS = ['BUNDLED_LAUNCH', 'SNIPED', 'WASH_TRADING', 'CREATOR_SOLD', 'RISKY_GRADE'] as const
export const LAUNCH_LIMIT = { default: 20, max: 50 } as const
export const NEW_WITHIN_MIN = { default: 60, max: 1_440 } as const
export const NEAR_COMPLETION_PCT = 70
export const GRADUATION_MIN_PROGRESS = { default: 50, min: 0, max: 100 } as const

export const LaunchItem = Type.Object({
  rank: FeedRank('Place in the list, 1 first; null for a focus token not in it'),
  token_address: Type.String(),
  symbol: Type.String({ description: "From the create event ('' when the index joined later)" }),
  name: Type.String(),
  launchpad: Type.Literal('pump.fun'),
  stage: Type.Union(
    [Type.Literal('new_creation'), Type.Literal('near_completion'), Type.Literal('bonding'), Type.Literal('graduated')],
    {
      description:
        'new_creation (created within new_within_minutes), near_completion (≥ 70% sold), bonding, or graduated (complete)',
    },
  ),
  bonding_progress_pct: Type.Number({
    minimum: 0,
    maximum: 100,
    description: 'Share of the 793.1M sellable tokens sold',
  }),
  market_cap_sol: Type.Number({ description: 'Curve price × the 1B supply, SOL' }),
  market_cap_usd: NullableNumber("The same in USD at today's SOL price; null without it"),
  age_s: NullableNumber('Seconds since the create event; null when the index joined later'),
  trades: Type.Integer({ minimum: 0 }),
  buys: Type.Integer({ minimum: 0 }),
  sells: Type.Integer({ minimum: 0 }),
  unique_traders: Type.Integer({ minimum: 0 }),
  volume_sol: Type.Number(),
  fill_rate_pct_per_min: NullableNumber(
    'Progress gained per minute over the last 10 minutes; null without a trade in them',
  ),
  minutes_to_graduation: NullableNumber('At that rate; null when it is not filling'),
  bundled_buyers: Type.Integer({
    minimum: 0,
    description: 'Wallets besides the creator buying in the launch block or the next',
  }),
  sniper_share_pct: NullableNumber(
    'Share of the tokens sold that went to buyers in the first 3 slots (creator excluded)',
  ),
  round_trip_share_pct: NullableNumber('Share of the SOL volume from wallets that both bought and sold'),
  creator_sold: Type.Boolean(),
  flags: Type.Array(Type.Union(LAUNCH_FLAGS.map((flag) => Type.Literal(flag)))),
  quick_scan: QuickScanSnapshot,
})

const IndexState = Type.Object(
  {
    ingesting: Type.Boolean({
      description: 'True when the index is being followed (by this instance, or by the instance holding the lease)',
    }),
    state: Type.String({
      description:
        'starting, catching_up, live, reconnecting, stopped, standby (another instance ingests; its state unknown), or off',
    }),
    curves_indexed: Type.Integer({ minimum: 0, description: 'Curves active in the window the answer read' }),
    last_event_at: Type.Union([Type.String(), Type.Null()]),
  },
  { description: 'The launchpad index the answer reads (docs/catalogue.md)' },
)

export const LaunchRadarResult = FeedResult(
  {
    stage: Type.Union(STAGES.map((stage) => Type.Literal(stage))),
    preset: Type.Union(PRESETS.map((preset) => Type.Literal(preset))),
    index: IndexState,
    items: Type.Array(LaunchItem),
    filtered_out: Type.Integer({ minimum: 0, description: 'Curves of the stage the preset left out' }),
    focus: Type.Union([LaunchItem, Type.Null()]),
  },
  'Live launchpad tokens by stage, each with its manipulation indicators and quick-scan grade',
)

export const GraduationRadarResult = FeedResult(
  {
    min_progress_pct: Type.Number(),
    index: IndexState,
    items: Type.Array(LaunchItem),
    focus: Type.Union([LaunchItem, Type.Null()]),
  },
  'Bonding curves close to graduating, soonest first, each with its fill rate and quick-scan grade',
)

export const Stage = Type.Optional(
  Type.Union(
    STAGES.map((stage) => Type.Literal(stage)),
    { default: 'both', description: 'new_creation, near_completion, or both (default)' },
  ),
)
export const Preset = Type.Optional(
  Type.Union(
    PRESETS.map((preset) => Type.Literal(preset)),
    {
      default: 'none',
      description:
        'safe: leave out bundled, sniped (> 20%), wash-traded (> 50%), creator-sold and D/F-graded curves; strict: also C grades, under 10 traders and under 10% progress',
    },
  ),
)

export const SMART_INTERVALS = { '5m': 300, '1h': 3_600, '6h': 21_600, '24h': 86_400 } as const
export const SMART_LIMIT = { default: 10, max: 25 } as const

export const SmartMoneyItem = Type.Object({
  rank: FeedRank(),
  token_address: Type.String(),
  symbol: Type.String(),
  name: Type.String(),
  smart_wallets: Type.Integer({ minimum: 0, description: 'Proven wallets that bought it in the interval' }),
  smart_buys: Type.Integer({ minimum: 0 }),
  smart_sells: Type.Integer({ minimum: 0 }),
  net_flow_sol: Type.Number({ description: 'What proven wallets bought minus what they sold in the interval, SOL' }),
  net_flow_usd: NullableNumber("The same in USD at today's SOL price; null without it"),
  bonding_progress_pct: Type.Number({ minimum: 0, maximum: 100 }),
  stage: LaunchItem.properties.stage,
  quick_scan: QuickScanSnapshot,
})

export const SmartMoneyResult = FeedResult(
  {
    interval: Type.Union(Object.keys(SMART_INTERVALS).map((key) => Type.Literal(key))),
    source: Type.Literal('launchpad_index', {
      description: 'Proven wallets and their buys read from the launchpad index (docs/catalogue.md §Smart money)',
    }),
    proven_wallets: Type.Integer({
      minimum: 0,
      description: 'Wallets the index proves: 3+ round trips, 60%+ won, in profit',
    }),
    index: IndexState,
    items: Type.Array(SmartMoneyItem),
    focus: Type.Union([SmartMoneyItem, Type.Null()]),
  },
  'Launchpad coins that wallets with a proven record are buying, each with its quick-scan grade',
)

export const MOMENTUM_LIMIT = { default: 5, max: 10 } as const
export const MOMENTUM_MIN_PROGRESS = { default: 60 } as const
const ComponentState = Type.Union([Type.Literal('answered'), Type.Literal('missing')])

export const MomentumItem = Type.Object({
  rank: FeedRank(),
  token_address: Type.String(),
  symbol: Type.String(),
  name: Type.String(),
  bonding_progress_pct: Type.Number({ minimum: 0, maximum: 100 }),
  fill_rate_pct_per_min: NullableNumber('Progress gained per minute over the last 10 minutes'),
  minutes_to_graduation: NullableNumber('At that rate; null when it is not filling'),
  momentum_score: Type.Integer({ minimum: 0, maximum: 100 }),
  label: Type.Union(
    MOMENTUM_LABELS.map((label) => Type.Literal(label)),
    {
      description: 'HOT ≥ 75, HEATING ≥ 50, COOLING ≥ 25, else FLAT',
    },
  ),
  cited_factors: Type.Array(Type.Object({ factor: Type.String(), points: Type.Integer(), detail: Type.String() }), {
    description: 'Every point of the score, and every cap, with why (docs/catalogue.md)',
  }),
  components: Type.Object(
    {
      market_intel: ComponentState,
      exit_check: ComponentState,
      developer_history: ComponentState,
      quick_scan: ComponentState,
    },
    { description: 'Which enrichments answered within the deadline (a missing one adds nothing)' },
  ),
  sellable: Type.Union([Type.Boolean(), Type.Null()], { description: "The exit check's verdict for 10 USDC" }),
  exit_rating: ExitCheckResult.properties.exit_rating,
  developer_previous_rugs: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  flags: LaunchItem.properties.flags,
  quick_scan: QuickScanSnapshot,
})

export const MomentumResult = FeedResult(
  {
    min_progress_pct: Type.Number(),
    index: IndexState,
    items: Type.Array(MomentumItem),
    focus: Type.Union([MomentumItem, Type.Null()]),
  },
  'The top near-graduation candidates enriched with market intel, an exit check and developer history',
)
