import { Type } from '@sinclair/typebox'
import { FeedLimit, FeedRank, FeedResult, FocusToken, QuickScanSnapshot } from '../../src/feeds/feed-answer.ts'
import { NullableNumber } from '../../src/pipeline/schemas.ts'
import { IndexState, LaunchItem } from '../../src/launchpad-index/schemas.ts'
import { ExitCheckResult } from '../exit-check/schemas.ts'
import { MOMENTUM_LABELS } from './scoring.ts'

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

/** What the route takes (its manifest's body). */
export const MomentumBody = Type.Object({
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
})
