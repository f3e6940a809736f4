/**
 * The risk gate of a swap quote: a quick scan of the token being bought, plus the honeypot check
 * (can a holder sell it at all?), turned into PASS, WARN or BLOCK (docs/trade.md §Risk gate).
 */
import type { ServiceContext } from '../../src/context.ts'
import { createTokenContext } from '../../src/facts/index.ts'
import { runScan } from '../../src/pipeline/scan.ts'
import type { Factor } from '../../src/pipeline/signal.ts'
import { QUICK_SCAN_POLICY } from '../quick-scan/index.ts'
import type { RiskGate } from './schemas.ts'

/** Grades that block a purchase, and those that let it through with a warning. */
const BLOCK_GRADES = new Set(['F'])
const WARN_GRADES = new Set(['C', 'D'])

export async function riskGate(ctx: ServiceContext, mint: string, deadlineMs: number): Promise<RiskGate> {
  const facts = createTokenContext(mint, ctx.sources, deadlineMs)
  try {
    const scan = await runScan(facts, ctx.signals, QUICK_SCAN_POLICY)
    const honeypot = ctx.signals.get('honeypot')
    const sellCheck = honeypot ? honeypot.detect(scan.facts, honeypot.meta.defaults as never, { mint, now: scan.now }).factors : []
    const factors: Factor[] = [...scan.factors, ...sellCheck]
    const blocking = factors.filter((entry) => entry.hard_fail || entry.code === 'HONEYPOT')
    const grade = scan.grade
    let verdict: RiskGate['verdict'] = 'PASS'
    if (blocking.length > 0 || BLOCK_GRADES.has(grade)) verdict = 'BLOCK'
    else if (
      WARN_GRADES.has(grade) ||
      scan.quality.data_quality === 'LIMITED' ||
      factors.some((entry) => entry.code === 'SELL_BLOCKABLE' || entry.severity === 'high' || entry.severity === 'critical')
    )
      verdict = 'WARN'
    const shown = factors.filter((entry) => entry.hard_fail || entry.code === 'HONEYPOT' || entry.code === 'SELL_BLOCKABLE' || entry.severity === 'high' || entry.severity === 'critical')
    const reasons = shown.map((entry) => ({ code: entry.code, severity: entry.severity, detail: entry.detail }))
    if (scan.quality.data_quality === 'LIMITED')
      reasons.push({ code: 'SCAN_LIMITED', severity: 'medium', detail: `The scan could not read ${scan.quality.missing_fields.join(', ') || 'enough data'}: the token is not vouched for.` })
    return { verdict, token: mint, grade, data_quality: scan.quality.data_quality, reasons }
  } finally {
    facts.close(ctx.logger)
  }
}
