import type { ScanResult } from '../../src/pipeline/scan.ts'
import type { Factor } from '../../src/pipeline/signal.ts'
import { PERMANENT_LOCK_DAYS } from '../../src/kernel/vocabulary.ts'
import {
  type MemberOf,
  measuredOr,
  NOT_MEASURED_TEXT as NOT_MEASURED,
  unmeasured,
} from '../../src/rendering/answer-prose.ts'
import { amount, count, num, pct, usd } from '../../src/rendering/format.ts'
import type { DeepDiveAnswer } from './schemas.ts'

/**
 * The deep dive's `full_risk_report`: paragraphs a person can read — verdict, contract, liquidity,
 * market, behaviour, every risk finding with its code and measured values, and the data behind it.
 * Every sentence states a measured value or says that it was not measured.
 */
export function fullRiskReport(answer: DeepDiveAnswer, scan: ScanResult): string {
  const metadata = scan.facts.get('metadata')
  const name = metadata?.symbol
    ? `${metadata.symbol}${metadata.name ? ` (${metadata.name})` : ''}`
    : answer.token_address
  const r = answer.recommendation
  const b = answer.risk_breakdown
  const code = (id: string) => scan.factors.filter((entry) => entry.signal === id && entry.code !== 'UNKNOWN')
  const cite = (entries: Factor[]) => entries.map((entry) => `${entry.title} [${entry.code}]`).join('; ')
  // A member the missing facts left at a neutral value is "not measured", never its placeholder.
  const known = (member: MemberOf<'deep_dive'>, text: () => string) => measuredOr(answer, 'deep_dive', member, text)
  const authority = (revoked: boolean) => (revoked ? 'revoked' : 'live')

  const verdict =
    `${name} — deep dive: risk grade ${answer.risk_grade} (score ${scan.score}/100). Recommendation: ${r.action} ` +
    `(${r.time_horizon.toLowerCase().replace('_', ' ')}, confidence ${r.confidence}). ${r.reason} ` +
    `Risk breakdown: contract ${b.contract_risk}, liquidity ${b.liquidity_risk}, market ${b.market_risk}, behavioural ${b.behavioral_risk}.`

  const contractFindings = [
    ...code('honeypot'),
    ...code('mint-authority'),
    ...code('freeze-authority'),
    ...code('token-2022-extensions'),
    ...code('metadata-mutability'),
    ...code('authority-exemption'),
  ]
  const contract =
    `Contract. Honeypot: ${answer.is_honeypot === undefined ? NOT_MEASURED : answer.is_honeypot ? 'yes — holders cannot sell' : 'no sale blocker found'}. ` +
    `Mint authority ${known('mint_authority_revoked', () => authority(answer.mint_authority_revoked))}, freeze authority ${known('freeze_authority_revoked', () => authority(answer.freeze_authority_revoked))}` +
    `${answer.authority_exempt ? ' (issuer-controlled asset: live authorities expected, not penalised)' : ''}. ` +
    (contractFindings.length > 0 ? `Findings: ${cite(contractFindings)}.` : 'No contract finding.')

  const liquidity = scan.outcomes.find(({ signal }) => signal.meta.id === 'liquidity')?.outcome.fields as
    | { liquidity_check?: { rating: string }; liquidity_usd?: number | null }
    | undefined
  const lock = answer.liquidity_lock_status
  const liquidityText =
    `Liquidity. ${liquidity?.liquidity_check ? `Rating ${liquidity.liquidity_check.rating}` : 'Rating not measured'}` +
    `${typeof liquidity?.liquidity_usd === 'number' ? ` (${usd(liquidity.liquidity_usd)})` : ''}; ` +
    `LP: ${known('lp_status', () => `model ${answer.lp_model}, status ${answer.lp_status}${answer.lp_burned === null ? '' : answer.lp_burned ? ' (burned)' : ' (not burned)'}`)}; ` +
    `lock: ${lock ? `${lock.locked ? 'locked' : 'not locked'}${lockDuration(answer)}, ${pct(lock.locked_pct)} burned or locked (${pct(lock.burned_pct)} burned, ${pct(lock.lock_program_pct)} in ${lock.source === 'bonding_curve' ? 'the bonding curve' : 'lock programs'})` : NOT_MEASURED}. ` +
    (code('liquidity').length + code('lp-status').length + code('liquidity-lock').length > 0
      ? `Findings: ${cite([...code('liquidity'), ...code('lp-status'), ...code('liquidity-lock')])}.`
      : '')

  const market =
    `Market. Volume 24 h: ${known('volume_24h', () => usd(answer.volume_24h))}; ` +
    `price change 24 h: ${known('price_change_24h_pct', () => pct(answer.price_change_24h_pct, { signed: true }))}; ` +
    `momentum score: ${known('momentum_score', () => `${num(answer.momentum_score)}/100`)}; top 10 wallets hold ${answer.top_10_holder_pct === null ? NOT_MEASURED : known('top_10_holder_pct', () => pct(answer.top_10_holder_pct))}. ` +
    (code('holder-concentration').length + code('momentum').length > 0
      ? `Findings: ${cite([...code('holder-concentration'), ...code('momentum')])}.`
      : '')

  const dev = answer.dev_wallet_analysis
  const wallets = answer.wallet_analysis
  const trading = answer.trading_pattern
  const behaviour = [
    'Behaviour.',
    dev
      ? `Developer wallet ${dev.address}: ${dev.sol_balance === null ? `SOL balance ${NOT_MEASURED}` : amount(dev.sol_balance, 'SOL')}, ${dev.created_tokens_count === null ? 'other tokens created unknown' : `${num(dev.created_tokens_count)}${dev.history_complete ? '' : '+'} other ${dev.created_tokens_count === 1 && dev.history_complete ? 'token' : 'tokens'} created`}, ${dev.previous_rugs ? 'PULLED THE LIQUIDITY OF EARLIER TOKENS' : 'no earlier rug found'}${dev.history_complete ? '' : ' (history read in part)'}.`
      : `Developer history: ${NOT_MEASURED}.`,
    wallets
      ? `Wallet clustering: ${num(wallets.clustered_wallets)} of ${count(wallets.wallets_traced, 'traced wallet')} linked by their funding; developer-linked wallets: ${wallets.dev_wallet_linked ? 'yes' : 'none found'}; ${wallets.insider_control_percent === null ? `insiders' share of the supply ${NOT_MEASURED}` : `insiders hold ${pct(wallets.insider_control_percent)} of the supply`}.`
      : `Wallet clustering: ${NOT_MEASURED}.`,
    `Launch: ${known('launch_pattern', () => answer.launch_pattern.toLowerCase().replace('_', ' '))}; bundled launch: ${answer.bundled_launch_detected === undefined ? NOT_MEASURED : answer.bundled_launch_detected ? 'yes' : 'no'}; sniper activity: ${answer.sniper_activity ?? NOT_MEASURED}; launchpad: ${answer.pump_launchpad_launched === undefined ? NOT_MEASURED : answer.pump_launchpad_launched ? 'pump.fun (read on chain)' : 'none'}.`,
    trading
      ? `Trading: wash-trading score ${trading.wash_trading_score}/100, ${count(trading.unique_buyers_24h, 'distinct buyer')} and ${count(trading.swaps_24h, 'swap')} in 24 h${trading.window_complete ? '' : ' (window read in part: floors)'}, buy/sell ratio 1 h ${trading.swaps_1h === 0 ? 'n/a (no trade in the hour)' : num(trading.buy_sell_ratio_1h)}.`
      : `Trading pattern: ${NOT_MEASURED}.`,
  ].join(' ')

  // In the answer's order: the deciding findings first (src/pipeline/order.ts).
  const risks = scan.factors.filter((entry) => entry.impact < 0 || entry.hard_fail)
  const findings =
    risks.length === 0
      ? 'Risk findings: none.'
      : [
          'Risk findings:',
          ...risks.map(
            (entry) =>
              `- [${entry.code}] ${entry.title} (${count(entry.impact, 'point')}${entry.hard_fail ? ', hard fail' : ''}): ${entry.detail}${evidence(entry)}`,
          ),
        ].join('\n')

  const data =
    `Data: ${answer.data_quality} (confidence ${answer.data_confidence}; model ${answer.confidence.model}, completeness ${answer.confidence.data_completeness}, consensus ${answer.confidence.signal_consensus}). ` +
    (answer.missing_fields.length > 0
      ? `Not gathered: ${answer.missing_fields.join(', ')}; the fields they feed are left out rather than guessed.`
      : 'Every source answered.')

  return [verdict, contract, liquidityText.trim(), market.trim(), behaviour, findings, data].join('\n\n')
}

/** How long the LP stays locked, as measured: for good, the days left, or not measured (empty when not locked). */
function lockDuration(answer: DeepDiveAnswer): string {
  const lock = answer.liquidity_lock_status!
  if (lock.permanent || lock.lock_duration_days >= PERMANENT_LOCK_DAYS) return ' for good (nothing can release it)'
  if (unmeasured(answer, 'deep_dive', 'liquidity_lock_status.lock_duration_days')) return ` (duration ${NOT_MEASURED})`
  return lock.locked ? ` for ${count(Math.round(lock.lock_duration_days), 'more day')}` : ''
}

/** A finding's measured values in short: scalars only (lists and objects are in `factors`). */
function evidence(entry: Factor): string {
  const scalars = Object.entries(entry.evidence).filter(
    ([, value]) =>
      typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= 20),
  )
  return scalars.length === 0
    ? ''
    : ` (${scalars.map(([key, value]) => `${key} ${typeof value === 'number' ? num(value) : value}`).join(', ')})`
}
