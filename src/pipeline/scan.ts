import type { TokenContext } from '../facts/token-context.ts'
import { assessDataQuality, type FactPolicy, type QualityAssessment } from '../facts/data-quality.ts'
import type { FactName, Facts } from '../facts/types.ts'
import { gradeOf, scoreOf, type Grade } from './grade.ts'
import type { SignalRegistry } from './registry.ts'
import { NOT_MEASURED } from './derive/not-measured.ts'
import { POOL_FACTS } from './derive/opening.ts'
import { orderFactors } from './order.ts'
import {
  factor,
  missingOf,
  type Factor,
  type FactView,
  type ScannerId,
  type Signal,
  type SignalOutcome,
} from './signal.ts'

/**
 * What a scanner's data quality counts beyond the facts the context lost (docs/data-quality.md): one
 * computation, in the pipeline, read from the policy.
 */
export interface QualityRules {
  /** Facts its signals report they could not use count as missing (a market listing no pair for the token). */
  signalMissing?: boolean
  /**
   * Fields its signals could not measure from the facts they had (NOT_MEASURED findings): listed after
   * the facts, in this order, and they lower FULL to PARTIAL.
   */
  unmeasuredFields?: readonly string[]
  /** A trades fact naming no pool while the pool facts are missing counts as missing: "never traded" is not known. */
  hollowTrades?: boolean
}

/** What a scanner runs: its signals (from the registry) over its facts (core and optional). */
export interface ScanPolicy {
  scanner: ScannerId
  facts: FactPolicy
  quality?: QualityRules
  /** Per-signal option overrides (defaults come from each signal's meta). */
  options?: Record<string, Record<string, unknown>>
}

export interface ScanResult {
  outcomes: { signal: Signal; outcome: SignalOutcome }[]
  /** Every signal's findings, the deciding ones first (`orderFactors`). */
  factors: Factor[]
  /** The typed fields every signal produced, merged. */
  fields: Record<string, unknown>
  score: number
  grade: Grade
  quality: QualityAssessment
  /** The envelope's `confidence` object, each member 0–1 (docs/scoring.md). */
  confidence: { model: number; data_completeness: number; signal_consensus: number }
  facts: FactView
  now: number
}

/** How much a signal's own confidence counts in the `model` confidence. */
const CONFIDENCE_WEIGHT = { high: 1, medium: 0.8, low: 0.6 } as const

/**
 * Runs a scanner: gathers its facts (under the context's deadline), runs each of its signals over
 * them, and scores, grades and qualifies the result. A detector that throws (a bug, not a data
 * problem) becomes an `unknown` outcome with a SIGNAL_ERROR factor: it never fails the scan.
 */
export async function runScan(
  token: TokenContext,
  registry: SignalRegistry,
  policy: ScanPolicy,
  now = Math.floor(Date.now() / 1000),
): Promise<ScanResult> {
  const signals = registry.forScanner(policy.scanner)
  const names = new Set<FactName>(factsOf(registry, policy))
  await token.gather([...names])
  const values = new Map<FactName, unknown>()
  for (const name of names) values.set(name, await token.fact(name))
  const facts: FactView = { get: <K extends FactName>(name: K) => values.get(name) as Facts[K] | undefined }

  const outcomes = signals.map((signal) => {
    const options = optionsFor(signal, policy)
    try {
      return { signal, outcome: signal.detect(facts, options, { mint: token.mint, now }) }
    } catch (error) {
      const outcome: SignalOutcome = {
        status: 'unknown',
        missing: [],
        factors: [
          factor(
            signal.meta,
            'SIGNAL_ERROR',
            'info',
            0,
            `${signal.meta.title}: not assessed`,
            `The detector failed: ${(error as Error).message}`,
          ),
        ],
        fields: {},
      }
      return { signal, outcome }
    }
  })
  const found = outcomes.flatMap(({ outcome }) => outcome.factors)
  const fields = Object.assign({}, ...outcomes.map(({ outcome }) => outcome.fields)) as Record<string, unknown>
  const quality = qualityOf(
    policy,
    facts,
    outcomes,
    found,
    token.missing().map((entry) => entry.name),
  )
  // The answers' order, for every scanner: the deciding findings first (src/pipeline/order.ts).
  const unread = GRADE_NEEDS.filter((name) => names.has(name) && quality.missing_fields.includes(name))
  const factors = orderFactors(unread.length > 0 ? [...found, notRead(unread)] : found)
  const score = scoreOf(factors)
  return {
    outcomes,
    factors,
    fields,
    score,
    grade: gradeOf(score, factors),
    quality,
    confidence: confidenceOf(outcomes, quality),
    facts,
    now,
  }
}

/** Every fact a scan under `policy` reads: the policy's core and optional facts and its signals' own. */
export function factsOf(registry: SignalRegistry, policy: ScanPolicy): FactName[] {
  return [
    ...new Set<FactName>([
      ...policy.facts.core,
      ...policy.facts.optional,
      ...registry.forScanner(policy.scanner).flatMap((signal) => signal.meta.facts),
    ]),
  ]
}

/** The options `policy` runs `signal` with: the signal's defaults, then the policy's overrides for it. */
export function optionsFor(signal: Signal, policy: ScanPolicy): Record<string, unknown> {
  return { ...(signal.meta.defaults as object), ...policy.options?.[signal.meta.id] }
}

/**
 * A numeric option `policy` runs a signal with: a threshold a service or a schema quotes (the deep
 * dive's sniper window, the market intel bands), read where the scan reads it, never restated. Throws
 * when the signal is not registered or has no such number (a wiring error, caught at boot or in tests).
 */
export function policyOption(signal: Signal | undefined, policy: ScanPolicy, option: string): number {
  const value = signal ? optionsFor(signal, policy)[option] : undefined
  if (typeof value !== 'number')
    throw new Error(
      `${signal?.meta.id ?? 'an unregistered signal'} has no numeric option ${option} (${policy.scanner})`,
    )
  return value
}

/**
 * A registered signal's findings over a finished scan's facts, with its default options: a check a
 * service adds beside the scan's grade, which it does not count (the trade risk gate's honeypot check
 * over the quick scan's facts). Throws when the registry does not hold the signal: a check that cannot
 * run must not pass unseen.
 */
export function checkFindings(
  signals: SignalRegistry,
  signalId: string,
  scan: Pick<ScanResult, 'facts' | 'now'>,
  mint: string,
): Factor[] {
  const signal = signals.get(signalId)
  if (!signal) throw new Error(`signal ${signalId} is not registered`)
  return signal.detect(scan.facts, signal.meta.defaults, { mint, now: scan.now }).factors
}

/**
 * The pipeline's own finding when a scan could not read what every grade stands on: the mint account
 * (its authorities, its program, its extensions). Unread is not clean (docs/scoring.md), so the grade
 * cannot pass above C: an A over an unread mint would grade nothing. Other missing facts lower the
 * data quality and leave their signals UNKNOWN, as before — an old token's launch history that public
 * RPCs no longer serve must not cap USDC.
 */
export const CORE_NOT_READ = 'CORE_NOT_READ'
/** The best grade a scan that could not read GRADE_NEEDS can give. */
export const CORE_NOT_READ_CEILING: Grade = 'C'
/** The facts a grade cannot pass without, when the scanner asks for them. */
const GRADE_NEEDS: readonly FactName[] = ['mint']

function notRead(lost: readonly FactName[]): Factor {
  return factor(
    { id: 'data-quality' },
    CORE_NOT_READ,
    'medium',
    0,
    `Graded ${CORE_NOT_READ_CEILING} at best: ${lost.join(', ')} not read`,
    `The scan could not read ${lost.map((name) => `the ${name}`).join(' or ')}, without which it cannot judge the token: not read is not clean, so the grade cannot pass above ${CORE_NOT_READ_CEILING}. Scan again once the data source answers.`,
    { missing: lost },
    false,
    CORE_NOT_READ_CEILING,
  )
}

/**
 * The scan's data quality (docs/data-quality.md): the requested facts the context lost, plus what the
 * policy's rules count — facts signals could not use, a hollow trades fact, unmeasured fields.
 */
function qualityOf(
  policy: ScanPolicy,
  facts: FactView,
  outcomes: ScanResult['outcomes'],
  factors: readonly Factor[],
  lost: readonly FactName[],
): QualityAssessment {
  const rules = policy.quality ?? {}
  const missing = new Set<FactName>(lost)
  if (rules.signalMissing)
    for (const { outcome } of outcomes)
      if (outcome.status === 'unknown') for (const name of outcome.missing) missing.add(name)
  if (rules.hollowTrades) {
    const trades = facts.get('trades')
    if (trades !== undefined && trades.pool === null && missingOf(facts, POOL_FACTS).length > 0) missing.add('trades')
  }
  const quality = assessDataQuality(policy.facts, [...missing])
  if (!rules.unmeasuredFields) return quality
  const unmeasured = new Set(
    factors
      .filter((entry) => entry.code === NOT_MEASURED)
      .flatMap((entry) => (entry.evidence.fields as string[] | undefined) ?? []),
  )
  const fields = rules.unmeasuredFields.filter((name) => unmeasured.has(name))
  if (fields.length === 0) return quality
  const lowered =
    quality.data_quality === 'FULL' ? { data_quality: 'PARTIAL' as const, data_confidence: 'MEDIUM' as const } : {}
  return { ...quality, ...lowered, missing_fields: [...quality.missing_fields, ...(fields as FactName[])] }
}

function confidenceOf(outcomes: ScanResult['outcomes'], quality: QualityAssessment): ScanResult['confidence'] {
  const round = (value: number) => Math.round(value * 100) / 100
  const assessed = outcomes.filter(({ outcome }) => outcome.status === 'ok')
  const model =
    outcomes.length === 0
      ? 0
      : outcomes.reduce(
          (sum, { signal, outcome }) => sum + (outcome.status === 'ok' ? CONFIDENCE_WEIGHT[signal.meta.confidence] : 0),
          0,
        ) / outcomes.length
  const risky = assessed.filter(({ outcome }) => outcome.factors.some((entry) => entry.impact < 0)).length
  const consensus = assessed.length === 0 ? 0 : Math.max(risky, assessed.length - risky) / assessed.length
  return { model: round(model), data_completeness: quality.completeness, signal_consensus: round(consensus) }
}
