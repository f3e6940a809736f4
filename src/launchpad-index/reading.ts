import type { Static } from '@sinclair/typebox'
import type { ServiceContext } from '../context.ts'
import { feedEnvelope, type Snapshot, snapshotsOf } from '../feeds/feed-answer.ts'
import { CallMeter } from '../sources/upstream.ts'
import type { CurveRow, LaunchIndex, TradeRow } from '../store/launches.ts'
import { type CurveReading, readCurve } from './curves.ts'
import { type IndexState, type LaunchItem, NEAR_COMPLETION_PCT, NEW_WITHIN_MIN } from './schemas.ts'

// What every launchpad feed reads of the index (launch radar, graduation radar, graduation momentum,
// smart money): their common skeleton (launchpadFeed), the active curves each read once per trade
// count, the focus token, the quick-scan grades, an item's fields and flags.

export type Item = Static<typeof LaunchItem>
export type Flag = Item['flags'][number]

/** What a launchpad answer says when the index is empty and nothing follows the launchpad here. */
const NO_INDEX_SUMMARY =
  'The launchpad index is empty and not being followed on this instance (listed in missing_fields).'

/** Curves still bonding with at least `minProgress` sold, soonest to graduate first (not filling: last, by progress). */
export function graduationCandidates(reads: readonly Read[], minProgress: number, limit: number): Read[] {
  return reads
    .filter(({ curve, reading }) => !curve.complete && reading.progressPct >= minProgress)
    .sort(
      (a, b) =>
        (a.reading.minutesToGraduation ?? Number.POSITIVE_INFINITY) -
          (b.reading.minutesToGraduation ?? Number.POSITIVE_INFINITY) || b.reading.progressPct - a.reading.progressPct,
    )
    .slice(0, limit)
}

/** What a launchpad feed has read before its own part: the index's active curves and state, the SOL price. */
export interface IndexRead {
  reads: Read[]
  /** The later of the wall clock and the index's newest event (readIndex). */
  nowS: number
  index: Static<typeof IndexState>
  /** USD per SOL; null when the feed does not value in USD, or the price could not be read (`sol_usd` missing). */
  sol: number | null
  /** The answer's missing_fields so far; a feed adds its own. */
  missing: Set<string>
}

/** The quick-scan grades of a feed's listed tokens, in order, and the focus token's read and grade. */
export interface FeedGrades {
  grades: Snapshot[]
  focusRead: Read | undefined
  focusGrade: Snapshot
}

/** A launchpad feed's own part, around the skeleton every one of them shares (`launchpadFeed`). */
export interface LaunchpadFeed<Selection extends { mints: readonly string[] }, Body extends object> {
  /** Whether the feed values SOL amounts in USD: then it reads the SOL price, named missing when unavailable. */
  solPrice: boolean
  /** What the feed lists from the index: the tokens to grade (`mints`, in order), and what it keeps to answer. */
  select(read: IndexRead): Selection
  /**
   * The answer's own members (placed between the envelope and the summary, in their order) and its
   * summary when the index answered, from the grades.
   */
  answer(read: IndexRead, selection: Selection, graded: FeedGrades): Promise<FeedPart<Body>> | FeedPart<Body>
}

export interface FeedPart<Body> {
  body: Body
  summary: () => string
}

/**
 * The skeleton of every launchpad feed (launch radar, graduation radar, smart money, graduation
 * momentum): read the index (and the SOL price, when the feed values in USD), name what is missing, let
 * the feed select, grade its tokens and the focus token by `deadlineAt`, let the feed answer, then the
 * envelope and the summary (NO_INDEX_SUMMARY when there is no index to read).
 */
export async function launchpadFeed<Selection extends { mints: readonly string[] }, Body extends object>(
  ctx: ServiceContext,
  focusMint: string | undefined,
  deadlineAt: number,
  feed: LaunchpadFeed<Selection, Body>,
): Promise<ReturnType<typeof feedEnvelope> & Body & { summary: string }> {
  const missing = new Set<string>()
  const [{ reads, index, nowS }, sol] = await Promise.all([
    readIndex(ctx, Math.floor(Date.now() / 1000)),
    feed.solPrice ? solUsd(ctx) : null,
  ])
  const noFeed = indexMissing(index, missing)
  if (feed.solPrice && sol === null) missing.add('sol_usd')
  const read: IndexRead = { reads, nowS, index, sol, missing }
  const selection = feed.select(read)
  const graded = await gradeWithFocus(ctx, reads, selection.mints, focusMint, deadlineAt, missing)
  const { body, summary } = await feed.answer(read, selection, graded)
  return { ...feedEnvelope(missing, noFeed), ...body, summary: noFeed ? NO_INDEX_SUMMARY : summary() }
}

/** The focus token's item: its listed item when it is listed, else `unlisted`'s; null without a focus. */
export function focusItem<Entry extends { token_address: string }>(
  items: readonly Entry[],
  focusRead: Read | undefined,
  unlisted: (read: Read) => Entry | undefined,
): Entry | null {
  if (!focusRead) return null
  return items.find((item) => item.token_address === focusRead.curve.mint) ?? unlisted(focusRead) ?? null
}

/**
 * The focus token's read in the index (named missing when the index does not hold it) and the quick-scan
 * grades of `listed`, then of the focus: what every launchpad answer grades before `deadlineAt`.
 */
async function gradeWithFocus(
  ctx: ServiceContext,
  reads: readonly Read[],
  listed: readonly string[],
  focusMint: string | undefined,
  deadlineAt: number,
  missing: Set<string>,
): Promise<FeedGrades> {
  const focusRead = focusMint ? reads.find((read) => read.curve.mint === focusMint) : undefined
  if (focusMint && !focusRead) missing.add('focus')
  const grades = await snapshotsOf(ctx, [...listed, ...(focusRead ? [focusRead.curve.mint] : [])], deadlineAt, missing)
  return { grades: grades.slice(0, listed.length), focusRead, focusGrade: focusRead ? (grades.at(-1) ?? null) : null }
}

/** How far back the index is read: curves active in the last day. */
const INDEX_WINDOW_S = 24 * 3_600
const INDEX_READ_LIMIT = 1_000
/** Flags: a bundle of 3 wallets or more; a fifth of the sold supply sniped; half the volume round trips. */
export const BUNDLE_MIN = 3
export const SNIPED_PCT = 20
export const WASH_PCT = 50

export interface Read {
  curve: CurveRow
  reading: CurveReading
  trades: TradeRow[]
}

/** A curve's trades as last read (kept while its count is the same), and its reading for one second. */
interface KeptRead {
  count: number
  trades: TradeRow[]
  reading?: { key: string; reading: CurveReading }
}
/** Per launchpad index: what readIndex read of each active curve. */
const keptReads = new WeakMap<LaunchIndex, Map<string, KeptRead>>()

/** What a curve's reading depends on besides its trades: its row and the second it is read at. */
const readingKey = (curve: CurveRow, nowS: number) =>
  `${nowS}|${curve.virtualSolReserves}|${curve.virtualTokenReserves}|${curve.complete}|${curve.completedAt}|${curve.lastTradeAt}|${curve.createdAt}|${curve.createdSlot}|${curve.creator}`

/**
 * The index's active curves, each read; and the state of the index. A day's index holds up to 1 000
 * curves and their trades: read whole, 1 000 curves of 100 trades cost ~170 ms of the event loop per
 * request (bench/launchpad.ts). So each curve's trades are read again only when its trade count
 * changed (trades are only ever added: the count says exactly whether any came), and its reading is
 * computed once per second of `nowS`.
 */
export async function readIndex(
  ctx: ServiceContext,
  wallS: number,
): Promise<{ reads: Read[]; nowS: number; index: Static<typeof IndexState> }> {
  const launches = ctx.store.launches
  const curves = await launches.curves({ since: wallS - INDEX_WINDOW_S, limit: INDEX_READ_LIMIT })
  // "Now" is the later of the wall clock and the newest event: a chain clock running ahead never makes ages negative.
  const newest = Math.max(0, ...curves.map((curve) => Math.max(curve.lastTradeAt ?? 0, curve.createdAt ?? 0)))
  const nowS = Math.max(wallS, newest)
  const counts = await launches.tradeCounts(curves.map((curve) => curve.mint))
  const kept = keptReads.get(launches) ?? new Map<string, KeptRead>()
  const next = new Map<string, KeptRead>()
  const reads = await Promise.all(
    curves.map(async (curve) => {
      const count = counts.get(curve.mint) ?? 0
      let entry = kept.get(curve.mint)
      if (entry?.count !== count) entry = { count, trades: count === 0 ? [] : await launches.trades(curve.mint) }
      const key = readingKey(curve, nowS)
      if (entry.reading?.key !== key) entry.reading = { key, reading: readCurve(curve, entry.trades, nowS) }
      next.set(curve.mint, entry)
      return { curve, trades: entry.trades, reading: entry.reading.reading }
    }),
  )
  // Only the curves still active are kept.
  keptReads.set(launches, next)
  const status = ctx.launchpad?.status
  return {
    reads,
    nowS,
    index: {
      ingesting: status !== undefined && status.state !== 'stopped' && status.state !== 'standby',
      state: status?.state ?? 'off',
      curves_indexed: curves.length,
      last_event_at: status?.lastEventAt ? new Date(status.lastEventAt).toISOString() : null,
    },
  }
}

/**
 * A curve's stage: new when created within `newWithinS` (by default the launch radar's default window,
 * as the graduation radar and smart money read it), else near completion or bonding, or graduated.
 */
export function stageOf(
  curve: CurveRow,
  reading: CurveReading,
  newWithinS: number = NEW_WITHIN_MIN.default * 60,
): Item['stage'] {
  if (curve.complete) return 'graduated'
  if (reading.ageS !== null && reading.ageS <= newWithinS) return 'new_creation'
  if (reading.progressPct >= NEAR_COMPLETION_PCT) return 'near_completion'
  return 'bonding'
}

export function flagsOf(reading: CurveReading, grade: Snapshot): Flag[] {
  const flags: Flag[] = []
  if (reading.bundledBuyers >= BUNDLE_MIN) flags.push('BUNDLED_LAUNCH')
  if ((reading.sniperSharePct ?? 0) > SNIPED_PCT) flags.push('SNIPED')
  if ((reading.roundTripSharePct ?? 0) > WASH_PCT) flags.push('WASH_TRADING')
  if (reading.creatorSold) flags.push('CREATOR_SOLD')
  if (grade && (grade.grade === 'D' || grade.grade === 'F')) flags.push('RISKY_GRADE')
  return flags
}

async function solUsd(ctx: ServiceContext): Promise<number | null> {
  const meter = new CallMeter()
  try {
    return (await ctx.sources.jupiter?.solUsd(meter)) ?? null
  } catch {
    return null
  } finally {
    meter.close()
  }
}

export function itemOf(
  read: Read,
  rank: number | null,
  stage: Item['stage'],
  grade: Snapshot,
  sol: number | null,
): Item {
  const { curve, reading } = read
  return {
    rank,
    token_address: curve.mint,
    symbol: curve.symbol,
    name: curve.name,
    launchpad: 'pump.fun',
    stage,
    bonding_progress_pct: reading.progressPct,
    market_cap_sol: reading.marketCapSol,
    market_cap_usd: sol === null ? null : Math.round(reading.marketCapSol * sol * 100) / 100,
    age_s: reading.ageS,
    trades: reading.trades,
    buys: reading.buys,
    sells: reading.sells,
    unique_traders: reading.uniqueTraders,
    volume_sol: reading.volumeSol,
    fill_rate_pct_per_min: reading.fillRatePctPerMin,
    minutes_to_graduation: reading.minutesToGraduation,
    bundled_buyers: reading.bundledBuyers,
    sniper_share_pct: reading.sniperSharePct,
    round_trip_share_pct: reading.roundTripSharePct,
    creator_sold: reading.creatorSold,
    flags: flagsOf(reading, grade),
    quick_scan: grade,
  }
}

/** The index's state as missing data: nothing indexed and nothing ingesting is LIMITED; catching up is PARTIAL. */
function indexMissing(index: Static<typeof IndexState>, missing: Set<string>): boolean {
  if (index.state !== 'live') missing.add('launch_index')
  return index.curves_indexed === 0 && index.state !== 'live'
}
