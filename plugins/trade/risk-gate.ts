/**
 * The risk gate of a swap quote: a quick scan of the token being bought, plus the honeypot check
 * (can a holder sell it at all?), turned into PASS, WARN or BLOCK (docs/trade.md §Risk gate).
 */
import type { ServiceContext } from '../../src/context.ts'
import type { DataQuality } from '../../src/facts/data-quality.ts'
import type { Grade } from '../../src/pipeline/grade.ts'
import { checkFindings } from '../../src/pipeline/scan.ts'
import { scanToken } from '../../src/pipeline/scan-token.ts'
import { orderFactors } from '../../src/pipeline/order.ts'
import type { Factor } from '../../src/pipeline/signal.ts'
import { QUICK_SCAN_POLICY } from '../../src/pipeline/policies.ts'
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

/**
 * The gate over `mint`: the quick scan, and the deep dive's honeypot check (from the registry) over the
 * facts the quick scan gathered, its facts answering by `deadlineAt` (ms since epoch).
 */
export async function riskGate(ctx: ServiceContext, mint: string, deadlineAt: number): Promise<RiskGate> {
  const scan = await scanToken(ctx, mint, QUICK_SCAN_POLICY, deadlineAt)
  const sellCheck = checkFindings(ctx.signals, 'honeypot', scan, mint)
  const { data_quality, missing_fields } = scan.quality
  const verdict = gateVerdict({
    grade: scan.grade,
    dataQuality: data_quality,
    missing: missing_fields,
    // The reasons in the answers' order: the deciding findings first.
    factors: orderFactors([...scan.factors, ...sellCheck]),
  })
  return { ...verdict, token: mint, grade: scan.grade, data_quality }
}
