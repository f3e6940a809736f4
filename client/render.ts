/**
 * The CLI's answers for people: a grade badge, the facts that matter, the findings that decided it in
 * plain words with their severities coloured, and the deep dive's recommendation. Colours only on a
 * terminal that has them (`NO_COLOR` turns them off).
 */
import type {
  OutputOf,
  DeepDive,
  ExitCheck,
  ExitCrossCheck,
  MarketIntel,
  QuickScan,
  QuickScanBatch,
  SignalRadar,
  TradeJob,
  GraduationMomentum,
  GraduationRadar,
  NewsBrief,
  NewsPulse,
  NewsPulsePlus,
  NewsReport,
  TradeSuggestion,
  LaunchRadar,
  SmartMoney,
  TradeQuote,
  Trending,
  WalletIntel,
} from './routes.ts'
import { clientCall } from './catalogue.ts'
import { commandWords } from './cli-words.ts'
import {
  amount,
  count,
  inAbout,
  missingInWords,
  num,
  pct,
  shortAddress,
  tokenAmount,
  usd as dollars,
  words,
} from './format.ts'
// A table with no imports (which members each missing fact leaves unmeasured, the scope in words): the
// service's renderers read the same one.
import {
  type MemberOf,
  lpText,
  NOT_MEASURED_TEXT,
  type RenderedAnswer,
  scopeLine,
  unmeasured,
} from '../src/rendering/answer-prose.ts'

/** Flag codes in words, as the page shows them: `BUNDLED_LAUNCH`, `SNIPED` → "bundled launch, sniped". */
const flagWords = (flags: readonly string[]) => flags.map(words).join(', ')

export interface Style {
  color: boolean
}

const CODES = { reset: 0, bold: 1, dim: 2, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, inverse: 7 }
type Tone = keyof typeof CODES

function paint(style: Style, text: string, ...tones: Tone[]): string {
  if (!style.color || tones.length === 0) return text
  return `${tones.map((tone) => `\x1b[${CODES[tone]}m`).join('')}${text}\x1b[0m`
}

const GRADE_TONE: Record<string, Tone> = { A: 'green', B: 'green', C: 'yellow', D: 'red', F: 'red' }
const SEVERITY_TONE: Record<string, Tone> = { critical: 'red', high: 'red', medium: 'yellow', low: 'cyan', info: 'dim' }

/** ` B ` in the grade's colour, reversed: the first thing a person reads. */
/** A status as a coloured block on a terminal; the word alone without colour (no padding left at a line's end). */
function tag(style: Style, text: string, tone: Tone): string {
  return style.color ? paint(style, ` ${text} `, 'bold', 'inverse', tone) : text
}

export function badge(style: Style, grade: string): string {
  return paint(style, ` ${grade} `, 'bold', 'inverse', GRADE_TONE[grade] ?? 'blue')
}

interface Finding {
  code: string
  severity: string
  title: string
  detail: string
  impact: number
  grade_ceiling?: string | null
  hard_fail?: boolean
}

/** The end of a scanner's view: what decided it (the deciding findings first), then the answer's summary. */
function decided(style: Style, findings: Finding[], summary: string): string[] {
  return [paint(style, 'What decided it', 'bold'), ...findingLines(style, findings), '', summary]
}

/**
 * The findings that decided the verdict, one line each with its severity coloured: the risks, in the
 * answer's order (the service puts the deciding ones first: hard fails, grade ceilings, severity,
 * impact), else every finding.
 */
function findingLines(style: Style, findings: Finding[], limit = 8): string[] {
  const risks = findings.filter((finding) => finding.severity !== 'info' || finding.hard_fail || finding.grade_ceiling)
  const shown = (risks.length > 0 ? risks : findings).slice(0, limit)
  const lines = shown.map((finding) => {
    const severity = paint(
      style,
      finding.severity.toUpperCase().padEnd(8),
      'bold',
      SEVERITY_TONE[finding.severity] ?? 'dim',
    )
    const cap = finding.hard_fail
      ? paint(style, ' (fails the token)', 'red')
      : finding.grade_ceiling
        ? paint(style, ` (caps the grade at ${finding.grade_ceiling})`, 'yellow')
        : ''
    return `  ${severity} ${finding.title}${cap}\n           ${paint(style, finding.detail, 'dim')}`
  })
  if (findings.length > shown.length)
    lines.push(paint(style, `  … ${findings.length - shown.length} more (--json)`, 'dim'))
  return lines
}

function quality(style: Style, answer: { data_quality: string; missing_fields: string[] }): string {
  const tone: Tone = answer.data_quality === 'FULL' ? 'green' : answer.data_quality === 'PARTIAL' ? 'yellow' : 'red'
  const missing =
    answer.missing_fields.length > 0 ? ` · not measured: ${answer.missing_fields.map(missingInWords).join(', ')}` : ''
  return `data ${paint(style, answer.data_quality, tone)}${missing}`
}

/** "not measured", in the colour of a warning: never a value. */
const notMeasured = (style: Style) => paint(style, NOT_MEASURED_TEXT, 'yellow')

/** `shown()`, or "not measured" when the answer's `missing_fields` say `member` was not read. */
function measured<A extends RenderedAnswer>(
  style: Style,
  answer: { missing_fields: string[] },
  kind: A,
  member: MemberOf<A>,
  shown: () => string,
): string {
  return unmeasured(answer, kind, member) ? notMeasured(style) : shown()
}

/** Under a grade drawn from incomplete data, the warning that it cannot see what was not read. */
function incomplete(style: Style, answer: { data_quality: string }): string[] {
  return answer.data_quality === 'FULL'
    ? []
    : [paint(style, '     graded without what was not measured: a risk hidden there is not in this grade', 'yellow')]
}

/** US dollars (client/format.ts, shared with the web page); null reads "not measured". */
const usd = (value: number | null | undefined) => dollars(value)
const yesNo = (style: Style, good: boolean, yes: string, no: string) =>
  good ? paint(style, yes, 'green') : paint(style, no, 'red')

function heading(
  style: Style,
  answer: { token_address: string; symbol?: string | null; name?: string | null },
  what: string,
) {
  const who = [answer.symbol, answer.name].filter(Boolean).join(' · ')
  return `${paint(style, what, 'bold')}  ${answer.token_address}${who ? `  ${paint(style, who, 'cyan')}` : ''}`
}

export function renderQuickScan(style: Style, scan: QuickScan): string {
  const known = <M extends MemberOf<'quick_scan'>>(member: M, shown: () => string) =>
    measured(style, scan, 'quick_scan', member, shown)
  const authority = (revoked: boolean) =>
    yesNo(style, revoked, 'revoked', scan.authority_exempt ? 'live (issuer-controlled, exempt)' : 'LIVE')
  const scope = scopeLine(scan.scope)
  return [
    heading(style, scan, 'Quick scan'),
    '',
    `${badge(style, scan.structural_risk_grade)}  structural safety · ${quality(style, scan)}`,
    ...incomplete(style, scan),
    '',
    `  mint authority   ${known('mint_authority_revoked', () => authority(scan.mint_authority_revoked))}`,
    `  freeze authority ${known('freeze_authority_revoked', () => authority(scan.freeze_authority_revoked))}`,
    `  top 10 holders   ${known('top_10_holder_pct', () => (scan.top_10_holder_pct === null ? notMeasured(style) : pct(scan.top_10_holder_pct)))}`,
    `  liquidity        ${known('liquidity_check', () => `${scan.liquidity_check.rating} — ${scan.liquidity_check.meaning}`)}`,
    `  LP               ${known('lp_status', () => lpText(scan))}`,
    ...(scope ? ['', paint(style, `  ${scope}`, 'dim')] : []),
    '',
    ...decided(style, scan.factors, scan.summary),
  ].join('\n')
}

/** A batch of quick scans as a table: one line per mint (grade, symbol, the deciding finding), what it cost, the wallet's cap. */
export function renderQuickScanBatch(style: Style, batch: QuickScanBatch): string {
  const lines = [
    `${paint(style, 'Quick scans', 'bold')}  ${batch.answered} of ${batch.requested} answered · ${batch.charged.units} × ${batch.charged.unit_price_usd} USD = ${batch.charged.total_usd} USD`,
    '',
  ]
  for (const item of batch.results) {
    if (!item.ok) {
      lines.push(
        `  ${paint(style, ' – ', 'dim')}  ${item.token_address}  ${paint(style, item.error.code, 'red')} ${item.error.message}`,
      )
      continue
    }
    const { scan } = item
    const risk = scan.factors.find((entry) => entry.hard_fail || entry.impact < 0)
    const who = scan.symbol ?? scan.name ?? ''
    lines.push(
      `  ${badge(style, scan.structural_risk_grade)}  ${item.token_address}  ${paint(style, who.slice(0, 12).padEnd(12), 'cyan')} ${risk ? risk.title : paint(style, 'no structural risk found', 'green')}`,
    )
  }
  if (batch.duplicates_ignored > 0)
    lines.push('', `  ${count(batch.duplicates_ignored, 'mint')} given twice, scanned once`)
  if (batch.wallet) {
    const { wallet } = batch
    lines.push(
      '',
      `  wallet ${wallet.wallet_address}: ${count(wallet.holdings, 'token')} held, ${wallet.scanned.length} scanned (max ${wallet.max_usd} USD)`,
      ...(wallet.left_out.length > 0
        ? [`  left out by the cap: ${wallet.left_out.join(' ')} (solsentry batch <mint…> scans them)`]
        : []),
    )
  }
  return lines.join('\n')
}

export function renderMarketIntel(style: Style, intel: MarketIntel & { token_address?: string }): string {
  const title = `${paint(style, 'Market intel', 'bold')}${intel.token_address ? `  ${intel.token_address}` : ''}`
  // No pool trades it: that is the answer, before anything else (its figures are placeholders).
  const noMarket = intel.factors.find((finding) => finding.code === 'NO_MARKET')
  if (noMarket)
    return [
      title,
      '',
      // The market was read and lists no pair: not a market source that failed.
      `${paint(style, ' NO MARKET ', 'bold', 'inverse', 'red')}  ${noMarket.detail} · ${quality(style, { ...intel, missing_fields: intel.missing_fields.filter((name) => name !== 'market') })}`,
      '',
      ...decided(style, intel.factors, intel.market_summary),
    ].join('\n')
  // No price read: the NEUTRAL signal is a placeholder, not a reading.
  const signal =
    intel.signal_subtype === 'INSUFFICIENT_DATA'
      ? paint(style, ' NOT MEASURED ', 'bold', 'inverse', 'yellow')
      : paint(
          style,
          ` ${intel.signal} `,
          'bold',
          'inverse',
          intel.signal === 'BULLISH' ? 'green' : intel.signal === 'BEARISH' ? 'red' : 'yellow',
        )
  const known = <M extends MemberOf<'market_intel'>>(member: M, shown: () => string) =>
    measured(style, intel, 'market_intel', member, shown)
  const change = (member: 'price_change_1h_pct' | 'price_change_24h_pct') =>
    known(member, () => {
      const value = intel[member]
      return paint(style, pct(value, { signed: true }), value >= 0 ? 'green' : 'red')
    })
  return [
    title,
    '',
    `${signal}  ${intel.signal_subtype}${unmeasured(intel, 'market_intel', 'token_health') ? '' : ` · ${intel.token_health}`} · ${quality(style, intel)}`,
    '',
    `  price        ${known('current_price_usd', () => usd(intel.current_price_usd))}  1 h ${change('price_change_1h_pct')}  24 h ${change('price_change_24h_pct')}`,
    `  volume 24 h  ${known('volume_24h_usd', () => usd(intel.volume_24h_usd))}   liquidity ${known('liquidity_usd', () => usd(intel.liquidity_usd))}`,
    `  pressure     ${known('buy_pressure', () => `buy ${intel.buy_pressure}, sell ${intel.sell_pressure}`)}${unmeasured(intel, 'market_intel', 'buy_sell_ratio') ? '' : ` (${count(intel.buy_sell_ratio, 'buy')} per sell)`}`,
    '',
    ...decided(style, intel.factors, intel.market_summary),
  ].join('\n')
}

export function renderDeepDive(style: Style, dive: DeepDive): string {
  const action = dive.recommendation.action
  const tone: Tone = action === 'AVOID' ? 'red' : action === 'CONSIDER' ? 'green' : 'yellow'
  // In the answer's order: the deciding findings first (hard fails, grade ceilings, severity, impact).
  const drivers = dive.key_drivers.map((driver) => {
    const ceiling = dive.factors.find((finding) => finding.code === driver.code)?.grade_ceiling
    const cap = driver.hard_fail
      ? paint(style, ' (fails the token)', 'red')
      : ceiling
        ? paint(style, ` (caps the grade at ${ceiling})`, 'yellow')
        : ''
    return `  • ${driver.title}${cap}`
  })
  return [
    heading(style, dive, 'Deep dive'),
    '',
    `${badge(style, dive.risk_grade)}  ${paint(style, ` ${action} `, 'bold', 'inverse', tone)}  ${quality(style, dive)}`,
    '',
    ...(drivers.length > 0 ? [paint(style, 'Key drivers', 'bold'), ...drivers, ''] : []),
    paint(style, 'Findings', 'bold'),
    ...findingLines(style, dive.factors),
    '',
    // The report's opening paragraph: the verdict in words (the whole report is in --json).
    dive.full_risk_report.split('\n\n')[0] ?? '',
    paint(style, 'The full report: --json (full_risk_report).', 'dim'),
  ].join('\n')
}

/** What the CLI knows of a mint to show its amounts: its symbol and decimals, when something told them. */
export interface TokenLabel {
  mint: string
  symbol?: string
  decimals?: number
}

/** `0.1 SOL`, or the atomic units and a shortened mint when nothing told its decimals or symbol. */
export function amountOf(atomic: string, token: TokenLabel | undefined, mint: string): string {
  const label = token?.symbol || shortAddress(mint)
  return token?.decimals === undefined
    ? `${num(Number(atomic))} atomic units of ${label}`
    : tokenAmount(atomic, token.decimals, label)
}

/** The risk gate: its verdict and grade, then each reason on its own line with its severity. */
export function riskGateLines(style: Style, gate: NonNullable<TradeJob['risk_gate']>): string[] {
  const tone: Tone = gate.verdict === 'PASS' ? 'green' : gate.verdict === 'WARN' ? 'yellow' : 'red'
  const lines = [
    `  risk gate    ${tag(style, gate.verdict, tone)}  quick-scan grade ${gate.grade ?? NOT_MEASURED_TEXT} · data ${gate.data_quality}`,
  ]
  for (const reason of gate.reasons)
    lines.push(
      `               ${paint(style, reason.severity.toUpperCase().padEnd(8), 'bold', SEVERITY_TONE[reason.severity] ?? 'dim')} ${reason.detail}`,
    )
  return lines
}

/** A quote's swap in a person's units: what is sold, what comes back (at least), the route and the impact. */
function swapLines(
  style: Style,
  quote: NonNullable<TradeJob['quote']>,
  tokens: Record<string, TokenLabel>,
  expiry = false,
): string[] {
  const input = tokens[quote.input_mint]
  const output = tokens[quote.output_mint]
  // Hops in order; a leg that carries only part of its input says how much.
  const venues = quote.route
    .map((leg) => (leg.percent >= 100 ? leg.venue : `${leg.venue} ${pct(leg.percent)}`))
    .join(' → ')
  return [
    `  sell         ${paint(style, amountOf(quote.in_amount, input, quote.input_mint), 'bold')}`,
    `  buy          ${paint(style, `about ${amountOf(quote.out_amount, output, quote.output_mint)}`, 'bold')}`,
    `               at least ${amountOf(quote.min_out_amount, output, quote.output_mint)} (slippage ${pct(quote.slippage_bps / 100)})`,
    `  price impact ${pct(quote.price_impact_pct)}${venues ? `  via ${venues}` : ''}`,
    ...(expiry && quote.expires_at
      ? [paint(style, `  valid until  ${quote.expires_at.replace('T', ' ').slice(0, 19)} UTC`, 'dim')]
      : []),
  ]
}

/** The quote before it is signed: the swap, the fee and the risk gate's verdict with its reasons. */
export function renderTradePlan(
  style: Style,
  quote: TradeQuote,
  tokens: Record<string, TokenLabel> = {},
  feeUsd?: string,
): string {
  const output = tokens[quote.quote.output_mint]
  const label = output?.symbol
    ? `${output.symbol}  ${paint(style, quote.quote.output_mint, 'dim')}`
    : quote.quote.output_mint
  return [
    `${paint(style, 'Trade plan', 'bold')}  buy ${label}`,
    '',
    ...swapLines(style, quote.quote, tokens, true),
    `  fee          ${feeUsd ? `${feeUsd} USD` : 'the execute fee'}, charged only if the swap confirms`,
    ...riskGateLines(style, quote.risk_gate),
    ...(quote.risk_gate.verdict === 'PASS'
      ? []
      : [
          paint(
            style,
            `  the gate reads a quick scan only; solsentry deep ${quote.quote.output_mint} (0.50 USD) looks further`,
            'dim',
          ),
        ]),
  ].join('\n')
}

export function renderJob(style: Style, job: TradeJob, tokens: Record<string, TokenLabel> = {}): string {
  const tone: Tone =
    job.status === 'CONFIRMED' ? 'green' : job.status === 'EXECUTING' || job.status === 'QUOTED' ? 'yellow' : 'red'
  const lines = [`${paint(style, 'Trade', 'bold')}  ${job.job_id}  ${tag(style, job.status, tone)}`]
  if (job.quote) lines.push(...swapLines(style, job.quote, tokens))
  if (job.risk_gate) lines.push(...riskGateLines(style, job.risk_gate))
  if (job.execution)
    lines.push(
      `  transaction  ${job.execution.tx_signature}${job.execution.slot ? ` (slot ${job.execution.slot})` : ''}`,
    )
  if (job.rejection) {
    // The gate's reasons are listed above, each on its line: the rejection says so rather than repeating them.
    const gateShown = job.rejection.code === 'RISK_GATE' && (job.risk_gate?.reasons.length ?? 0) > 0
    const token = job.risk_gate?.token ?? job.quote?.output_mint
    const label = token ? (tokens[token]?.symbol ?? shortAddress(token)) : 'this token'
    const reason = gateShown ? `the risk gate blocks buying ${label}, for the reasons above` : job.rejection.reason
    lines.push(
      `  ${paint(style, job.rejection.code, 'red')}: ${reason}${job.rejection.refundable ? ' (nothing was charged)' : ''}`,
    )
  }
  if (job.fee)
    lines.push(
      `  fee          ${job.fee.status}${job.fee.amount ? ` (${tokenAmount(job.fee.amount, 6, 'USDC')})` : ''}`,
    )
  return lines.join('\n')
}

/** The exit cross-check: the exit's lines, then the bridge home and what arrives. */
export function renderExitCrossCheck(style: Style, check: ExitCrossCheck): string {
  const lines = [
    ...exitLines(style, check, 'Exit cross-check', []),
    '',
    paint(style, `Home to ${check.home_chain}`, 'bold'),
  ]
  if (check.bridge)
    lines.push(
      `  bridge        ${check.bridge.tool_name}`,
      `  arrives       ${amount(check.bridge.output_usdc, 'USDC')} (at least ${amount(check.bridge.min_output_usdc, 'USDC')}) ${inAbout(check.bridge.duration_s)}`,
      `  fees          ${usd(check.bridge.fee_usd)} taken out, ${usd(check.bridge.gas_usd)} of gas on top`,
      `  all in        ${paint(style, pct(check.all_in_cost_pct), 'bold')} of ${amount(check.size_usdc, 'USDC')}`,
    )
  else lines.push(`  ${check.bridgeable === false ? paint(style, 'no bridge route now', 'red') : 'no bridge quote'}`)
  return [...lines, '', check.summary].join('\n')
}

export function renderExitCheck(style: Style, exit: ExitCheck): string {
  const known = <M extends MemberOf<'exit_check'>>(member: M, shown: () => string) =>
    measured(style, exit, 'exit_check', member, shown)
  const extra = [
    `  route legs    ${known('route_count', () => String(exit.route_count))}`,
    `  transfer fee  ${known('transfer_fee_bps', () => `${pct(exit.transfer_fee_bps / 100)}${exit.transfer_fee_can_rise ? paint(style, ' (can rise)', 'yellow') : ''}`)}`,
  ]
  return [...exitLines(style, exit, 'Exit check', extra), '', exit.summary].join('\n')
}

/** What the exit check and the cross-check both show: the verdict badge, the sale, and what could stop it. */
function exitLines(
  style: Style,
  exit: Pick<
    ExitCheck,
    | 'sellable'
    | 'exit_rating'
    | 'exit_loss_pct'
    | 'token_address'
    | 'size_usdc'
    | 'expected_return_usdc'
    | 'exit_price_impact_pct'
    | 'blockers'
    | 'data_quality'
    | 'missing_fields'
  >,
  title: string,
  extra: string[],
): string[] {
  // The rating, not a plain "sellable": getting 6% back is PUNITIVE, whatever the route allows.
  const tone = { CLEAN: 'green', COSTLY: 'yellow', PUNITIVE: 'red', BLOCKED: 'red' } as const
  const verdict =
    exit.exit_rating === null
      ? paint(style, ' UNKNOWN ', 'bold', 'inverse', 'yellow')
      : paint(style, ` ${exit.exit_rating} `, 'bold', 'inverse', tone[exit.exit_rating])
  const lines = [
    `${paint(style, title, 'bold')}  ${exit.token_address}`,
    '',
    `${verdict}  ${amount(exit.size_usdc, 'USDC')} · ${quality(style, exit)}`,
    '',
    `  returns       ${exit.exit_rating === 'BLOCKED' ? 'nothing: it cannot be sold now' : unmeasured(exit, 'exit_check', 'expected_return_usdc') ? notMeasured(style) : exit.expected_return_usdc === null ? 'nothing: no sale' : amount(exit.expected_return_usdc, 'USDC')}`,
    `  price impact  ${unmeasured(exit, 'exit_check', 'exit_price_impact_pct') ? notMeasured(style) : exit.exit_price_impact_pct === null ? 'none: no sale' : pct(exit.exit_price_impact_pct)}`,
    `  lost on exit  ${exit.exit_loss_pct !== null ? pct(exit.exit_loss_pct) : exit.exit_rating === 'BLOCKED' ? 'everything: no sale' : notMeasured(style)}`,
    ...extra,
  ]
  // Without the mint, a freeze, a pause or a transfer hook would not show: its blockers were not read. Read
  // from missing_fields, not from a member: the cross-check's answer has no transfer_fee_bps to be absent.
  const mintUnread = exit.missing_fields.some((name) => name === 'mint' || name === 'transfer_fee_bps')
  if (mintUnread || exit.blockers.length > 0) {
    lines.push(
      '',
      `${paint(style, 'What could stop it', 'bold')}${mintUnread ? `  the mint's own blockers ${notMeasured(style)} (it could not be read)` : ''}`,
    )
    for (const blocker of exit.blockers)
      lines.push(
        `  ${paint(style, blocker.blocks ? 'BLOCKS  ' : 'RISK    ', 'bold', blocker.blocks ? 'red' : 'yellow')} ${blocker.detail}`,
      )
  }
  return lines
}

/** A table cell of `width`, right-aligned; a missing value reads "not measured", dimmed. */
function cell(style: Style, value: number | null | undefined, shown: (value: number) => string, width: number): string {
  if (value === null || value === undefined) return paint(style, NOT_MEASURED_TEXT.padStart(width), 'dim')
  return shown(value).padStart(width)
}

/** A signed change in its colour, right-aligned in `width`: `+12.5%`, `-38.83%`, or "not measured". */
function change(style: Style, value: number | null, width = 12): string {
  if (value === null) return cell(style, value, String, width)
  return paint(style, pct(value, { signed: true }).padStart(width), value >= 0 ? 'green' : 'red')
}

function gradeCell(style: Style, snapshot: { grade: string } | null): string {
  return snapshot ? badge(style, snapshot.grade) : paint(style, ' – ', 'dim')
}

/** The trending feed as a table: rank, grade, symbol, price (USD), change and volume over the interval, traders. */
export function renderTrending(style: Style, feed: Trending): string {
  const over = feed.interval
  const lines = [
    `${paint(style, 'Trending', 'bold')}  by ${feed.sort} over ${over} · ${quality(style, feed)}`,
    '',
    paint(
      style,
      `  #  grade  symbol     ${'price'.padStart(12)} ${`change ${over}`.padStart(12)} ${`volume ${over}`.padStart(12)} ${'traders'.padStart(12)}`,
      'dim',
    ),
  ]
  for (const item of feed.items)
    lines.push(
      `${String(item.rank).padStart(3)}  ${gradeCell(style, item.quick_scan)}    ${item.symbol.slice(0, 10).padEnd(10)} ${cell(style, item.price_usd, (n) => usd(n), 12)} ${change(style, item.price_change_pct)} ${cell(style, item.volume_usd, (n) => dollars(n, { compact: true }), 12)} ${cell(style, item.traders, (n) => num(n), 12)}`,
    )
  if (feed.focus)
    lines.push(
      '',
      `${paint(style, 'Asked about', 'bold')}  ${feed.focus.symbol || feed.focus.token_address}: ${feed.focus.rank ? `#${feed.focus.rank}` : 'not in the feed'} · grade ${feed.focus.quick_scan?.grade ?? 'not graded'}`,
    )
  return [...lines, '', feed.summary].join('\n')
}

/** The signal radar as a table: rank, grade, symbol, score, the signals that fired, the flags. */
export function renderSignalRadar(style: Style, radar: SignalRadar): string {
  const lines = [
    `${paint(style, 'Signal radar', 'bold')}  over ${radar.interval}, at least ${radar.min_signals} signals · ${quality(style, radar)}`,
    '',
    paint(style, `  #  grade  symbol     ${'score'.padStart(7)}  signals that fired`, 'dim'),
  ]
  const row = (item: SignalRadar['items'][number]) => {
    const fired = item.signal_breakdown
      .filter((reading) => reading.fired)
      .map((reading) => reading.signal.toLowerCase().replaceAll('_', ' '))
      .join(', ')
    const flags = item.flags.length > 0 ? `  ${paint(style, flagWords(item.flags), 'yellow')}` : ''
    return `${String(item.rank ?? '-').padStart(3)}  ${gradeCell(style, item.quick_scan)}    ${item.symbol.slice(0, 10).padEnd(10)} ${paint(style, String(item.convergence_score).padStart(3), 'bold')}/100  ${fired}${flags}`
  }
  lines.push(...radar.items.map(row))
  if (radar.items.length === 0) lines.push(paint(style, '  nothing converges now', 'dim'))
  if (radar.focus) lines.push('', paint(style, 'Asked about', 'bold'), row(radar.focus))
  return [...lines, '', radar.summary].join('\n')
}

const VERDICT_TONE: Record<string, Tone> = {
  PROFITABLE_TRADER: 'green',
  BREAKEVEN_TRADER: 'yellow',
  LOSING_TRADER: 'red',
  RUGGER: 'red',
  BOT: 'yellow',
  SNIPER: 'yellow',
  UNPROVEN: 'blue',
}

function duration(seconds: number | null): string {
  if (seconds === null) return NOT_MEASURED_TEXT
  if (seconds >= 86_400) return `${(seconds / 86_400).toFixed(1)} d`
  if (seconds >= 3_600) return `${(seconds / 3_600).toFixed(1)} h`
  return `${Math.round(seconds / 60)} min`
}

/** A wallet's card: the verdict, its record, its style, its funding, and how much history it covers. */
export function renderWalletIntel(style: Style, wallet: WalletIntel): string {
  const verdict = paint(
    style,
    ` ${wallet.verdict.replaceAll('_', ' ')} `,
    'bold',
    'inverse',
    VERDICT_TONE[wallet.verdict] ?? 'blue',
  )
  const { coverage } = wallet
  const lines = [
    `${paint(style, 'Wallet intel', 'bold')}  ${wallet.wallet_address}`,
    '',
    `${verdict}  copy-trade ${wallet.copy_trade_worthiness.label}${wallet.copy_trade_worthiness.score === null ? '' : ` (${wallet.copy_trade_worthiness.score}/100)`} · ${quality(style, wallet)}`,
    '',
    `  trades        ${num(wallet.total_trades)} (${count(wallet.buys, 'buy')}, ${count(wallet.sells, 'sell')}) in ${count(wallet.tokens_traded, 'token')}`,
    `  round trips   ${wallet.closed_positions} closed, ${wallet.open_positions} open; ${wallet.win_rate_pct === null ? `win rate ${NOT_MEASURED_TEXT}` : `won ${pct(wallet.win_rate_pct)} of them`}`,
    `  realized      ${wallet.realized_pnl_usd === null ? NOT_MEASURED_TEXT : `${wallet.realized_pnl_usd > 0 ? '+' : ''}${usd(wallet.realized_pnl_usd)}`}${wallet.realized_pnl_pct === null ? '' : ` (${pct(wallet.realized_pnl_pct, { signed: true })})`}`,
    `  holds         median ${duration(wallet.median_hold_time_s)}, mean ${duration(wallet.avg_hold_time_s)}`,
    `  style         ${wallet.behaviour_style.replace('_', '-')}`,
    `  funded by     ${wallet.funding_origin.funder ?? 'unknown'}${wallet.funding_origin.exchange ? paint(style, ` (${wallet.funding_origin.exchange})`, 'cyan') : ''}`,
  ]
  if (wallet.rugs > 0)
    lines.push(
      paint(
        style,
        `  pulled the liquidity of ${wallet.rugs} of the ${count(wallet.tokens_created, 'token')} it created`,
        'red',
      ),
    )
  lines.push(
    paint(
      style,
      `  covers ${coverage.history_complete ? 'its whole history' : `its last ${coverage.transactions_read} transactions`}${coverage.from ? ` (${coverage.from.slice(0, 10)} to ${coverage.to?.slice(0, 10)})` : ''}`,
      'dim',
    ),
  )
  return [...lines, '', wallet.summary].join('\n')
}

type LaunchItem = LaunchRadar['items'][number]

/** The launchpad tables' header: what each column is, with its unit. */
const LAUNCH_HEADER = `  #  grade  symbol     ${'bonded'.padStart(8)} ${'market cap'.padStart(12)} ${'traders'.padStart(8)}  filling`

/** One launchpad coin per line: rank, grade, symbol, progress, market cap (SOL), traders, fill rate, flags. */
function launchLine(style: Style, item: LaunchItem): string {
  const eta = item.minutes_to_graduation === null ? '' : `, graduates ${inAbout(item.minutes_to_graduation * 60)}`
  const rate =
    item.fill_rate_pct_per_min === null
      ? paint(style, NOT_MEASURED_TEXT, 'dim')
      : `${pct(item.fill_rate_pct_per_min, { signed: true })}/min${eta}`
  const flags = item.flags.length > 0 ? `  ${paint(style, flagWords(item.flags), 'yellow')}` : ''
  return `${String(item.rank ?? '-').padStart(3)}  ${gradeCell(style, item.quick_scan)}    ${(item.symbol || item.token_address.slice(0, 8)).slice(0, 10).padEnd(10)} ${pct(item.bonding_progress_pct).padStart(8)} ${cell(style, item.market_cap_sol, (n) => `${num(n, { compact: true })} SOL`, 12)} ${num(item.unique_traders).padStart(8)}  ${rate}${flags}`
}

export function renderLaunchRadar(style: Style, radar: LaunchRadar): string {
  const lines = [
    `${paint(style, 'Launch radar', 'bold')}  ${radar.stage.replace('_', ' ')}, preset ${radar.preset} · index ${radar.index.state} · ${quality(style, radar)}`,
    '',
    paint(style, LAUNCH_HEADER, 'dim'),
    ...radar.items.map((item) => launchLine(style, item)),
  ]
  if (radar.items.length === 0) lines.push(paint(style, '  nothing on the radar now', 'dim'))
  if (radar.focus) lines.push('', paint(style, 'Asked about', 'bold'), launchLine(style, radar.focus))
  return [...lines, '', radar.summary].join('\n')
}

export function renderGraduationRadar(style: Style, radar: GraduationRadar): string {
  const lines = [
    `${paint(style, 'Graduation radar', 'bold')}  ${pct(radar.min_progress_pct)} bonded or more · index ${radar.index.state} · ${quality(style, radar)}`,
    '',
    paint(style, LAUNCH_HEADER, 'dim'),
    ...radar.items.map((item) => launchLine(style, item)),
  ]
  if (radar.items.length === 0) lines.push(paint(style, '  no curve that close now', 'dim'))
  if (radar.focus) lines.push('', paint(style, 'Asked about', 'bold'), launchLine(style, radar.focus))
  return [...lines, '', radar.summary].join('\n')
}

export function renderSmartMoney(style: Style, feed: SmartMoney): string {
  const lines = [
    `${paint(style, 'Smart money', 'bold')}  over ${feed.interval} · ${count(feed.proven_wallets, 'proven wallet')} · index ${feed.index.state} · ${quality(style, feed)}`,
    '',
    ...feed.items.map(
      (item) =>
        `${String(item.rank ?? '-').padStart(3)}  ${gradeCell(style, item.quick_scan)}  ${(item.symbol || item.token_address.slice(0, 8)).slice(0, 10).padEnd(10)} ${paint(style, `${item.net_flow_sol > 0 ? '+' : ''}${num(item.net_flow_sol)} SOL`, item.net_flow_sol >= 0 ? 'green' : 'red')} net from ${count(item.smart_wallets, 'wallet')} · ${pct(item.bonding_progress_pct)} bonded`,
    ),
  ]
  if (feed.items.length === 0) lines.push(paint(style, '  no net buying by proven wallets now', 'dim'))
  return [...lines, '', feed.summary].join('\n')
}

const LABEL_TONE: Record<string, Tone> = { HOT: 'red', HEATING: 'yellow', COOLING: 'cyan', FLAT: 'dim' }

export function renderGraduationMomentum(style: Style, feed: GraduationMomentum): string {
  const lines = [
    `${paint(style, 'Graduation momentum', 'bold')}  ${pct(feed.min_progress_pct)} bonded or more · ${quality(style, feed)}`,
    '',
  ]
  for (const item of feed.items) {
    const missing = Object.entries(item.components)
      .filter(([, state]) => state === 'missing')
      .map(([name]) => name.replace('_', ' '))
    lines.push(
      `${String(item.rank ?? '-').padStart(3)}  ${gradeCell(style, item.quick_scan)}  ${(item.symbol || item.token_address.slice(0, 8)).slice(0, 10).padEnd(10)} ${paint(style, `${item.momentum_score}/100 ${item.label}`, 'bold', LABEL_TONE[item.label] ?? 'blue')}  ${pct(item.bonding_progress_pct)} bonded${missing.length ? paint(style, `  (no ${missing.join(', ')})`, 'dim') : ''}`,
      paint(
        style,
        `       ${item.cited_factors.map((factor) => `${factor.factor.toLowerCase().replaceAll('_', ' ')} ${factor.points > 0 ? '+' : ''}${factor.points}`).join(', ')}`,
        'dim',
      ),
    )
  }
  if (feed.items.length === 0) lines.push(paint(style, '  no curve that close now', 'dim'))
  return [...lines, '', feed.summary].join('\n')
}

const LEAN_TONE: Record<string, Tone> = { BULLISH: 'green', BEARISH: 'red', MIXED: 'yellow', NEUTRAL: 'dim' }

export type NewsAnswer = NewsPulse | NewsBrief | NewsPulsePlus | NewsReport

/** Every /news answer: its subject, the lean of the posts, then what the route adds (brief, cohorts, report). */
export function renderNews(style: Style, answer: NewsAnswer): string {
  const pulse = 'pulse' in answer ? answer.pulse : answer
  const subject =
    answer.subject.scope === 'market'
      ? 'the market'
      : `${answer.subject.symbol ?? answer.subject.query}${answer.subject.mint ? `  ${paint(style, answer.subject.mint, 'dim')}` : ''}`
  // No source answered: the counts were not read, they are not zeros.
  const unread = answer.sources.length > 0 && answer.sources.every((source) => !source.read)
  const lines = [
    `${paint(style, 'News', 'bold')}  ${subject} · last ${answer.window.hours} h · ${quality(style, answer)}`,
    unread
      ? `  ${notMeasured(style)}: no news source could be read`
      : `  ${paint(style, pulse.signal, 'bold', LEAN_TONE[pulse.signal] ?? 'dim')}  ${pulse.bull} bullish · ${pulse.bear} bearish · ${pulse.neutral} neutral of ${count(pulse.posts, 'post')}${
          pulse.top_terms.length
            ? paint(
                style,
                `  (${pulse.top_terms
                  .slice(0, 5)
                  .map((term) => term.term)
                  .join(', ')})`,
                'dim',
              )
            : ''
        }`,
  ]
  if (answer.subject.ambiguous)
    lines.push(paint(style, `  ${count(answer.subject.candidates.length, 'listed token')} share this ticker`, 'yellow'))
  if ('brief' in answer) lines.push('', paint(style, answer.brief.headline, 'bold'), answer.brief.text)
  if ('cohorts' in answer) {
    lines.push('')
    for (const [cohort, tally] of Object.entries(answer.cohorts))
      if (tally.posts > 0)
        lines.push(
          `  ${cohort.padEnd(10)} ${paint(style, tally.signal, LEAN_TONE[tally.signal] ?? 'dim')} (${count(tally.posts, 'post')})`,
        )
    if (answer.coordination.coordinated)
      lines.push(
        paint(
          style,
          `  coordinated: ${count(answer.coordination.pushes.length, 'push', 'pushes')}, ${count(answer.coordination.fresh_accounts, 'fresh account')}`,
          'red',
        ),
      )
  }
  if ('synthesis' in answer) lines.push('', answer.synthesis.text)
  if ('report' in answer) {
    lines.push('', answer.report.synthesis)
    for (const risk of answer.report.risks) lines.push(paint(style, `  ! ${risk.risk}`, 'yellow'))
    if (answer.report.watch_list.length)
      lines.push(`  watch: ${answer.report.watch_list.map((entry) => entry.ticker).join(', ')}`)
    if (answer.deep_dive)
      lines.push(
        `  deep dive: grade ${answer.deep_dive.grade}, ${answer.deep_dive.recommendation}${answer.deep_dive.flags.length ? ` (${flagWords(answer.deep_dive.flags)})` : ''}`,
      )
  }
  if ('model' in answer) lines.push(paint(style, `  written by ${answer.model.name}`, 'dim'))
  return [...lines, '', answer.summary].join('\n')
}

const ACTION_TONE: Record<string, Tone> = {
  BUY: 'green',
  SMALL_BUY: 'green',
  WATCH: 'yellow',
  AVOID: 'red',
  NO_CANDIDATE: 'dim',
}

export function renderSuggestion(style: Style, answer: TradeSuggestion): string {
  const { recommendation: rec, selection } = answer
  const lines = [
    `${paint(style, 'Trade suggestion', 'bold')}  ${answer.risk_appetite} · ${answer.source} · budget ${usd(answer.budget_usd)} · ${quality(style, answer)}`,
    '',
    `  ${paint(style, rec.action, 'bold', ACTION_TONE[rec.action] ?? 'dim')}  ${selection.candidate ? `${selection.candidate.symbol || selection.candidate.token_address}  ${paint(style, selection.candidate.token_address, 'dim')}` : ''}`,
    `  conviction ${rec.conviction}/100${rec.suggested_size_usd > 0 ? ` · size ${usd(rec.suggested_size_usd)}` : ''} · ${rec.reason}`,
  ]
  for (const gate of rec.hard_gates) lines.push(paint(style, `  ✗ ${gate}`, 'red'))
  for (const factor of rec.cited_factors)
    lines.push(
      paint(
        style,
        `    ${`${factor.points > 0 ? '+' : ''}${factor.points}`.padStart(3)}  ${factor.detail}`,
        factor.points < 0 ? 'yellow' : 'dim',
      ),
    )
  if (rec.trade_plan)
    lines.push(
      '',
      `  plan: slippage ${pct(rec.trade_plan.slippage_bps / 100)} · max impact ${pct(rec.trade_plan.max_price_impact_pct)} · round trip ${pct(rec.trade_plan.round_trip_exit_cost_pct)}`,
      `  ${commandWords(rec.trade_plan.stop_loss_hint)}`,
    )
  lines.push('', paint(style, selection.why_selected, 'dim'))
  return [...lines, '', answer.summary].join('\n')
}

/** The verified tokens a trade takes, under a header. */
export function renderPairs(style: Style, answer: OutputOf<'GET /trade/pairs'>): string {
  const rows = answer.pairs.map((pair) => `  ${pair.symbol.padEnd(10)} ${pair.mint.padEnd(44)}  ${pair.name}`)
  return [paint(style, `  ${'symbol'.padEnd(10)} ${'mint'.padEnd(44)}  name`, 'dim'), ...rows].join('\n')
}

/**
 * A running service's own health (GET /health): its state, each dependency's with what its probe found,
 * the routes off (not configured) and failing (a dependency down).
 */
export function renderHealth(style: Style, url: string, answer: OutputOf<'GET /health'>): string {
  const tone = (state: string): Tone => (state === 'ok' ? 'green' : state === 'unknown' ? 'dim' : 'red')
  const words: Record<string, string> = {
    ok: 'ok',
    unknown: 'not probed yet',
    degraded: 'degraded',
    down: 'down',
  }
  const rows = Object.entries(answer.sources).map(([name, state]) =>
    `  ${name.padEnd(16)} ${paint(style, (words[state] ?? state).padEnd(15), tone(state))} ${answer.probes?.[name] ?? ''}`.trimEnd(),
  )
  const routes = (list: { routes: string[]; why: string }[], none: string) =>
    list.length === 0 ? [`  ${none}`] : list.map(({ routes, why }) => `  ${routes.join(', ')}: ${why}`)
  return [
    `${paint(style, 'Service', 'bold')}  ${url}  ${paint(style, (words[answer.status] ?? answer.status).toUpperCase(), tone(answer.status))}  version ${answer.version}, up ${count(answer.uptime_s, 'second')}`,
    '',
    ...rows,
    '',
    paint(style, 'Routes not served (a setting missing)', 'bold'),
    ...routes(answer.routes_off, 'none: every route is on'),
    paint(style, 'Routes failing now (a dependency down)', 'bold'),
    ...routes(answer.routes_failing, 'none'),
  ].join('\n')
}

/** How calls can be paid: each rail, then each command's price (commands, not routes). */
export function renderCurrencies(style: Style, answer: OutputOf<'GET /trade/currencies'>): string {
  const rails = answer.currencies
    .filter((currency) => currency.accepted)
    .map((currency) => `  ${currency.currency} on ${currency.chain} (${currency.network}), paid to ${currency.pay_to}`)
  const prices = answer.prices.map((price) => {
    const call = clientCall(price.route)
    const command = call ? `solsentry ${call.cli.replace(/\s*\([^)]*\)/g, '')}` : price.route
    return `  ${command.padEnd(52)} ${price.usd} USD${price.per_unit ? ` per ${price.per_unit.unit}` : ''}`
  })
  return [paint(style, 'Paid with', 'bold'), ...rails, '', paint(style, 'Prices', 'bold'), ...prices].join('\n')
}
