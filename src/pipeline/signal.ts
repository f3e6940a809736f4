import type { Static, TObject } from '@sinclair/typebox'
import type { FactName, Facts } from '../facts/types.ts'
import type { Grade, RiskGroup } from '../kernel/vocabulary.ts'

/** The scanners a signal can serve (spec §1: each scanner owns its own slice of signals). */
export type ScannerId = 'quick_scan' | 'market_intel' | 'deep_dive'
export const SCANNER_IDS: readonly ScannerId[] = ['quick_scan', 'market_intel', 'deep_dive']

/** How much a finding can move a verdict, and how sure the detector is of it (Slither-style). */
export type Impact = 'high' | 'medium' | 'low' | 'informational'
export type Confidence = 'high' | 'medium' | 'low'

/** The version of this contract; third-party signal packages declare the one they were written for. */
export const SIGNAL_API_VERSION = 1

/**
 * One finding a signal can raise, with its weight: the catalogue entry behind a `factors` item.
 * docs/scoring.md's tables are generated from these.
 */
export interface FindingSpec<OptionKey extends string = string> {
  severity: Severity
  /**
   * Score points (0 for information, negative for a risk): a number, or the name of the numeric
   * option that holds them (so a policy can tune it).
   */
  points: number | OptionKey
  /** Caps the grade at F whatever the score (a token nobody can sell). */
  hardFail?: boolean
  /**
   * Caps the grade at this one whatever the score: a fact that alone lets the developer take the
   * holder's money (docs/scoring.md, "Grade ceilings"). The grade is the worse of the score's band and
   * the lowest ceiling among the findings; `why` says why this cap.
   */
  ceiling?: Grade
  /** When it is raised, in words. */
  when: string
  /** Why this weight (a reference service's weight, a measured case…). */
  why?: string
  /**
   * Findings that tell another story of the same fact, so never stand in one answer with this one:
   * a code of this signal (`LP_UNBURNED`) or another signal's (`lp-status/LP_UNBURNED`). Symmetric
   * (declared on either side); the registry checks at boot that each names a declared finding, and
   * test/common-sense.test.ts that no answer carries both.
   */
  excludes?: readonly string[]
}

export interface SignalMeta<Options extends TObject = TObject, Code extends string = string> {
  /** kebab-case; third-party signals are `namespace/id`. */
  id: string
  /** semver of the detector's logic (bump when a verdict can change). */
  version: string
  title: string
  /** What it detects. */
  risk: string
  /** Why it matters to a buyer. */
  why: string
  scanners: readonly ScannerId[]
  /**
   * The risk group its findings count in (the deep dive's `risk_breakdown`). Every built-in signal
   * declares one; a third-party signal that does not counts as contract risk.
   */
  riskGroup?: RiskGroup
  /** Facts `detect` reads; missing ones make its outcome `unknown`. */
  facts: readonly FactName[]
  impact: Impact
  confidence: Confidence
  options: Options
  defaults: Static<Options>
  /** Every finding `detect` can raise, by its stable code (raised with `finding`). */
  findings: Readonly<Record<Code, FindingSpec<keyof Static<Options> & string>>>
}

export type { Severity } from '../kernel/vocabulary.ts'
import type { Severity } from '../kernel/vocabulary.ts'

/**
 * One entry of a response's `factors`: what was found, how bad, and by how many points it moved the
 * score (0 for information, negative for a risk). `hard_fail` caps the grade at F whatever the score.
 */
export interface Factor {
  code: string
  signal: string
  severity: Severity
  impact: number
  hard_fail: boolean
  /** The grade this finding caps the answer at (F for a hard fail), or null. */
  grade_ceiling: Grade | null
  title: string
  detail: string
  evidence: Record<string, unknown>
}

/** Read-only access to the facts a scan gathered (undefined = missing). */
export interface FactView {
  get<K extends FactName>(name: K): Facts[K] | undefined
}

export interface DetectContext {
  mint: string
  /** Unix seconds at which the scan runs (windows and ages are measured from it). */
  now: number
}

/**
 * What a detector returns: findings and the response fields it owns (by their wire names, e.g.
 * `mint_authority_revoked`; null where it could not measure); `unknown` when its facts were missing.
 * The response schemas check the fields' types.
 */
export type SignalFields = Record<string, unknown>

export type SignalOutcome =
  | { status: 'ok'; factors: Factor[]; fields: SignalFields }
  | { status: 'unknown'; missing: FactName[]; factors: Factor[]; fields: SignalFields }

export interface Signal<Options extends TObject = TObject> {
  meta: SignalMeta<Options>
  /** Pure over facts: no I/O, never throws for data problems. */
  detect(facts: FactView, options: Static<Options>, context: DetectContext): SignalOutcome
}

/** Declares a signal (the registry validates its meta at boot). */
export function defineSignal<Options extends TObject>(signal: Signal<Options>): Signal<Options> {
  return signal as Signal<Options>
}

/**
 * A factor for a signal's meta, with its severity and points given here. Signals raise findings with
 * `finding` (their catalogue); this is for the pipeline's own informational factors.
 */
export function factor(
  meta: Pick<SignalMeta, 'id'>,
  code: string,
  severity: Severity,
  impact: number,
  title: string,
  detail: string,
  evidence: Record<string, unknown> = {},
  hardFail = false,
  ceiling: Grade | null = null,
): Factor {
  const grade_ceiling = hardFail ? 'F' : ceiling
  return { code, signal: meta.id, severity, impact, hard_fail: hardFail, grade_ceiling, title, detail, evidence }
}

/**
 * The informational `UNKNOWN` factor of a detector that could not assess the token, with why: no
 * penalty and no invented values (docs/scoring.md: unknown is not clean).
 */
export function notAssessed(
  meta: Pick<SignalMeta, 'id' | 'title'>,
  detail: string,
  evidence: Record<string, unknown> = {},
): Factor {
  return factor(meta, 'UNKNOWN', 'info', 0, `${meta.title}: not assessed`, detail, evidence)
}

/** The outcome of a detector whose facts are missing: one `notAssessed` factor naming them. */
export function unknownOutcome(
  meta: Pick<SignalMeta, 'id' | 'title'>,
  missing: FactName[],
  fields: SignalFields = {},
): SignalOutcome {
  const detail = `Could not be assessed: ${missing.join(', ')} could not be gathered.`
  return { status: 'unknown', missing, factors: [notAssessed(meta, detail, { missing })], fields }
}

/** The facts of `names` that are missing from `facts`. */
export function missingOf(facts: FactView, names: readonly FactName[]): FactName[] {
  return names.filter((name) => facts.get(name) === undefined)
}

/** Declares a signal's meta with its types checked (the registry re-validates it at boot). */
export function signalMeta<Options extends TObject, Code extends string>(
  meta: SignalMeta<Options, Code>,
): SignalMeta<Options, Code> {
  return meta
}

/** The points of a finding under the options a scan runs with. */
export function pointsOf(spec: FindingSpec, options: Record<string, unknown>): number {
  return typeof spec.points === 'number' ? spec.points : (options[spec.points] as number)
}

/**
 * A factor from the signal's findings catalogue: severity, points and hard fail come from
 * `meta.findings[code]`; the call gives what was measured (title, detail, evidence).
 */
export function finding<Options extends TObject, Code extends string>(
  meta: SignalMeta<Options, Code>,
  options: Static<Options>,
  code: NoInfer<Code>,
  title: string,
  detail: string,
  evidence: Record<string, unknown> = {},
): Factor {
  const spec = meta.findings[code] as FindingSpec | undefined
  if (!spec) throw new Error(`signal ${meta.id} raised ${code}, which its findings catalogue does not declare`)
  const points = pointsOf(spec, options as Record<string, unknown>)
  return factor(
    meta,
    code,
    spec.severity,
    points,
    title,
    detail,
    evidence,
    spec.hardFail === true,
    spec.ceiling ?? null,
  )
}

/** An `ok` outcome. */
export function ok(factors: Factor[], fields: SignalFields): SignalOutcome {
  return { status: 'ok', factors, fields }
}
