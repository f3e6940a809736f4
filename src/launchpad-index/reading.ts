import type { Static } from '@sinclair/typebox'
import type { ServiceContext } from '../context.ts'
import { type Snapshot, snapshotsOf } from '../feeds/feed-answer.ts'
import { CallMeter } from '../sources/upstream.ts'
import type { CurveRow, LaunchIndex, TradeRow } from '../store/launches.ts'
import { type CurveReading, readCurve } from './curves.ts'
import { type IndexState, type LaunchItem, NEAR_COMPLETION_PCT } from './schemas.ts'

// What every launchpad feed reads of the index (launch radar, graduation radar, graduation momentum,
// smart money): the active curves each read once per trade count, the focus token, the quick-scan
// grades, an item's fields and flags.

export type Item = Static<typeof LaunchItem>
export type Flag = Item['flags'][number]

/** What a launchpad answer says when the index is empty and nothing follows the launchpad here. */
export const NO_INDEX_SUMMARY =
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

/**
 * The focus token's read in the index (named missing when the index does not hold it) and the quick-scan
 * grades of `listed`, then of the focus: what every launchpad answer grades before `deadlineAt`.
 */
export async function gradeWithFocus(
  ctx: ServiceContext,
  reads: readonly Read[],
  listed: readonly string[],
  focusMint: string | undefined,
  deadlineAt: number,
  missing: Set<string>,
): Promise<{ grades: Snapshot[]; focusRead: Read | undefined; focusGrade: Snapshot }> {
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

export function stageOf(curve: CurveRow, reading: CurveReading, newWithinS: number): Item['stage'] {
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

export async function solUsd(ctx: ServiceContext): Promise<number | null> {
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
export function indexMissing(index: Static<typeof IndexState>, missing: Set<string>): boolean {
  if (index.state !== 'live') missing.add('launch_index')
  return index.curves_indexed === 0 && index.state !== 'live'
}
