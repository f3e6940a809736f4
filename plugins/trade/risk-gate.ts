/**
 * The risk gate of a swap quote: a quick scan of the token being bought, plus the honeypot check
 * (can a holder sell it at all?), turned into PASS, WARN or BLOCK (docs/trade.md §Risk gate).
 */
import type { ServiceContext } from '../../src/context.ts'
import type { DataQuality } from '../../src/facts/data-quality.ts'
import { createTokenContext } from '../../src/facts/index.ts'
import type { Grade } from '../../src/pipeline/grade.ts'
import { runScan } from '../../src/pipeline/scan.ts'
import { orderFactors } from '../../src/pipeline/order.ts'
import type { Factor } from '../../src/pipeline/signal.ts'
import { QUICK_SCAN_POLICY } from '../../src/pipeline/policies.ts'
import honeypot from '../../signals/honeypot/index.ts'
import type { RiskGate } from './schemas.ts'

/** F is the quick scan's "do not touch"; C and D are buyable with eyes open. */
const BLOCK_GRADES: ReadonlySet<Grade> = new Set(['F'])
const WARN_GRADES: ReadonlySet<Grade> = new Set(['C', 'D'])
/**
 * Findings that stop a purchase outright: nobody could sell what was bought, or what would be bought
 * is a copy of a registered asset on another mint (the finding names the real one to buy instead).
 */
const BLOCK_CODES = new Set(['HONEYPOT', 'IMPERSONATES_ASSET'])
/** Findings worth a warning whatever their severity: the issuer can stop sales at will. */
const WARN_CODES = new Set(['SELL_BLOCKABLE'])

const serious = (entry: Factor) => entry.severity === 'high' || entry.severity === 'critical'

/** The verdict and its reasons, from a scan's grade, data quality and findings (pure). */
export function gateVerdict(scan: {
  grade: Grade
  dataQuality: DataQuality
  missing: readonly string[]
  factors: readonly Factor[]
}): Pick<RiskGate, 'verdict' | 'reasons'> {
  const blocking =
    scan.factors.some((entry) => entry.hard_fail || BLOCK_CODES.has(entry.code)) || BLOCK_GRADES.has(scan.grade)
  const limited = scan.dataQuality === 'LIMITED'
  const warning =
    WARN_GRADES.has(scan.grade) || limited || scan.factors.some((entry) => WARN_CODES.has(entry.code) || serious(entry))
  const shown = scan.factors.filter(
    (entry) => entry.hard_fail || BLOCK_CODES.has(entry.code) || WARN_CODES.has(entry.code) || serious(entry),
  )
  const reasons = shown.map((entry) => ({ code: entry.code, severity: entry.severity, detail: entry.detail }))
  if (limited)
    reasons.push({
      code: 'SCAN_LIMITED',
      severity: 'medium',
      detail: `The scan could not read ${scan.missing.join(', ') || 'enough data'}: the token is not vouched for.`,
    })
  return { verdict: blocking ? 'BLOCK' : warning ? 'WARN' : 'PASS', reasons }
}

export async function riskGate(ctx: ServiceContext, mint: string, deadlineMs: number): Promise<RiskGate> {
  const facts = createTokenContext(mint, ctx.sources, deadlineMs)
  try {
    const scan = await runScan(facts, ctx.signals, QUICK_SCAN_POLICY)
    // The deep dive's honeypot detector (imported, so it cannot be missing), over the facts the quick scan gathered.
    const sellCheck = honeypot.detect(scan.facts, honeypot.meta.defaults, { mint, now: scan.now }).factors
    const { data_quality, missing_fields } = scan.quality
    const verdict = gateVerdict({
      grade: scan.grade,
      dataQuality: data_quality,
      missing: missing_fields,
      // The reasons in the answers' order: the deciding findings first.
      factors: orderFactors([...scan.factors, ...sellCheck]),
    })
    return { ...verdict, token: mint, grade: scan.grade, data_quality }
  } finally {
    facts.close(ctx.logger)
  }
}
