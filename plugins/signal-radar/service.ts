import type { Static } from '@sinclair/typebox'
import type { ServiceContext } from '../../src/context.ts'
import { beforeDeadline } from '../../src/kernel/deadline.ts'
import { type FeedDeadlines, feedEnvelope, type Snapshot, snapshotsOf } from '../../src/feeds/feed-answer.ts'
import { exclusionOf, statsOf } from '../../src/feeds/rankings.ts'
import {
  JUPITER_CATEGORY_MAX_LIMIT,
  type JupiterCategory,
  type JupiterInterval,
  type JupiterSource,
  type JupiterToken,
} from '../../src/sources/jupiter.ts'
import { CallMeter } from '../../src/sources/upstream.ts'
import {
  MIN_SIGNALS,
  RADAR_LIMIT,
  RADAR_SIGNALS,
  type RadarBody,
  type RadarItem,
  type RadarResult,
  type RadarSignal,
  type SignalReading,
} from './schemas.ts'
import { count, NOT_MEASURED, num, pct } from '../../src/rendering/format.ts'

type Answer = Static<typeof RadarResult>
type Item = Static<typeof RadarItem>
type Reading = Static<typeof SignalReading>
type Flag = Item['flags'][number]

/** The rankings the radar draws its candidates from; each answers on its own. */
const CANDIDATE_RANKINGS: readonly JupiterCategory[] = ['toptrending', 'toptraded', 'toporganicscore']
/** Below this USD liquidity a token is flagged THIN_LIQUIDITY. */
export const THIN_LIQUIDITY_USD = 10_000
/** An organic score this low under a volume spike reads as INORGANIC_VOLUME. */
const INORGANIC_SCORE = 20
/** At least this many traders for BROAD_PARTICIPATION. */
const MIN_TRADERS = 5

const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places

function reading(signal: RadarSignal, value: number | null | undefined, fired: boolean, detail: string): Reading {
  const { threshold, weight } = RADAR_SIGNALS[signal]
  const measured = typeof value === 'number' && Number.isFinite(value)
  return {
    signal,
    fired: measured && fired,
    measured,
    value: measured ? round(value) : null,
    threshold,
    weight,
    detail: measured ? detail : 'Not given by the source: it cannot fire.',
  }
}

/** Every signal of one token over `interval`, from its ranking entry (pure). */
export function readSignals(entry: JupiterToken, interval: JupiterInterval): Reading[] {
  const stats = statsOf(entry, interval)
  const day = statsOf(entry, '24h')
  const t = (signal: RadarSignal) => RADAR_SIGNALS[signal].threshold
  const volumeChange = stats?.volumeChange
  const priceChange = stats?.priceChange
  const buy = stats?.buyVolume
  const sell = stats?.sellVolume
  const buyShare =
    typeof buy === 'number' && typeof sell === 'number' && buy + sell > 0 ? (buy / (buy + sell)) * 100 : null
  const trades = (stats?.numBuys ?? 0) + (stats?.numSells ?? 0)
  const traders = stats?.numTraders
  const perHundred = typeof traders === 'number' && trades > 0 ? (traders / trades) * 100 : null
  const dayFalling = interval !== '24h' && typeof day?.priceChange === 'number' && day.priceChange < 0
  return [
    reading(
      'VOLUME_SPIKE',
      volumeChange,
      (volumeChange ?? 0) >= t('VOLUME_SPIKE'),
      `Volume ${signed(volumeChange)} against the ${interval} before.`,
    ),
    reading(
      'PRICE_MOMENTUM',
      priceChange,
      (priceChange ?? 0) >= t('PRICE_MOMENTUM') && !dayFalling,
      `Price ${signed(priceChange)} over ${interval}${dayFalling ? `, but ${signed(day?.priceChange)} over 24 h` : ''}.`,
    ),
    reading(
      'BUY_PRESSURE',
      buyShare,
      (buyShare ?? 0) >= t('BUY_PRESSURE'),
      buyShare === null
        ? `The buying share of the ${interval} volume: ${NOT_MEASURED}.`
        : `${pct(buyShare)} of the ${interval} volume is buying.`,
    ),
    reading(
      'ORGANIC_ACTIVITY',
      entry.organicScore,
      (entry.organicScore ?? 0) >= t('ORGANIC_ACTIVITY'),
      `Organic score ${num(entry.organicScore)}${entry.organicScoreLabel ? ` (${entry.organicScoreLabel})` : ''}.`,
    ),
    reading(
      'HOLDER_GROWTH',
      stats?.holderChange,
      (stats?.holderChange ?? 0) >= t('HOLDER_GROWTH'),
      `Holders ${signed(stats?.holderChange)} over ${interval}.`,
    ),
    reading(
      'LIQUIDITY_GROWTH',
      stats?.liquidityChange,
      (stats?.liquidityChange ?? 0) >= t('LIQUIDITY_GROWTH'),
      `Liquidity ${signed(stats?.liquidityChange)} over ${interval}.`,
    ),
    reading(
      'BROAD_PARTICIPATION',
      perHundred,
      (perHundred ?? 0) >= t('BROAD_PARTICIPATION') && (traders ?? 0) >= MIN_TRADERS,
      typeof traders === 'number'
        ? `${count(traders, 'trader')} made ${count(trades, 'trade')}.`
        : `${count(trades, 'trade')}; the traders behind them: ${NOT_MEASURED}.`,
    ),
  ]
}

/** A change with its sign, or "not measured". */
function signed(value: number | null | undefined): string {
  return pct(value, { signed: true })
}

/** Reasons for care, whatever the signals (pure). */
export function flagsOf(entry: JupiterToken, readings: Reading[], grade: Snapshot): Flag[] {
  const flags: Flag[] = []
  if (typeof entry.liquidity === 'number' && entry.liquidity < THIN_LIQUIDITY_USD) flags.push('THIN_LIQUIDITY')
  const spike = readings.find((entry) => entry.signal === 'VOLUME_SPIKE')!
  if (spike.fired && typeof entry.organicScore === 'number' && entry.organicScore < INORGANIC_SCORE)
    flags.push('INORGANIC_VOLUME')
  if (grade && (grade.grade === 'D' || grade.grade === 'F')) flags.push('RISKY_GRADE')
  const buyShare = readings.find((entry) => entry.signal === 'BUY_PRESSURE')!
  if (buyShare.value !== null && buyShare.value < 100 - RADAR_SIGNALS.BUY_PRESSURE.threshold)
    flags.push('SELL_PRESSURE')
  return flags
}

function scored(entry: JupiterToken, interval: JupiterInterval, rank: number | null) {
  const breakdown = readSignals(entry, interval)
  const fired = breakdown.filter((entry) => entry.fired)
  return {
    rank,
    entry,
    breakdown,
    fired: fired.length,
    score: fired.reduce((sum, entry) => sum + entry.weight, 0),
  }
}

/**
 * The radar: candidates from Jupiter's rankings over the interval (each read on its own and cached 30 s,
 * shared with the trending feed), the stables left out, signals read from each entry's stats, the
 * tokens with at least `min_signals` fired ranked by convergence, then graded by the quick scan.
 */
export async function signalRadar(
  ctx: ServiceContext,
  jupiter: JupiterSource,
  request: Static<typeof RadarBody>,
  { feedAt: feedDeadlineAt, answerAt: deadlineAt }: FeedDeadlines,
): Promise<Answer> {
  const interval = request.interval ?? '1h'
  const limit = request.limit ?? RADAR_LIMIT.default
  const minSignals = request.min_signals ?? MIN_SIGNALS.default
  const meter = new CallMeter()
  const missing = new Set<string>()
  const focusMint = request.token_address
  try {
    const [rankings, focusEntry] = await Promise.all([
      Promise.all(
        CANDIDATE_RANKINGS.map((category) =>
          beforeDeadline(jupiter.category(category, interval, JUPITER_CATEGORY_MAX_LIMIT, meter), feedDeadlineAt).catch(
            (error) => {
              ctx.logger.warn({ err: error, category }, 'signal radar: a ranking could not be read')
              missing.add(`ranking:${category}`)
              return null
            },
          ),
        ),
      ),
      focusMint ? beforeDeadline(jupiter.token(focusMint, meter), feedDeadlineAt).catch(() => undefined) : null,
    ])
    const noFeed = rankings.every((ranking) => ranking === null)
    if (noFeed) {
      missing.clear()
      missing.add('feed')
    }
    const candidates = new Map<string, JupiterToken>()
    for (const entry of rankings.flatMap((ranking) => ranking ?? []))
      if (!candidates.has(entry.id) && !exclusionOf(entry, ctx.sources.issuers)) candidates.set(entry.id, entry)
    const onRadar = [...candidates.values()]
      .map((entry) => scored(entry, interval, null))
      .filter((item) => item.fired >= minSignals)
      .sort((a, b) => b.score - a.score || b.fired - a.fired)
      .map((item, index) => ({ ...item, rank: index + 1 }))
    const listed = onRadar.slice(0, limit)
    const focusEntryKnown = focusMint ? (candidates.get(focusMint) ?? focusEntry ?? undefined) : undefined
    if (focusMint && !focusEntryKnown) missing.add('focus')
    const focusScored = focusEntryKnown
      ? (onRadar.find((item) => item.entry.id === focusMint) ?? scored(focusEntryKnown, interval, null))
      : undefined
    const graded = [...listed, ...(focusScored ? [focusScored] : [])]
    const grades = await snapshotsOf(
      ctx,
      graded.map((item) => item.entry.id),
      deadlineAt,
      missing,
    )
    const toItem = (item: (typeof graded)[number], grade: Snapshot): Item => ({
      rank: item.rank,
      token_address: item.entry.id,
      symbol: item.entry.symbol,
      name: item.entry.name,
      price_usd: item.entry.usdPrice ?? null,
      liquidity_usd: item.entry.liquidity ?? null,
      convergence_score: item.score,
      signals_fired: item.fired,
      signal_breakdown: item.breakdown,
      flags: flagsOf(item.entry, item.breakdown, grade),
      quick_scan: grade,
    })
    const items = listed.map((item, index) => toItem(item, grades[index] ?? null))
    const focus = focusScored ? toItem(focusScored, grades.at(-1) ?? null) : null
    return {
      ...feedEnvelope(missing, noFeed),
      interval,
      min_signals: minSignals,
      candidates: candidates.size,
      items,
      focus,
      summary: summarise(items, focus, interval, noFeed),
    }
  } finally {
    meter.close()
  }
}

function summarise(items: Item[], focus: Item | null, interval: string, noFeed: boolean): string {
  if (noFeed)
    return 'Jupiter’s rankings could not be read now (listed in missing_fields); nothing is listed in their place.'
  const top = items[0]
  const parts = [
    items.length === 0
      ? `No token shows converging signals over ${interval}.`
      : `${count(items.length, 'token')} with converging signals over ${interval}; strongest ${top!.symbol} at ${num(top!.convergence_score)}/100 (${top!.signal_breakdown
          .filter((entry) => entry.fired)
          .map((entry) => entry.signal.toLowerCase().replaceAll('_', ' '))
          .join(', ')}).`,
  ]
  const risky = items.filter((item) => item.flags.includes('RISKY_GRADE')).length
  if (risky > 0) parts.push(`${risky} of them grade D or F on the quick scan.`)
  if (focus)
    parts.push(
      `${focus.symbol}: ${num(focus.convergence_score)}/100, ${count(focus.signals_fired, 'signal')}${focus.rank ? `, #${focus.rank}` : ', not on the radar'}.`,
    )
  return parts.join(' ')
}
