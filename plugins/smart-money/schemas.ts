import { Type } from '@sinclair/typebox'
import { FeedLimit, FeedRank, FeedResult, FocusToken, QuickScanSnapshot } from '../../src/feeds/feed-answer.ts'
import { NullableNumber } from '../../src/pipeline/schemas.ts'
import { IndexState, LaunchItem } from '../../src/launchpad-index/schemas.ts'

export const SMART_INTERVALS = { '5m': 300, '1h': 3_600, '6h': 21_600, '24h': 86_400 } as const
export type SmartInterval = keyof typeof SMART_INTERVALS
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

/** What the route takes (its manifest's body). */
export const SmartMoneyBody = Type.Object({
  token_address: FocusToken,
  interval: Type.Optional(
    Type.Union(
      (Object.keys(SMART_INTERVALS) as SmartInterval[]).map((key) => Type.Literal(key)),
      { default: '1h', description: 'The window the buys are counted over (default 1h)' },
    ),
  ),
  limit: FeedLimit(SMART_LIMIT.default, SMART_LIMIT.max),
})
