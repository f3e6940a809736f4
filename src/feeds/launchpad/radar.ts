import type { Static } from '@sinclair/typebox'
import type { ServiceContext } from '../../context.ts'
import { feedEnvelope, type Snapshot, snapshotsOf } from '../feed.ts'
import { type CurveReading, readCurve } from '../../launchpad/curves.ts'
import { CallMeter } from '../../sources/upstream.ts'
import type { CurveRow, LaunchIndex, TradeRow } from '../../store/launches.ts'
import { smartFlows, walletRecords } from '../../launchpad/smart-money.ts'
import {
  type GraduationRadarResult,
  GRADUATION_MIN_PROGRESS,
  LAUNCH_LIMIT,
  type LaunchItem,
  type LaunchRadarResult,
  NEAR_COMPLETION_PCT,
  NEW_WITHIN_MIN,
  type PRESETS,
  SMART_INTERVALS,
  SMART_LIMIT,
  type SmartMoneyItem,
  type SmartMoneyResult,
  type STAGES,
} from './schemas.ts'

type Item = Static<typeof LaunchItem>
type Flag = Item['flags'][number]

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
const BUNDLE_MIN = 3
const SNIPED_PCT = 20
const WASH_PCT = 50

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
): Promise<{ reads: Read[]; nowS: number; index: Static<typeof LaunchRadarResult>['index'] }> {
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

function stageOf(curve: CurveRow, reading: CurveReading, newWithinS: number): Item['stage'] {
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

/** Whether a preset keeps a curve (the grade is judged after grading: see `keepGraded`). */
function presetKeeps(preset: (typeof PRESETS)[number], reading: CurveReading): boolean {
  if (preset === 'none') return true
  const risky =
    reading.bundledBuyers >= BUNDLE_MIN ||
    (reading.sniperSharePct ?? 0) > SNIPED_PCT ||
    (reading.roundTripSharePct ?? 0) > WASH_PCT ||
    reading.creatorSold
  if (risky) return false
  return preset === 'safe' || (reading.uniqueTraders >= 10 && reading.progressPct >= 10)
}

function keepGraded(preset: (typeof PRESETS)[number], grade: Snapshot): boolean {
  if (preset === 'none' || !grade) return true
  if (grade.grade === 'D' || grade.grade === 'F') return false
  return preset === 'safe' || grade.grade !== 'C'
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

function itemOf(read: Read, rank: number | null, stage: Item['stage'], grade: Snapshot, sol: number | null): Item {
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
export function indexMissing(index: Static<typeof LaunchRadarResult>['index'], missing: Set<string>): boolean {
  if (index.state !== 'live') missing.add('launch_index')
  return index.curves_indexed === 0 && index.state !== 'live'
}

export interface LaunchRadarRequest {
  token_address?: string
  stage?: (typeof STAGES)[number]
  preset?: (typeof PRESETS)[number]
  new_within_minutes?: number
  limit?: number
}

/**
 * The launch radar: curves of the stage asked (new creations newest first, then curves near completion
 * by progress), the preset's filters, each graded by the quick scan before `deadlineAt`.
 */
export async function launchRadar(
  ctx: ServiceContext,
  request: LaunchRadarRequest,
  deadlineAt: number,
): Promise<Static<typeof LaunchRadarResult>> {
  const nowS = Math.floor(Date.now() / 1000)
  const stageAsked = request.stage ?? 'both'
  const preset = request.preset ?? 'none'
  const newWithinS = (request.new_within_minutes ?? NEW_WITHIN_MIN.default) * 60
  const limit = request.limit ?? LAUNCH_LIMIT.default
  const missing = new Set<string>()
  const [{ reads, index }, sol] = await Promise.all([readIndex(ctx, nowS), solUsd(ctx)])
  const noFeed = indexMissing(index, missing)
  if (sol === null) missing.add('sol_usd')
  const staged = reads
    .map((read) => ({ read, stage: stageOf(read.curve, read.reading, newWithinS) }))
    .filter(({ stage }) =>
      stageAsked === 'both' ? stage === 'new_creation' || stage === 'near_completion' : stage === stageAsked,
    )
    .sort(
      (a, b) =>
        Number(b.stage === 'new_creation') - Number(a.stage === 'new_creation') ||
        (a.stage === 'new_creation'
          ? (a.read.reading.ageS ?? 0) - (b.read.reading.ageS ?? 0)
          : b.read.reading.progressPct - a.read.reading.progressPct),
    )
  const kept = staged.filter(({ read }) => presetKeeps(preset, read.reading))
  // Graded a little beyond the limit, so a preset that drops D/F grades still fills it.
  const candidates = kept.slice(0, preset === 'none' ? limit : limit * 2)
  const { grades, focusRead, focusGrade } = await gradeWithFocus(
    ctx,
    reads,
    candidates.map(({ read }) => read.curve.mint),
    request.token_address,
    deadlineAt,
    missing,
  )
  const graded = candidates.map((entry, i) => ({ ...entry, grade: grades[i] ?? null }))
  const passing = graded.filter(({ grade }) => keepGraded(preset, grade))
  const listed = passing.slice(0, limit)
  const items = listed.map(({ read, stage, grade }, i) => itemOf(read, i + 1, stage, grade, sol))
  const focus = focusRead
    ? (items.find((item) => item.token_address === focusRead.curve.mint) ??
      itemOf(focusRead, null, stageOf(focusRead.curve, focusRead.reading, newWithinS), focusGrade, sol))
    : null
  return {
    ...feedEnvelope(missing, noFeed),
    stage: stageAsked,
    preset,
    index,
    items,
    filtered_out: staged.length - kept.length + (graded.length - passing.length),
    focus,
    summary: noFeed
      ? NO_INDEX_SUMMARY
      : `${items.length} launchpad coins (${stageAsked.replace('_', ' ')}, preset ${preset}); ${items.filter((item) => item.flags.length > 0).length} carry manipulation flags.`,
  }
}

export interface GraduationRadarRequest {
  token_address?: string
  min_progress_pct?: number
  limit?: number
}

/** The graduation radar: curves still bonding with at least `min_progress_pct` sold, soonest to graduate first. */
export async function graduationRadar(
  ctx: ServiceContext,
  request: GraduationRadarRequest,
  deadlineAt: number,
): Promise<Static<typeof GraduationRadarResult>> {
  const nowS = Math.floor(Date.now() / 1000)
  const minProgress = request.min_progress_pct ?? GRADUATION_MIN_PROGRESS.default
  const limit = request.limit ?? LAUNCH_LIMIT.default
  const missing = new Set<string>()
  const [{ reads, index }, sol] = await Promise.all([readIndex(ctx, nowS), solUsd(ctx)])
  const noFeed = indexMissing(index, missing)
  if (sol === null) missing.add('sol_usd')
  const ranked = graduationCandidates(reads, minProgress, limit)
  const { grades, focusRead, focusGrade } = await gradeWithFocus(
    ctx,
    reads,
    ranked.map((read) => read.curve.mint),
    request.token_address,
    deadlineAt,
    missing,
  )
  const stage = (read: Read) => stageOf(read.curve, read.reading, NEW_WITHIN_MIN.default * 60)
  const items = ranked.map((read, i) => itemOf(read, i + 1, stage(read), grades[i] ?? null, sol))
  const focus = focusRead
    ? (items.find((item) => item.token_address === focusRead.curve.mint) ??
      itemOf(focusRead, null, stage(focusRead), focusGrade, sol))
    : null
  const next = items[0]
  return {
    ...feedEnvelope(missing, noFeed),
    min_progress_pct: minProgress,
    index,
    items,
    focus,
    summary: noFeed
      ? NO_INDEX_SUMMARY
      : next
        ? `${items.length} curves at ${minProgress}% or more; next to graduate: ${next.symbol || next.token_address} at ${next.bonding_progress_pct}%${next.minutes_to_graduation === null ? '' : `, in about ${next.minutes_to_graduation} min`}.`
        : `No curve at ${minProgress}% or more is bonding now.`,
  }
}

export interface SmartMoneyRequest {
  token_address?: string
  interval?: keyof typeof SMART_INTERVALS
  limit?: number
}

/** Smart money: the index's proven wallets, and the coins they bought in the interval net of their sells. */
export async function smartMoney(
  ctx: ServiceContext,
  request: SmartMoneyRequest,
  deadlineAt: number,
): Promise<Static<typeof SmartMoneyResult>> {
  const interval = request.interval ?? '1h'
  const limit = request.limit ?? SMART_LIMIT.default
  const missing = new Set<string>()
  const [{ reads, index, nowS }, sol] = await Promise.all([readIndex(ctx, Math.floor(Date.now() / 1000)), solUsd(ctx)])
  const noFeed = indexMissing(index, missing)
  if (sol === null) missing.add('sol_usd')
  const byMint = new Map(reads.map((read) => [read.curve.mint, read]))
  const trades = new Map(reads.map((read) => [read.curve.mint, read.trades]))
  const { proven } = walletRecords(trades)
  const flows = smartFlows(trades, proven, nowS - SMART_INTERVALS[interval])
  const listed = flows.slice(0, limit)
  const { grades, focusRead, focusGrade } = await gradeWithFocus(
    ctx,
    reads,
    listed.map((flow) => flow.mint),
    request.token_address,
    deadlineAt,
    missing,
  )
  const stage = (read: Read) => stageOf(read.curve, read.reading, NEW_WITHIN_MIN.default * 60)
  const toItem = (
    read: Read,
    flow: { netFlowSol: number; buys: number; sells: number; wallets: string[] } | undefined,
    rank: number | null,
    grade: Snapshot,
  ): Static<typeof SmartMoneyItem> => ({
    rank,
    token_address: read.curve.mint,
    symbol: read.curve.symbol,
    name: read.curve.name,
    smart_wallets: flow?.wallets.length ?? 0,
    smart_buys: flow?.buys ?? 0,
    smart_sells: flow?.sells ?? 0,
    net_flow_sol: flow?.netFlowSol ?? 0,
    net_flow_usd: sol === null ? null : Math.round((flow?.netFlowSol ?? 0) * sol * 100) / 100,
    bonding_progress_pct: read.reading.progressPct,
    stage: stage(read),
    quick_scan: grade,
  })
  const items = listed.map((flow, i) => toItem(byMint.get(flow.mint)!, flow, i + 1, grades[i] ?? null))
  const focusFlow = focusRead
    ? smartFlows(new Map([[focusRead.curve.mint, focusRead.trades]]), proven, nowS - SMART_INTERVALS[interval])[0]
    : undefined
  const focus = focusRead
    ? (items.find((item) => item.token_address === focusRead.curve.mint) ??
      toItem(focusRead, focusFlow, null, focusGrade))
    : null
  const top = items[0]
  return {
    ...feedEnvelope(missing, noFeed),
    interval,
    source: 'launchpad_index',
    proven_wallets: proven.size,
    index,
    items,
    focus,
    summary: noFeed
      ? NO_INDEX_SUMMARY
      : top
        ? `${proven.size} proven wallets; over ${interval} they bought ${items.length} coins on net, led by ${top.symbol || top.token_address} (${top.smart_wallets} wallets, +${top.net_flow_sol} SOL).`
        : `${proven.size} proven wallets; none bought on net over ${interval}.`,
  }
}
