import type { Static } from '@sinclair/typebox'
import type { ServiceContext } from '../../src/context.ts'
import { beforeDeadline } from '../../src/kernel/deadline.ts'
import { type FeedDeadlines, feedEnvelope, type Snapshot, snapshotsOf } from '../../src/feeds/feed-answer.ts'
import { type Exclusion, exclusionOf, statsOf } from '../../src/feeds/rankings.ts'
import {
  JUPITER_CATEGORY_MAX_LIMIT,
  type JupiterInterval,
  type JupiterSource,
  type JupiterToken,
} from '../../src/sources/jupiter.ts'
import { CallMeter } from '../../src/sources/upstream.ts'
import {
  TRENDING_EXCLUSIONS,
  TRENDING_LIMIT,
  TRENDING_SORTS,
  type TrendingBody,
  type TrendingItem,
  type TrendingResult,
  type TrendingSort,
} from './schemas.ts'
import { count } from '../../src/rendering/format.ts'

type Answer = Static<typeof TrendingResult>
type Item = Static<typeof TrendingItem>

/** A ranking entry as a feed item (its grade added later). */
export function itemOf(entry: JupiterToken, interval: JupiterInterval, rank: number | null): Omit<Item, 'quick_scan'> {
  const stats = statsOf(entry, interval)
  const buyVolume = stats?.buyVolume
  const sellVolume = stats?.sellVolume
  return {
    rank,
    token_address: entry.id,
    symbol: entry.symbol,
    name: entry.name,
    price_usd: entry.usdPrice ?? null,
    price_change_pct: stats?.priceChange ?? null,
    liquidity_usd: entry.liquidity ?? null,
    market_cap_usd: entry.mcap ?? null,
    volume_usd: typeof buyVolume === 'number' && typeof sellVolume === 'number' ? buyVolume + sellVolume : null,
    volume_change_pct: stats?.volumeChange ?? null,
    buys: stats?.numBuys ?? null,
    sells: stats?.numSells ?? null,
    traders: stats?.numTraders ?? null,
    organic_score: entry.organicScore ?? null,
    verified: entry.isVerified === true,
  }
}

/**
 * The trending feed: one Jupiter ranking (asked at its largest size and cached 30 s, so every caller
 * shares it), filtered, cut to `limit`, each item graded by the quick scan before `deadlineAt`.
 */
export async function trendingFeed(
  ctx: ServiceContext,
  jupiter: JupiterSource,
  request: Static<typeof TrendingBody>,
  { feedAt: feedDeadlineAt, answerAt: deadlineAt }: FeedDeadlines,
): Promise<Answer> {
  const interval = request.interval ?? '1h'
  const sort = request.sort ?? 'trending'
  const limit = request.limit ?? TRENDING_LIMIT.default
  const minLiquidity = request.min_liquidity_usd ?? 0
  const meter = new CallMeter()
  const missing = new Set<string>()
  const focusMint = request.token_address
  try {
    const [ranking, focusEntry] = await Promise.all([
      beforeDeadline(
        jupiter.category(TRENDING_SORTS[sort], interval, JUPITER_CATEGORY_MAX_LIMIT, meter),
        feedDeadlineAt,
      ).catch((error) => {
        ctx.logger.warn({ err: error }, 'trending: the ranking could not be read')
        return null
      }),
      focusMint ? beforeDeadline(jupiter.token(focusMint, meter), feedDeadlineAt).catch(() => undefined) : null,
    ])
    if (!ranking) missing.add('feed')
    const filtered_out = Object.fromEntries(TRENDING_EXCLUSIONS.map((reason) => [reason, 0])) as Record<
      (typeof TRENDING_EXCLUSIONS)[number],
      number
    >
    const kept: JupiterToken[] = []
    for (const entry of ranking ?? []) {
      const excluded: Exclusion | undefined = request.include_stable
        ? undefined
        : exclusionOf(entry, ctx.sources.issuers)
      const reason = excluded ?? ((entry.liquidity ?? 0) < minLiquidity ? 'below_min_liquidity' : undefined)
      if (reason) filtered_out[reason]++
      else kept.push(entry)
    }
    const listed = kept.slice(0, limit).map((entry, index) => itemOf(entry, interval, index + 1))
    const focusRank = focusMint ? kept.findIndex((entry) => entry.id === focusMint) : -1
    const focusBase = !focusMint
      ? null
      : focusRank >= 0
        ? itemOf(kept[focusRank]!, interval, focusRank + 1)
        : focusEntry
          ? itemOf(focusEntry, interval, null)
          : undefined
    if (focusMint && focusBase === undefined) missing.add('focus')
    const mints = [...listed.map((item) => item.token_address), ...(focusMint ? [focusMint] : [])]
    const grades = await snapshotsOf(ctx, mints, deadlineAt, missing)
    const items = listed.map((item, index) => ({ ...item, quick_scan: grades[index] ?? null }))
    const focusGrade: Snapshot = focusMint ? (grades.at(-1) ?? null) : null
    const focus = focusBase
      ? { ...focusBase, quick_scan: focusGrade }
      : focusMint
        ? unlisted(focusMint, focusGrade)
        : null
    return {
      ...feedEnvelope(missing, !ranking),
      interval,
      sort,
      source: 'jupiter_tokens_v2',
      items,
      filtered_out,
      focus,
      summary: summarise(items, focus, sort, interval, !ranking),
    }
  } finally {
    meter.close()
  }
}

/** A focus token Jupiter does not know: its grade alone. */
function unlisted(mint: string, grade: Snapshot): Item {
  return {
    rank: null,
    token_address: mint,
    symbol: '',
    name: '',
    price_usd: null,
    price_change_pct: null,
    liquidity_usd: null,
    market_cap_usd: null,
    volume_usd: null,
    volume_change_pct: null,
    buys: null,
    sells: null,
    traders: null,
    organic_score: null,
    verified: false,
    quick_scan: grade,
  }
}

function summarise(items: Item[], focus: Item | null, sort: TrendingSort, interval: string, noFeed: boolean): string {
  if (noFeed)
    return 'Jupiter’s ranking could not be read now (listed in missing_fields); nothing is listed in its place.'
  const graded = items.filter((item) => item.quick_scan)
  const risky = graded.filter((item) => ['D', 'F'].includes(item.quick_scan!.grade)).length
  const top = items
    .slice(0, 3)
    .map((item) => `${item.symbol} (${item.quick_scan ? item.quick_scan.grade : 'not graded'})`)
    .join(', ')
  const parts = [
    `${items.length === 0 ? 'No tokens' : count(items.length, 'token')} by ${sort} over ${interval}${top ? `, led by ${top}` : ''}.`,
    `${risky} of ${graded.length} graded score D or F on the quick scan.`,
  ]
  if (focus)
    parts.push(
      focus.rank
        ? `${focus.symbol || focus.token_address} is #${focus.rank}.`
        : `${focus.symbol || focus.token_address} is not in the feed.`,
    )
  return parts.join(' ')
}
