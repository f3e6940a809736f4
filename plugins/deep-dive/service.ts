import type { Static } from '@sinclair/typebox'
import { cappingFactors } from '../../src/pipeline/grade.ts'
import type { ScanResult } from '../../src/pipeline/scan.ts'
import type { Signal } from '../../src/pipeline/signal.ts'
import { SCHEMA_VERSION } from '../../src/kernel/version.ts'
import { recommend } from './recommendation.ts'
import { fullRiskReport } from './report.ts'
import type { DeepDiveAnswer } from './schemas.ts'

export type { DeepDiveAnswer }
import { RISK_GROUPS, type KeyDriver, type RiskGroup, type RISK_LEVELS } from './schemas.ts'

type Level = (typeof RISK_LEVELS)[number]

/** Where a signal that declares no risk group (a third-party one) counts: contract risk. */
const DEFAULT_GROUP: RiskGroup = 'contract_risk'

/** A group's points at or below which it is HIGH: more than one serious finding (unburned LP −25 held by one wallet −10; mint −25 and freeze −15 authorities). */
export const HIGH_POINTS = -35
/** A group's points at or below which it is MEDIUM (one real finding, e.g. a live freeze authority, −15). */
export const MEDIUM_POINTS = -10
/** Findings listed in `key_drivers`. */
export const MAX_KEY_DRIVERS = 5
const DAY_S = 86_400

const groupOf = (signal: Signal): RiskGroup => signal.meta.riskGroup ?? DEFAULT_GROUP

/**
 * Each group's level: HIGH on a hard fail or a critical finding, or points ≤ HIGH_POINTS; MEDIUM at
 * points ≤ MEDIUM_POINTS; LOW otherwise. A group none of whose signals could run is MEDIUM: unknown is
 * not clean.
 */
export function riskBreakdown(scan: ScanResult): Record<RiskGroup, Level> {
  const levels = {} as Record<RiskGroup, Level>
  for (const group of RISK_GROUPS) {
    const outcomes = scan.outcomes.filter(({ signal }) => groupOf(signal) === group)
    const factors = outcomes.flatMap(({ outcome }) => outcome.factors)
    const points = factors.reduce((sum, entry) => sum + entry.impact, 0)
    const assessed = outcomes.some(({ outcome }) => outcome.status === 'ok')
    levels[group] =
      factors.some((entry) => entry.hard_fail || entry.severity === 'critical') || points <= HIGH_POINTS
        ? 'HIGH'
        : !assessed || points <= MEDIUM_POINTS
          ? 'MEDIUM'
          : 'LOW'
  }
  return levels
}

/**
 * The findings that decided the verdict, each with the risk group its signal declares: the first risks
 * of `factors`, which the pipeline orders deciding first (hard fails, ceilings, severity, impact:
 * src/pipeline/order.ts).
 */
export function keyDrivers(scan: Pick<ScanResult, 'factors' | 'outcomes'>): Static<typeof KeyDriver>[] {
  const groups = new Map(scan.outcomes.map(({ signal }) => [signal.meta.id, groupOf(signal)]))
  return scan.factors
    .filter((entry) => entry.hard_fail || entry.impact < 0)
    .slice(0, MAX_KEY_DRIVERS)
    .map((entry) => ({
      code: entry.code,
      signal: entry.signal,
      risk_group: groups.get(entry.signal) ?? DEFAULT_GROUP,
      severity: entry.severity,
      impact: entry.impact,
      hard_fail: entry.hard_fail,
      title: entry.title,
    }))
}

/** The fields one signal produced (picked by signal, so two signals' homonymous fields never collide). */
// biome-ignore lint/suspicious/noExplicitAny: signals type their own fields; the answer builder reads the ones it names
function fieldsOf(scan: ScanResult, id: string): Record<string, any> {
  return scan.outcomes.find(({ signal }) => signal.meta.id === id)?.outcome.fields ?? {}
}

/** Keys whose value is undefined are left out: an unmeasured optional field is absent, not guessed. */
function defined<T extends Record<string, unknown>>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T
}

/** Maps a deep-dive run to the spec §2.4 answer (its data quality as the pipeline assessed it under the policy). */
export function deepDiveAnswer(mint: string, scan: ScanResult): DeepDiveAnswer {
  const structural = {
    ...fieldsOf(scan, 'mint-authority'),
    ...fieldsOf(scan, 'freeze-authority'),
    ...fieldsOf(scan, 'authority-exemption'),
    ...fieldsOf(scan, 'holder-concentration'),
    ...fieldsOf(scan, 'lp-status'),
  }
  const honeypot = fieldsOf(scan, 'honeypot')
  const dev = fieldsOf(scan, 'dev-history').dev_wallet_analysis
  const bundled = fieldsOf(scan, 'bundled-launch').bundled_launch_detected
  const sniper = fieldsOf(scan, 'sniper-activity').sniper_activity
  const wash = fieldsOf(scan, 'wash-trading').trading_pattern
  const pattern = fieldsOf(scan, 'launch-pattern').launch_pattern ?? 'UNKNOWN'
  const momentum = fieldsOf(scan, 'momentum')
  const lock = fieldsOf(scan, 'liquidity-lock').liquidity_lock_status
  const launchpad = scan.facts.get('launchpad')

  const breakdown = riskBreakdown(scan)
  const drivers = keyDrivers(scan)
  // A bonding curve has no LP (the deep dive's enum has no CUSTODIAL).
  const lpStatus = structural.lp_status === 'CUSTODIAL' ? 'NOT_APPLICABLE' : (structural.lp_status ?? 'UNKNOWN')
  const exempt = structural.authority_exempt === true
  const mintRevoked = structural.mint_authority_revoked === true
  const freezeRevoked = structural.freeze_authority_revoked === true

  const historical: string[] = []
  if (launchpad?.pumpFun) historical.push(launchpad.pumpFun.complete ? 'PUMP_FUN_GRADUATED' : 'PUMP_FUN_BONDING_CURVE')
  if (dev?.previous_rugs) historical.push('DEV_PREVIOUS_RUGS')
  if (bundled) historical.push('BUNDLED_LAUNCH')
  if (pattern === 'STEALTH_LAUNCH') historical.push('STEALTH_LAUNCH')
  if (sniper === 'HIGH') historical.push('SNIPED_LAUNCH')
  if (scan.factors.some((entry) => entry.code === 'WASH_TRADING' || entry.code === 'WASH_TRADING_EXTREME'))
    historical.push('WASH_TRADING')

  const recommendation = recommend({
    grade: scan.grade,
    hardFail: scan.factors.some((entry) => entry.hard_fail),
    quality: scan.quality.data_quality,
    missing: scan.quality.missing_fields,
    completeness: scan.quality.completeness,
    breakdown,
    isHoneypot: honeypot.is_honeypot,
    previousRugs: dev?.previous_rugs,
    capping: cappingFactors(scan.score, scan.factors),
    ageDays: ageDays(scan),
    permanentSafety:
      (mintRevoked || exempt) &&
      (freezeRevoked || exempt) &&
      // A time lock counts only when lp-status finds it lasting (LP_LOCKED: for good, or a year away).
      (lpStatus === 'BURNED' ||
        lpStatus === 'NOT_APPLICABLE' ||
        scan.factors.some((entry) => entry.code === 'LP_LOCKED')),
    drivers,
  })

  const answer = defined({
    schema_version: SCHEMA_VERSION,
    token_address: mint,
    is_honeypot: honeypot.is_honeypot,
    // Not readable = not shown revoked: the quick scan's conservative answer, with `mint` missing.
    mint_authority_revoked: mintRevoked,
    freeze_authority_revoked: freezeRevoked,
    top_10_holder_pct: structural.top_10_holder_pct ?? null,
    holders_source: structural.holders_source ?? null,
    authority_exempt: exempt,
    lp_burned: structural.lp_burned ?? null,
    lp_status: lpStatus,
    lp_model: structural.lp_model ?? 'UNKNOWN',
    risk_grade: scan.grade,
    risk_breakdown: breakdown,
    wallet_analysis: fieldsOf(scan, 'wallet-clustering').wallet_analysis,
    dev_wallet_analysis: dev,
    launch_pattern: pattern,
    sniper_activity: sniper,
    liquidity_lock_status: lock,
    trading_pattern: wash,
    pump_launchpad_launched: fieldsOf(scan, 'launchpad').pump_launchpad_launched,
    bundled_launch_detected: bundled,
    volume_24h: momentum.volume_24h,
    price_change_24h_pct: momentum.price_change_24h_pct,
    momentum_score: momentum.momentum_score,
    factors: scan.factors,
    historical_flags: historical,
    key_drivers: drivers,
    recommendation,
    full_risk_report: '',
    confidence: scan.confidence,
    data_confidence: scan.quality.data_confidence,
    data_quality: scan.quality.data_quality,
    missing_fields: scan.quality.missing_fields,
  }) as DeepDiveAnswer
  answer.full_risk_report = fullRiskReport(answer, scan)
  return answer
}

/** Days since the mint's creation (launch fact), else since the oldest market pair opened; null when neither is known. */
function ageDays(scan: ScanResult): number | null {
  const created = scan.facts.get('launch')?.createdAt ?? null
  const pairs = (scan.facts.get('market')?.pairs ?? [])
    .map((pair) => pair.pairCreatedAt)
    .filter((value): value is number => typeof value === 'number')
  const since = created ?? (pairs.length > 0 ? Math.min(...pairs) / 1000 : null)
  return since === null ? null : Math.round(((scan.now - since) / DAY_S) * 10) / 10
}
