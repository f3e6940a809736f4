import { Type } from '@sinclair/typebox'
import { FeedLimit, FeedRank, FeedResult, FocusToken, QuickScanSnapshot } from '../../src/feeds/feed-answer.ts'
import { JUPITER_INTERVALS } from '../../src/sources/jupiter.ts'

/**
 * The signals the radar reads, each with its weight (they sum to 100, so the convergence score is the
 * weight of the signals that fired) and its threshold. docs/catalogue.md §Signal radar explains each.
 */
export const RADAR_SIGNALS = {
  VOLUME_SPIKE: { weight: 15, threshold: 100, unit: '% volume against the interval before' },
  PRICE_MOMENTUM: { weight: 15, threshold: 5, unit: '% price change over the interval (and not falling over 24 h)' },
  BUY_PRESSURE: { weight: 15, threshold: 55, unit: '% of the volume that is buying' },
  ORGANIC_ACTIVITY: { weight: 20, threshold: 60, unit: "Jupiter's organic score (0–100)" },
  HOLDER_GROWTH: { weight: 15, threshold: 1, unit: '% more holders over the interval' },
  LIQUIDITY_GROWTH: { weight: 10, threshold: 5, unit: '% more liquidity over the interval' },
  BROAD_PARTICIPATION: { weight: 10, threshold: 20, unit: 'distinct traders per 100 trades (and at least 5 traders)' },
} as const
export type RadarSignal = keyof typeof RADAR_SIGNALS
export const RADAR_FLAGS = ['THIN_LIQUIDITY', 'INORGANIC_VOLUME', 'RISKY_GRADE', 'SELL_PRESSURE'] as const
export const RADAR_LIMIT = { default: 10, max: 25 } as const
export const MIN_SIGNALS = { default: 2, min: 1, max: Object.keys(RADAR_SIGNALS).length } as const

const SignalName = Type.Union(Object.keys(RADAR_SIGNALS).map((name) => Type.Literal(name)))

export const SignalReading = Type.Object({
  signal: SignalName,
  fired: Type.Boolean(),
  measured: Type.Boolean({ description: 'False when the source gives no figure for it (then it cannot fire)' }),
  value: Type.Union([Type.Number(), Type.Null()], { description: 'The figure read, in the unit of its threshold' }),
  threshold: Type.Number(),
  weight: Type.Integer({ description: 'Points it adds to convergence_score when it fires' }),
  detail: Type.String(),
})

export const RadarItem = Type.Object({
  rank: FeedRank('Place on the radar, 1 = strongest convergence; null for a focus token not on it'),
  token_address: Type.String(),
  symbol: Type.String(),
  name: Type.String(),
  price_usd: Type.Union([Type.Number(), Type.Null()]),
  liquidity_usd: Type.Union([Type.Number(), Type.Null()]),
  convergence_score: Type.Integer({
    minimum: 0,
    maximum: 100,
    description: 'The weights of the signals that fired (an unmeasured signal adds nothing)',
  }),
  signals_fired: Type.Integer({ minimum: 0 }),
  signal_breakdown: Type.Array(SignalReading),
  flags: Type.Array(Type.Union(RADAR_FLAGS.map((flag) => Type.Literal(flag))), {
    description: 'Reasons for care whatever the signals say (docs/catalogue.md)',
  }),
  quick_scan: QuickScanSnapshot,
})

export const RadarResult = FeedResult(
  {
    interval: Type.Union(JUPITER_INTERVALS.map((value) => Type.Literal(value))),
    min_signals: Type.Integer(),
    candidates: Type.Integer({ description: "Tokens read from Jupiter's rankings before the signals were applied" }),
    items: Type.Array(RadarItem),
    focus: Type.Union([RadarItem, Type.Null()], {
      description: 'The token_address asked about, read whatever its signals (rank null when it is not on the radar)',
    }),
  },
  'Tokens where independent bullish signals converge, each with its quick-scan grade',
)

/** What the route takes (its manifest's body). */
export const RadarBody = Type.Object({
  token_address: FocusToken,
  interval: Type.Optional(
    Type.Union(
      JUPITER_INTERVALS.map((value) => Type.Literal(value)),
      { default: '1h', description: 'The window the signals read (default 1h)' },
    ),
  ),
  limit: FeedLimit(RADAR_LIMIT.default, RADAR_LIMIT.max),
  min_signals: Type.Optional(
    Type.Integer({
      minimum: MIN_SIGNALS.min,
      maximum: MIN_SIGNALS.max,
      default: MIN_SIGNALS.default,
      description: `Signals that must fire for a token to be listed, ${MIN_SIGNALS.min} to ${MIN_SIGNALS.max} (default ${MIN_SIGNALS.default})`,
    }),
  ),
})
