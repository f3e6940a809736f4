import { Type } from '@sinclair/typebox'
import { FeedRank, QuickScanSnapshot } from '../feeds/feed-answer.ts'
import { NullableNumber } from '../pipeline/schemas.ts'

export const LAUNCH_FLAGS = ['BUNDLED_LAUNCH', 'SNIPED', 'WASH_TRADING', 'CREATOR_SOLD', 'RISKY_GRADE'] as const
export const LAUNCH_LIMIT = { default: 20, max: 50 } as const
export const NEW_WITHIN_MIN = { default: 60, max: 1_440 } as const
export const NEAR_COMPLETION_PCT = 70

/** What the launchpad routes cannot answer without: the RPC the ingester follows the launchpad on. */
export const FOLLOWS_LAUNCHPAD = {
  source: 'solana',
  why: 'SOLANA_RPC_URL is not set: the radars read the launchpad the RPC follows',
} as const

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

export const IndexState = Type.Object(
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
