import { Type } from '@sinclair/typebox'
import { FeedLimit, FeedRank, FeedResult, FocusToken, QuickScanSnapshot } from '../../src/feeds/feed-answer.ts'
import { EXCLUSIONS } from '../../src/feeds/rankings.ts'
import { NullableNumber } from '../../src/pipeline/schemas.ts'
import { JUPITER_INTERVALS } from '../../src/sources/jupiter.ts'

/** How the feed is ranked, and the Jupiter tokens v2 category behind each. */
export const TRENDING_SORTS = { trending: 'toptrending', volume: 'toptraded', organic: 'toporganicscore' } as const
export type TrendingSort = keyof typeof TRENDING_SORTS
export const TRENDING_LIMIT = { default: 20, max: 50 } as const
/** Why an entry was left out: by default (unless `include_stable`), or below `min_liquidity_usd`. */
export const TRENDING_EXCLUSIONS = [...EXCLUSIONS, 'below_min_liquidity'] as const

const Count = (description: string) => Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description })

export const TrendingItem = Type.Object({
  rank: FeedRank('Place in the feed, 1 = first (after filtering); null for a focus token not in it'),
  token_address: Type.String(),
  symbol: Type.String(),
  name: Type.String(),
  price_usd: NullableNumber('USD per whole token'),
  price_change_pct: NullableNumber("The token's own price change over the interval, percent"),
  liquidity_usd: NullableNumber("USD in the token's pools"),
  market_cap_usd: NullableNumber('Circulating supply × price'),
  volume_usd: NullableNumber('Buy and sell volume over the interval, USD'),
  volume_change_pct: NullableNumber('Volume against the interval before, percent'),
  buys: Count('Buy trades over the interval'),
  sells: Count('Sell trades over the interval'),
  traders: Count('Distinct wallets trading over the interval'),
  organic_score: NullableNumber(
    "Jupiter's organic score 0–100 (how much activity comes from real users); null when not given",
  ),
  verified: Type.Boolean({ description: "On Jupiter's verified list (false when the list does not say)" }),
  quick_scan: QuickScanSnapshot,
})

export const TrendingResult = FeedResult(
  {
    interval: Type.Union(JUPITER_INTERVALS.map((value) => Type.Literal(value))),
    sort: Type.Union(Object.keys(TRENDING_SORTS).map((value) => Type.Literal(value))),
    source: Type.Literal('jupiter_tokens_v2', { description: 'Where the ranking comes from (docs/catalogue.md)' }),
    items: Type.Array(TrendingItem),
    filtered_out: Type.Object(
      Object.fromEntries(TRENDING_EXCLUSIONS.map((reason) => [reason, Type.Integer({ minimum: 0 })])) as Record<
        (typeof TRENDING_EXCLUSIONS)[number],
        ReturnType<typeof Type.Integer>
      >,
      { description: 'Entries of the ranking left out, by reason (include_stable keeps the first three)' },
    ),
    focus: Type.Union([TrendingItem, Type.Null()], {
      description:
        'The token_address asked about: its item (rank null when it is not in the feed), or null when not asked',
    }),
  },
  'Trending tokens now, each with its quick-scan grade',
)

export const TrendingBody = Type.Object({
  token_address: FocusToken,
  interval: Type.Optional(
    Type.Union(
      JUPITER_INTERVALS.map((value) => Type.Literal(value)),
      { default: '1h', description: 'The window the ranking and stats cover (default 1h)' },
    ),
  ),
  sort: Type.Optional(
    Type.Union(
      (Object.keys(TRENDING_SORTS) as TrendingSort[]).map((value) => Type.Literal(value)),
      {
        default: 'trending',
        description:
          "trending (Jupiter's trending rank), volume (most traded) or organic (organic score); default trending",
      },
    ),
  ),
  limit: FeedLimit(TRENDING_LIMIT.default, TRENDING_LIMIT.max),
  include_stable: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Keep stablecoins, liquid-staking tokens and wrapped SOL in the feed (default false)',
    }),
  ),
  min_liquidity_usd: Type.Optional(
    Type.Number({ minimum: 0, default: 0, description: 'Leave out tokens with less USD liquidity (default 0)' }),
  ),
})
