/**
 * The web page's script (bundled for the browser by the service, no CDN): paste a mint, see the quick
 * scan as a card, go deeper to market intel and the deep dive. Paid calls go through the official x402
 * client (`@x402/fetch`) with the wallet the person picks: a Solana wallet (wallet standard), an EVM
 * wallet (EIP-6963), or, where the operator configured one, the demo wallet.
 */
import { x402Client } from '@x402/core/client'
import type { PaymentRequirements } from '@x402/core/types'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { wrapFetchWithPayment } from '@x402/fetch'
import { ExactSvmScheme } from '@x402/svm/exact/client'
import { pct, usd } from '../client/format.ts'
import { checkSolanaAddress } from '../src/onchain/address.ts'
import {
  type MemberOf,
  lpText,
  NOT_MEASURED_TEXT,
  type RenderedAnswer,
  scopeLine,
  unmeasured,
} from '../src/rendering/answer-prose.ts'
import { type PageConfig, priced } from '../plugins/web/page.ts'
import { marketActions, mintActions, type PageHooks, walletIntel } from './catalogue.ts'
import { gradeDial, holdersBar, lpBar, priceSparkline, walletGraph, walletLinks } from './pictures.ts'
import { connectEvm, connectSolana, type Discovered, discoverWallets } from './wallets.ts'

const config = JSON.parse(document.getElementById('config')!.textContent!) as PageConfig
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
const form = $<HTMLFormElement>('scan-form')
const input = $<HTMLInputElement>('mint')
const walletSelect = $<HTMLSelectElement>('wallet')
const status = $<HTMLElement>('status')
const results = $<HTMLElement>('results')

/** An answer as the page reads it (its shapes are in /openapi.json; the page reads what it shows). */
// biome-ignore lint/suspicious/noExplicitAny: the answers' types (client/routes.ts) reach the server's modules, which do not type-check against the DOM library this file needs; the page test checks what it reads
type Json = Record<string, any>

// ---- wallets ---------------------------------------------------------------------------------------

let wallets: Discovered[] = []
function listWallets(): void {
  const chosen = walletSelect.value
  walletSelect.replaceChildren()
  const add = (value: string, label: string) => walletSelect.append(new Option(label, value))
  if (config.demoWallet) add('demo', `Demo wallet (${short(config.demoWallet.address)}, sandbox USDC)`)
  // Only wallets of a chain the service takes payment on (its configured rails).
  for (const [index, wallet] of wallets.entries())
    if (config.rails.includes(wallet.kind === 'solana' ? 'solana' : 'base'))
      add(`w${index}`, `${wallet.name} (${wallet.kind === 'solana' ? 'Solana' : 'EVM'})`)
  if (walletSelect.options.length === 0)
    add(
      '',
      config.rails.length === 0
        ? 'This service takes no payment yet'
        : `No wallet found: install ${config.rails.map((rail) => (rail === 'solana' ? 'a Solana' : 'an EVM')).join(' or ')} wallet`,
    )
  if ([...walletSelect.options].some((option) => option.value === chosen)) walletSelect.value = chosen
}
discoverWallets((found) => {
  wallets = found
  listWallets()
})
listWallets()

/** An x402 client paying with the wallet the person picked. */
async function payingClient(): Promise<x402Client> {
  const client = new x402Client()
  // The page shows each call's price before it is made; the person's choice is the cap.
  client.setSpendControls({ maxAmountPerPayment: false, allowedAssets: true })
  const choice = walletSelect.value
  if (choice === 'demo') {
    client.register('solana:*', {
      scheme: 'exact',
      // The demo wallet's key stays on the service: it signs this service's own offers only.
      async createPaymentPayload(x402Version: number, requirements: PaymentRequirements) {
        const response = await fetch('/demo/pay', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ x402Version, requirements }),
        })
        const body = (await response.json()) as Json
        if (!response.ok) throw new Error(body.message ?? `the demo wallet refused (${response.status})`)
        return { x402Version: body.x402Version, payload: body.payload }
      },
    })
    return client
  }
  const wallet = wallets[Number(choice.slice(1))]
  if (!wallet) throw new Error('pick a wallet to pay with')
  if (wallet.kind === 'solana') {
    const signer = await connectSolana(wallet)
    client.register(
      'solana:*',
      new ExactSvmScheme(signer, config.solanaRpcUrl ? { rpcUrl: config.solanaRpcUrl } : undefined),
    )
  } else {
    client.register('eip155:*', new ExactEvmScheme(await connectEvm(wallet)))
  }
  return client
}

// ---- calls -------------------------------------------------------------------------------------------

/** Pays for and makes one call: `request` is the body, or a mint (`{token_address}`). */
async function call(path: string, request: string | Record<string, unknown>, label: string): Promise<Json> {
  setStatus(`${label}: paying and asking…`, 'busy')
  const started = performance.now()
  const paying = wrapFetchWithPayment(fetch, await payingClient())
  const response = await paying(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(typeof request === 'string' ? { token_address: request } : request),
  })
  const body = (await response.json()) as Json
  if (!response.ok) throw new Error(`${body.code ?? response.status}: ${body.message ?? response.statusText}`)
  const receipt = response.headers.get('payment-response')
  const paid = receipt ? JSON.parse(atob(receipt)) : null
  setStatus(
    `${label}: answered in ${((performance.now() - started) / 1000).toFixed(1)} s${paid?.success ? ` · paid, transaction ${short(paid.transaction)}` : ''}`,
    'done',
  )
  return body
}

/** What the catalogue's views (web/catalogue.ts) use of the page. */
const hooks: PageHooks = {
  call,
  show(card) {
    const same = card.id ? document.getElementById(card.id) : null
    if (same?.parentElement === results) same.replaceWith(card)
    else results.append(card)
  },
  fail(error) {
    setStatus((error as Error).message, 'error')
  },
  prices: config.prices,
  solanaRpcUrl: config.solanaRpcUrl,
  async solanaAddress() {
    const choice = walletSelect.value
    if (choice === 'demo' && config.demoWallet) return config.demoWallet.address
    const wallet = wallets[Number(choice.slice(1))]
    if (wallet?.kind === 'solana') return (await connectSolana(wallet)).address
    throw new Error('a trade is signed by a Solana wallet: pick one (or the demo wallet) in "Pay with"')
  },
}

form.addEventListener('submit', async (event) => {
  event.preventDefault()
  const mint = input.value.trim()
  const check = checkSolanaAddress(mint, 'token_address')
  if (!check.ok) {
    setStatus(check.message, 'error')
    input.setAttribute('aria-invalid', 'true')
    return
  }
  input.removeAttribute('aria-invalid')
  results.replaceChildren()
  // The address bar names the token: the page's URL is the token's, to share.
  if (location.pathname !== `/t/${mint}`) history.replaceState(null, '', `/t/${mint}`)
  try {
    const scan = await call('/scan/quick', mint, 'Quick scan')
    results.append(quickScanCard(scan, mint))
  } catch (error) {
    setStatus((error as Error).message, 'error')
  }
})

// ---- rendering ----------------------------------------------------------------------------------------

function setStatus(text: string, kind: 'busy' | 'done' | 'error'): void {
  status.textContent = text
  status.dataset.kind = kind
}

function short(value: string): string {
  return value.length > 12 ? `${value.slice(0, 4)}…${value.slice(-4)}` : value
}

function el(tag: string, attributes: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElement {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value)
  node.append(...children)
  return node
}

function row(label: string, value: string, tone = ''): HTMLElement {
  return el(
    'div',
    { class: 'row' },
    el('span', { class: 'label' }, label),
    el('span', { class: `value ${tone}` }, value),
  )
}

/**
 * A member's value, or "not measured" (toned as unknown) when the answer's `missing_fields` say it was
 * not read: never its placeholder.
 */
function measuredRow<A extends RenderedAnswer>(
  answer: Json,
  kind: A,
  member: MemberOf<A>,
  label: string,
  value: () => string,
  tone = '',
): HTMLElement {
  return unmeasured(answer as { missing_fields: string[] }, kind, member)
    ? row(label, NOT_MEASURED_TEXT, 'unknown')
    : row(label, value(), tone)
}

/** Under a grade drawn from incomplete data, the warning that it cannot see what was not read (the CLI says the same). */
function caveat(answer: Json): HTMLElement[] {
  return answer.data_quality === 'FULL'
    ? []
    : [el('p', { class: 'caveat' }, 'Graded without what was not measured: a risk hidden there is not in this grade.')]
}

/** The findings that decided it, in plain words: the risks, in the answer's order (the deciding ones first). */
function findings(items: Json[]): HTMLElement {
  const risks = items.filter((item) => item.severity !== 'info' || item.hard_fail || item.grade_ceiling)
  const shown = risks.length > 0 ? risks : items
  return el(
    'ul',
    { class: 'findings' },
    ...shown.map((item) =>
      el(
        'li',
        { class: `sev-${item.severity}` },
        el('span', { class: 'severity' }, item.severity),
        el('strong', {}, item.title),
        item.hard_fail ? ' — fails the token' : item.grade_ceiling ? ` — caps the grade at ${item.grade_ceiling}` : '',
        el('p', {}, item.detail),
      ),
    ),
  )
}

function quickScanCard(scan: Json, mint: string): HTMLElement {
  const grade = scan.structural_risk_grade as string
  const authority = (revoked: boolean) =>
    revoked ? 'revoked' : scan.authority_exempt ? 'live (issuer, exempt)' : 'LIVE'
  const deeper = el('div', { class: 'deeper' })
  const intelButton = el(
    'button',
    { type: 'button', id: 'go-intel' },
    priced('Market intel', config.prices, 'POST /market/intel'),
  )
  const deepButton = el(
    'button',
    { type: 'button', id: 'go-deep' },
    priced('Deep dive', config.prices, 'POST /scan/deep'),
  )
  intelButton.addEventListener('click', () => goDeeper('/market/intel', 'Market intel', mint, intelCard))
  deepButton.addEventListener('click', () => goDeeper('/scan/deep', 'Deep dive', mint, deepDiveCard))
  deeper.append(el('span', {}, 'Go deeper:'), intelButton, deepButton, mintActions(hooks, mint))
  const title = [scan.symbol, scan.name].filter(Boolean).join(' · ')
  const scope = scopeLine(scan.scope)
  return el(
    'section',
    { class: 'card', id: 'quick-card' },
    el(
      'header',
      {},
      el('span', { class: `badge grade-${grade}`, id: 'grade' }, grade),
      el(
        'div',
        {},
        el(
          'h2',
          {},
          title ||
            (unmeasured(scan as { missing_fields: string[] }, 'quick_scan', 'name')
              ? `Name and symbol ${NOT_MEASURED_TEXT}`
              : 'Unnamed token'),
        ),
        el('code', {}, scan.token_address),
      ),
    ),
    ...caveat(scan),
    measuredRow(
      scan,
      'quick_scan',
      'mint_authority_revoked',
      'Mint authority',
      () => authority(scan.mint_authority_revoked),
      scan.mint_authority_revoked ? 'good' : 'bad',
    ),
    measuredRow(
      scan,
      'quick_scan',
      'freeze_authority_revoked',
      'Freeze authority',
      () => authority(scan.freeze_authority_revoked),
      scan.freeze_authority_revoked ? 'good' : 'bad',
    ),
    gradeDial(grade, scan.factors),
    measuredRow(scan, 'quick_scan', 'top_10_holder_pct', 'Top 10 holders', () =>
      scan.top_10_holder_pct === null ? NOT_MEASURED_TEXT : pct(scan.top_10_holder_pct),
    ),
    ...(scan.top_10_holder_pct === null ||
    unmeasured(scan as { missing_fields: string[] }, 'quick_scan', 'top_10_holder_pct')
      ? []
      : [holdersBar(scan.top_10_holder_pct)]),
    measuredRow(
      scan,
      'quick_scan',
      'liquidity_check',
      'Liquidity',
      () => `${scan.liquidity_check.rating} — ${scan.liquidity_check.meaning}`,
    ),
    measuredRow(scan, 'quick_scan', 'lp_status', 'LP', () => lpText(scan as Parameters<typeof lpText>[0])),
    row(
      'Data',
      `${scan.data_quality}${scan.missing_fields.length ? ` · sources unavailable: ${scan.missing_fields.join(', ')}` : ''}`,
      scan.data_quality === 'FULL' ? '' : 'unknown',
    ),
    ...(scope ? [el('p', { class: 'scope', id: 'scope' }, scope)] : []),
    el('h3', {}, 'What decided it'),
    findings(scan.factors),
    el('p', { class: 'summary' }, scan.summary),
    deeper,
  )
}

async function goDeeper(
  path: string,
  label: string,
  mint: string,
  render: (answer: Json) => HTMLElement,
): Promise<void> {
  try {
    const answer = await call(path, mint, label)
    results.append(render(answer))
  } catch (error) {
    setStatus((error as Error).message, 'error')
  }
}

function intelCard(intel: Json): HTMLElement {
  const missing = intel as { missing_fields: string[] }
  const known = (member: MemberOf<'market_intel'>, text: () => string) =>
    unmeasured(missing, 'market_intel', member) ? NOT_MEASURED_TEXT : text()
  const change = (member: 'price_change_1h_pct' | 'price_change_24h_pct') =>
    known(member, () => pct(intel[member], { signed: true }))
  const dollars = (member: 'volume_24h_usd' | 'liquidity_usd') => known(member, () => usd(intel[member]))
  // No pool trades it: that is the answer, first; its figures are placeholders and are left out.
  const noMarket = (intel.factors as Json[]).find((item) => item.code === 'NO_MARKET')
  const figures = noMarket
    ? [row('Market', `NO MARKET — ${noMarket.detail}`, 'bad')]
    : [
        measuredRow(
          intel,
          'market_intel',
          'current_price_usd',
          'Price',
          () =>
            `${usd(intel.current_price_usd)} · 1 h ${change('price_change_1h_pct')} · 24 h ${change('price_change_24h_pct')}`,
        ),
        measuredRow(intel, 'market_intel', 'volume_24h_usd', 'Volume 24 h', () => dollars('volume_24h_usd')),
        measuredRow(intel, 'market_intel', 'liquidity_usd', 'Liquidity', () => dollars('liquidity_usd')),
        measuredRow(
          intel,
          'market_intel',
          'buy_pressure',
          'Pressure',
          () => `buy ${intel.buy_pressure}, sell ${intel.sell_pressure}`,
        ),
        row('Health', `${known('token_health', () => intel.token_health)} · ${intel.signal_subtype}`),
        ...marketPictures(intel),
      ]
  // No price read: the NEUTRAL signal is a placeholder, not a reading.
  const signal = noMarket ? 'NO MARKET' : intel.signal_subtype === 'INSUFFICIENT_DATA' ? 'NOT MEASURED' : intel.signal
  return el(
    'section',
    { class: 'card', id: 'intel-card' },
    el(
      'header',
      {},
      el(
        'span',
        { class: `badge signal-${noMarket ? 'BEARISH' : signal === 'NOT MEASURED' ? 'NEUTRAL' : intel.signal}` },
        signal,
      ),
      el('h2', {}, 'Market intel'),
    ),
    ...figures,
    el('h3', {}, 'What decided it'),
    findings(intel.factors),
    el('p', { class: 'summary' }, intel.market_summary),
  )
}

/** Market intel's price over its windows and its volume, when its price was read. */
function marketPictures(intel: Json): HTMLElement[] {
  const missing = intel as { missing_fields: string[] }
  if (unmeasured(missing, 'market_intel', 'current_price_usd') || !(intel.current_price_usd > 0)) return []
  const change = (member: MemberOf<'market_intel'>) =>
    unmeasured(missing, 'market_intel', member) ? null : (intel[member] as number | null)
  return [
    priceSparkline(
      intel.current_price_usd,
      [
        { label: '24 h', change_pct: change('price_change_24h_pct') },
        { label: '1 h', change_pct: change('price_change_1h_pct') },
        { label: '15 min', change_pct: change('price_change_15m_pct') },
        { label: '5 min', change_pct: change('price_change_5m_pct') },
      ],
      intel.volume_1h_usd,
      intel.volume_24h_usd,
    ),
  ]
}

function deepDiveCard(dive: Json): HTMLElement {
  const action = dive.recommendation.action as string
  const report = (dive.full_risk_report as string).split('\n\n').map((paragraph) => el('p', {}, paragraph))
  return el(
    'section',
    { class: 'card', id: 'deep-card' },
    el(
      'header',
      {},
      el('span', { class: `badge grade-${dive.risk_grade}` }, dive.risk_grade),
      el('span', { class: `badge action-${action}`, id: 'recommendation' }, action),
      el('h2', {}, 'Deep dive'),
    ),
    ...caveat(dive),
    gradeDial(dive.risk_grade, dive.factors),
    ...(dive.top_10_holder_pct === null ||
    unmeasured(dive as { missing_fields: string[] }, 'deep_dive', 'top_10_holder_pct')
      ? []
      : [holdersBar(dive.top_10_holder_pct, dive.wallet_analysis?.insider_control_percent ?? null)]),
    ...(dive.wallet_analysis ? [walletGraph(walletLinks(dive as Parameters<typeof walletLinks>[0]))] : []),
    ...(dive.liquidity_lock_status ? [lpBar(dive.liquidity_lock_status)] : []),
    el('h3', {}, 'Key drivers'),
    // In the answer's order: the deciding findings first.
    el(
      'ul',
      { id: 'key-drivers' },
      ...(dive.key_drivers as Json[]).map((driver) => {
        const ceiling = (dive.factors as Json[]).find((item) => item.code === driver.code)?.grade_ceiling
        const cap = driver.hard_fail ? ' — fails the token' : ceiling ? ` — caps the grade at ${ceiling}` : ''
        return el('li', {}, `${driver.title ?? driver.code}${cap}`)
      }),
    ),
    el('h3', {}, 'Findings'),
    findings(dive.factors),
    el('details', { open: '' }, el('summary', {}, 'The full report'), ...report),
  )
}

// ---- a wallet, the market, and the page's own URLs (/t/<mint>, /w/<address>) --------------------------

const walletForm = $<HTMLFormElement>('wallet-form')
const walletInput = $<HTMLInputElement>('wallet-address')
walletForm.addEventListener('submit', (event) => {
  event.preventDefault()
  const address = walletInput.value.trim()
  const check = checkSolanaAddress(address, 'wallet_address', 'Solana wallet address')
  if (!check.ok) {
    setStatus(check.message, 'error')
    walletInput.setAttribute('aria-invalid', 'true')
    return
  }
  walletInput.removeAttribute('aria-invalid')
  if (location.pathname !== `/w/${address}`) history.replaceState(null, '', `/w/${address}`)
  void walletIntel(hooks, address)
})
$<HTMLElement>('market-actions').append(...marketActions(hooks))

/**
 * `/t/<mint>` opens the token's view: the mint in the form and every answer about it one click away;
 * `/w/<address>` the wallet's. Nothing is paid until a button is pressed: a shared link spends nothing.
 */
function openFromUrl(): void {
  const [, kind, id] = location.pathname.split('/')
  if (!id) return
  if (kind === 't') {
    input.value = id
    const share = el('a', { href: `/t/${id}` }, `${location.origin}/t/${id}`)
    const view = el(
      'section',
      { class: 'card', id: 'token-view' },
      el('header', {}, el('h2', {}, 'This token')),
      el('code', {}, id),
      el('p', {}, 'Pick an answer; each is paid when pressed. Share this page: ', share),
      el(
        'div',
        { class: 'deeper' },
        tokenButton('Quick scan', 'POST /scan/quick', () => form.requestSubmit()),
      ),
      el(
        'div',
        { class: 'deeper' },
        tokenButton('Market intel', 'POST /market/intel', () =>
          goDeeper('/market/intel', 'Market intel', id, intelCard),
        ),
        tokenButton('Deep dive', 'POST /scan/deep', () => goDeeper('/scan/deep', 'Deep dive', id, deepDiveCard)),
        mintActions(hooks, id),
      ),
    )
    results.append(view)
  } else if (kind === 'w') {
    walletInput.value = id
    walletInput.focus()
    setStatus(`Wallet ${short(id)}: press Wallet intel to read it.`, 'done')
  }
}

function tokenButton(label: string, route: string, onClick: () => void): HTMLElement {
  const button = el(
    'button',
    { type: 'button', 'data-view': label.toLowerCase().replaceAll(' ', '-') },
    priced(label, config.prices, route),
  )
  button.addEventListener('click', onClick)
  return button
}
openFromUrl()
