import type { Static } from '@sinclair/typebox'
import type { ScanResult } from '../../src/pipeline/scan.ts'
import { SCHEMA_VERSION } from '../../src/kernel/version.ts'
import { type MemberOf, measuredOr, NOT_MEASURED_TEXT, unmeasured } from '../../src/rendering/answer-prose.ts'
import { pct } from '../../src/rendering/format.ts'
import type { QuickScanResult } from './schemas.ts'

/** What the quick scan grades, and what it leaves to the other scanners (spec §1 rule 5). */
export const SCOPE = {
  includes: [
    'mint_authority',
    'freeze_authority',
    'authority_exemption',
    'token_2022_extensions',
    'holder_concentration',
    'liquidity_depth',
    'lp_status',
    'token_age',
    'metadata_mutability',
  ],
  excludes: [
    'market_signals',
    'price_action',
    'wallet_clustering',
    'developer_history',
    'wash_trading',
    'bundled_launch',
    'sniper_activity',
    'honeypot_simulation',
  ],
}

/** Maps a quick-scan run to the spec §2.2 answer. */
export function quickScanAnswer(mint: string, scan: ScanResult): Static<typeof QuickScanResult> {
  // biome-ignore lint/suspicious/noExplicitAny: signals type their own fields; the answer builder reads the ones it names
  const fields = scan.fields as Record<string, any>
  const metadata = scan.facts.get('metadata')
  const launchpad = scan.facts.get('launchpad')
  const historical: string[] = []
  if (launchpad?.pumpFun) historical.push(launchpad.pumpFun.complete ? 'PUMP_FUN_GRADUATED' : 'PUMP_FUN_BONDING_CURVE')
  const answer = {
    schema_version: SCHEMA_VERSION,
    token_address: mint,
    symbol: metadata?.symbol || null,
    name: metadata?.name || null,
    logo_uri: metadata?.logoUri ?? null,
    grade_type: 'STRUCTURAL_SAFETY' as const,
    scope: SCOPE,
    // Not readable = not shown revoked: the conservative answer, with `mint` listed in missing_fields.
    mint_authority_revoked: fields.mint_authority_revoked === true,
    freeze_authority_revoked: fields.freeze_authority_revoked === true,
    top_10_holder_pct: fields.top_10_holder_pct ?? null,
    holders_source: fields.holders_source ?? null,
    liquidity_check: fields.liquidity_check,
    lp_burned: fields.lp_burned ?? null,
    lp_model: fields.lp_model ?? 'UNKNOWN',
    lp_status: fields.lp_status ?? 'UNKNOWN',
    structural_risk_grade: scan.grade,
    authority_exempt: fields.authority_exempt === true,
    launch_anomaly: fields.launch_anomaly,
    liquidity_lock_status: fields.liquidity_lock_status,
    factors: scan.factors,
    historical_flags: historical,
    confidence: scan.confidence,
    data_confidence: scan.quality.data_confidence,
    data_quality: scan.quality.data_quality,
    missing_fields: scan.quality.missing_fields,
    summary: '',
  }
  answer.summary = summarise(answer, scan)
  return answer
}

function summarise(
  answer: Omit<Static<typeof QuickScanResult>, 'summary'> & { summary: string },
  scan: ScanResult,
): string {
  const name = answer.symbol ? `${answer.symbol}${answer.name ? ` (${answer.name})` : ''}` : answer.token_address
  // In the answer's order: the deciding findings first (src/pipeline/order.ts).
  const risks = scan.factors.filter((entry) => entry.hard_fail || entry.impact < 0)
  const known = (member: MemberOf<'quick_scan'>, text: () => string) => measuredOr(answer, 'quick_scan', member, text)
  const parts = [
    `${name}: structural grade ${answer.structural_risk_grade} (score ${scan.score}/100).`,
    risks.length > 0
      ? `Risks: ${risks
          .slice(0, 4)
          .map((entry) => entry.title)
          .join('; ')}.`
      : 'No structural risk found.',
    // A live authority is a risk named above; one that could not be read is neither revoked nor live.
    ...(unmeasured(answer, 'quick_scan', 'mint_authority_revoked')
      ? [`Mint and freeze authorities: ${NOT_MEASURED_TEXT} (the mint account could not be read).`]
      : []),
    `Liquidity ${known('liquidity_check', () => answer.liquidity_check.rating)}; LP ${known('lp_status', () => answer.lp_status.toLowerCase().replace('_', ' '))}; top 10 wallets ${known('top_10_holder_pct', () => pct(answer.top_10_holder_pct))}.`,
  ]
  if (answer.authority_exempt) parts.push('Issuer-controlled asset: live authorities expected.')
  if (answer.missing_fields.length > 0)
    parts.push(`Not assessed (sources unavailable): ${answer.missing_fields.join(', ')}.`)
  return parts.join(' ')
}
