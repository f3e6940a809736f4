/**
 * The web page's script (bundled for the browser by the service, no CDN): paste a mint, see the quick
 * scan as a card, go deeper to market intel and the deep dive. Paid calls go through the official x402
 * client (`@x402/fetch`) with the wallet the person picks: a Solana wallet (wallet standard), an EVM
 * wallet (EIP-6963), or, where the operator configured one, the demo wallet.
 */
import { x402Client, x402HTTPClient } from '@x402/core/client'
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { createSIWxPayload, encodeSIWxHeader, type SIWxExtensionInfo } from '@x402/extensions/sign-in-with-x'
import { ExactSvmScheme } from '@x402/svm/exact/client'
import { getBase64EncodedWireTransaction, getTransactionDecoder } from '@solana/kit'
import { missingInWords, pct, usd, words } from '../client/format.ts'
import { checkSolanaAddress } from '../src/onchain/address.ts'
import {
  type MemberOf,
  lpText,
  NOT_MEASURED_TEXT,
  type RenderedAnswer,
  scopeLine,
  unmeasured,
} from '../src/rendering/answer-prose.ts'
import { type PageConfig, priced, WATCH_SIGN_IN_STATEMENT } from '../plugins/web/page.ts'
import { type HeldAnswer, marketActions, mintActions, type PageHooks, restoreHeld, walletIntel } from './catalogue.ts'
import {
  gradeDial,
  holdersBar,
  type LpEvidence,
  lpBar,
  lpTimeline,
  priceSparkline,
  walletGraph,
  walletLinks,
} from './pictures.ts'
import {
  connectEvm,
  connectSolana,
  type Discovered,
  discoverWallets,
  evmMessageSigner,
  solanaMessageSigner,
} from './wallets.ts'
import { showWatch, WATCH_ROUTE, type WatchHooks, watchControl } from './watch.ts'

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
async function payingClient(label: string): Promise<x402Client> {
  const client = new x402Client()
  // The page shows each call's price before it is made; the person's choice is the cap.
  client.setSpendControls({ maxAmountPerPayment: false, allowedAssets: true })
  const choice = walletSelect.value
  if (choice === 'demo') {
    client.register('solana:*', {
      scheme: 'exact',
      // The demo wallet's key stays on the service: it signs this service's own offers only.
      async createPaymentPayload(x402Version: number, requirements: PaymentRequirements) {
        const response = await send(
          '/demo/pay',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ x402Version, requirements }),
          },
          label,
        )
        const body = await readJson(response)
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

// ---- paid calls, buttons and cards: the page's lifecycle (every view goes through these) ---------------

/** A paid answer as the page holds it: the body, and whether this click paid for it or showed it again. */
interface Paid {
  answer: Json
  /** When it was paid (ms since epoch); `again` when it was paid earlier and is shown again without paying. */
  paidAt: number
  again: boolean
}

/** Answers paid for in this tab, by `METHOD /path` and request body: held in sessionStorage, so a reload pays nothing. */
const ANSWERS_KEY = 'solsentry:answers'
const held = new Map<string, { answer: Json; paidAt: number }>(readStored(ANSWERS_KEY))
/** Calls under way, by the same key: a second ask while one runs waits for it, never pays again. */
const inFlight = new Map<string, Promise<Paid>>()

/** The entries of a map kept in sessionStorage under `name` (none when there is no storage). */
function readStored<T>(name: string): [string, T][] {
  try {
    return JSON.parse(sessionStorage.getItem(name) ?? '[]')
  } catch {
    return []
  }
}

/** Writes the held answers to sessionStorage; when it is full, the oldest are let go from it (this page keeps them all). */
function keepHeld(): void {
  const entries = [...held]
  while (entries.length > 0) {
    try {
      sessionStorage.setItem(ANSWERS_KEY, JSON.stringify(entries))
      return
    } catch {
      entries.shift()
    }
  }
}

/**
 * Pays for `route` (`METHOD /path`, as the manifests price it) with `body` once: an answer already paid
 * for the same route and body in this tab is shown again (no request), and a call already under way is
 * joined. A failed call is not held (nothing was charged): asking again pays again.
 */
function payOnce(route: string, body: Json, label: string, { fresh = false }: { fresh?: boolean } = {}): Promise<Paid> {
  const key = `${route} ${JSON.stringify(body)}`
  const kept = fresh ? undefined : held.get(key)
  if (kept) {
    setStatus(
      `${label}: paid at ${new Date(kept.paidAt).toLocaleTimeString()} in this tab — shown again, no new payment`,
      'done',
    )
    return Promise.resolve({ ...kept, again: true })
  }
  let joined = inFlight.get(key)
  if (!joined) {
    joined = call(route, body, label, key, fresh).then((answer) => {
      const paid = { answer, paidAt: Date.now() }
      // Refreshed: held anew, last in paying order (a reload draws it where the page does).
      held.delete(key)
      held.set(key, paid)
      keepHeld()
      return { ...paid, again: false }
    })
    inFlight.set(key, joined)
    const done = () => inFlight.delete(key)
    joined.then(done, done)
  }
  return joined
}

/** Where a paid request carries its payment: v2, then v1. */
const PAYMENT_HEADERS = ['payment-signature', 'x-payment'] as const
/** How long one ask keeps presenting a payment whose settlement is pending (the service reads the chain every 30 s). */
const COLLECT_MS = 120_000
/**
 * Payments sent whose settlement was still pending when the ask stopped waiting (or the page was left),
 * by the same key as the answers: the next ask presents the same payment again, never a new one.
 */
const PENDING_KEY = 'solsentry:pending'
const pending = new Map<string, { name: string; value: string }>(readStored(PENDING_KEY))

function keepPending(): void {
  try {
    sessionStorage.setItem(PENDING_KEY, JSON.stringify([...pending]))
  } catch {
    // No storage: the payment stays held while the page is open.
  }
}

/** A 402 whose payment was sent for settlement and is being read from the chain (docs/payments.md). */
const settlementPending = (response: Response, answer: Json) =>
  response.status === 402 && answer.settlement?.state === 'pending'

/** How long one request keeps waiting out `429`s (the service's rate limit) before the call fails, saying so. */
const BUSY_BUDGET_S = 60
/** Until when (ms since epoch) the service asked this page to wait: every request waits it out, not only the refused one. */
let busyUntil = 0

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

/**
 * Sends `path`, and again while the service answers `429` (too many requests from here), for up to
 * BUSY_BUDGET_S seconds: it waits the answer's `Retry-After`, counting down in the status line. The
 * wait is shared: while one request waits, the page's other requests wait too, rather than spend the
 * limit again. A request the rate limit refused never reached its route: nothing was charged, and a
 * payment it carried is unspent.
 */
async function send(path: string, init: RequestInit, label: string): Promise<Response> {
  const deadline = Date.now() + BUSY_BUDGET_S * 1000
  for (;;) {
    while (Date.now() < busyUntil) {
      const left = Math.ceil((busyUntil - Date.now()) / 1000)
      setStatus(`${label}: the service is busy, retrying in ${left} s (nothing was charged)`, 'busy')
      await sleep(Math.min(1000, busyUntil - Date.now()))
    }
    const response = await fetch(path, init)
    if (response.status !== 429) return response
    const waitS = Math.max(1, Math.ceil(Number(response.headers.get('retry-after')) || 2))
    // Past the budget: the 429 is the answer (its message says when to ask again).
    if (Date.now() + waitS * 1000 > deadline) return response
    // Spread a little, so the requests that waited together do not all arrive at once.
    busyUntil = Math.max(busyUntil, Date.now() + waitS * 1000 + Math.random() * 500)
  }
}

/**
 * How the service asks to be paid at each path (its `402`, read once per path and tab; for a price per
 * unit, per path and body, since the amount is the body's count × the unit): the next call
 * there signs its payment straight away, one request instead of two. A challenge that no longer holds
 * (a `402` refusing the payment) is read again from that answer, once.
 */
const challenges = new Map<string, PaymentRequired>()

/** The answer's body read as JSON (an empty or non-JSON body: its status in words). */
async function readJson(response: Response): Promise<Json> {
  const text = await response.text()
  try {
    return text ? (JSON.parse(text) as Json) : {}
  } catch {
    return { message: text.slice(0, 200) || response.statusText }
  }
}

/**
 * Calls paid in this browser, by the same key as the answers, with the wallet that paid: kept in
 * localStorage — not the answers, only that they were paid — so that a tab whose sessionStorage is gone
 * (a new tab, the browser reopened) signs in with that wallet (sign-in-with-x) and is answered again
 * without a payment, while the service keeps the answer (24 hours: docs/payments.md).
 */
const PAID_KEY = 'solsentry:paid'
/** A little under the service's 24 hours: past it, the answer is no longer kept, and the page pays. */
const SIGN_IN_WINDOW_MS = 23 * 60 * 60_000

function paidInBrowser(): Map<string, { wallet: string; paidAt: number }> {
  try {
    const now = Date.now()
    return new Map(
      (JSON.parse(localStorage.getItem(PAID_KEY) ?? '[]') as [string, { wallet: string; paidAt: number }][]).filter(
        ([, paid]) => now - paid.paidAt < SIGN_IN_WINDOW_MS,
      ),
    )
  } catch {
    return new Map()
  }
}

function notePaid(key: string, wallet: string): void {
  try {
    const paid = paidInBrowser()
    paid.set(key, { wallet, paidAt: Date.now() })
    localStorage.setItem(PAID_KEY, JSON.stringify([...paid].slice(-200)))
  } catch {
    // No storage: a new tab pays again.
  }
}

/** The wallet picked in "Pay with", as the page names it in what it keeps (`demo`, or the wallet's name and kind). */
function walletId(): string {
  const choice = walletSelect.value
  if (choice === 'demo') return `demo ${config.demoWallet?.address ?? ''}`
  const wallet = wallets[Number(choice.slice(1))]
  return wallet ? `${wallet.kind} ${wallet.name}` : ''
}

/**
 * The `SIGN-IN-WITH-X` header for a 402's sign-in-with-x `offer`, signed by the wallet picked in "Pay
 * with": the demo wallet through the service (its key stays there), a Solana wallet that can sign
 * messages, an EVM wallet (EIP-191). Null when the wallet cannot sign in on a chain the offer names.
 */
async function signInHeader(offer: Json, label: string): Promise<string | null> {
  const info = offer.info as SIWxExtensionInfo
  const chains = (offer.supportedChains ?? []) as { chainId: string }[]
  const solana = chains.find((chain) => chain.chainId.startsWith('solana:'))
  const evm = chains.find((chain) => chain.chainId.startsWith('eip155:'))
  const choice = walletSelect.value
  if (choice === 'demo') {
    if (!solana) return null
    const response = await send(
      '/demo/sign-in',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ info, chainId: solana.chainId }),
      },
      label,
    )
    return response.ok ? ((await readJson(response)).header as string) : null
  }
  const wallet = wallets[Number(choice.slice(1))]
  if (wallet?.kind === 'solana' && solana) {
    const signer = await solanaMessageSigner(wallet)
    if (!signer) return null
    return encodeSIWxHeader(
      await createSIWxPayload({ ...info, chainId: solana.chainId, type: 'ed25519' }, signer, info.uri),
    )
  }
  if (wallet?.kind === 'evm' && evm)
    return encodeSIWxHeader(
      await createSIWxPayload(
        { ...info, chainId: evm.chainId, type: 'eip191' },
        await evmMessageSigner(wallet),
        info.uri,
      ),
    )
  return null
}

/** Makes the call `route` with `body`; `fresh` (a Refresh): a new answer, paid for, never one signed in for again. */
async function call(route: string, body: Json, label: string, key: string, fresh = false): Promise<Json> {
  const [method, path] = route.split(' ') as [string, string]
  const init: RequestInit = {
    method,
    headers: { 'content-type': 'application/json' },
    body: method === 'GET' ? undefined : JSON.stringify(body),
  }
  const started = performance.now()
  // A price per unit (a watch's hours) asks a different amount for each body: its challenge is the body's.
  const challengeKey = config.prices[route]?.includes(' per ') ? key : path
  /** The request with the payment headers `headers`. */
  const withHeaders = (headers: Record<string, string>): RequestInit => ({
    ...init,
    headers: { ...(init.headers as Record<string, string>), ...headers },
  })
  /** Presents the payment `sent` again with the same request. */
  const presentAgain = (sent: { name: string; value: string }) =>
    send(path, withHeaders({ [sent.name]: sent.value }), label)
  let sent = pending.get(key)
  let response: Response
  let answer: Json
  if (sent) {
    setStatus(`${label}: presenting the payment already sent (no new payment)…`, 'busy')
    response = await presentAgain(sent)
    answer = await readJson(response)
  } else {
    setStatus(`${label}: paying and asking…`, 'busy')
    let required = challenges.get(challengeKey)
    let fromCache = required !== undefined
    const paidHere = fresh ? undefined : paidInBrowser().get(key)
    if (!required || (paidHere && paidHere.wallet === walletId())) {
      // A fresh challenge: the path's terms, and its sign-in offer (a fresh nonce).
      response = await send(path, init, label)
      answer = await readJson(response)
      required = undefined
      fromCache = false
    } else {
      response = new Response(null, { status: 402 })
      answer = {}
    }
    // Paid for in this browser with this wallet (and no longer in this tab): signed in, the service answers
    // it again without a payment; not kept there any more, the page pays as usual.
    if (paidHere && paidHere.wallet === walletId() && response.status === 402) {
      const challenged = response
      required = new x402HTTPClient(new x402Client()).getPaymentRequiredResponse(
        (name) => challenged.headers.get(name),
        answer,
      )
      challenges.set(challengeKey, required)
      const offer = (required.extensions as Json | undefined)?.['sign-in-with-x']
      setStatus(`${label}: paid for earlier in this browser — signing in to fetch it again (no new payment)…`, 'busy')
      const header = offer ? await signInHeader(offer, label).catch(() => null) : null
      if (header) {
        const signedIn = await send(path, withHeaders({ 'sign-in-with-x': header }), label)
        const signedAnswer = await readJson(signedIn)
        if (signedIn.ok) {
          response = signedIn
          answer = signedAnswer
        }
      }
    }
    // The official client signs the payment for the challenge; the page notes the header it sends, to
    // present it again if need be.
    for (let round = 0; response.status === 402 && !settlementPending(response, answer) && round < 2; round++) {
      if (!required) {
        const challenged = response
        required = new x402HTTPClient(new x402Client()).getPaymentRequiredResponse(
          (name) => challenged.headers.get(name),
          answer,
        )
        challenges.set(challengeKey, required)
      }
      const client = await payingClient(label)
      const headers = new x402HTTPClient(client).encodePaymentSignatureHeader(
        await client.createPaymentPayload(required),
      )
      const name = PAYMENT_HEADERS.find((header) => Object.keys(headers).some((key) => key.toLowerCase() === header))
      const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1]
      if (name && value) sent = { name, value }
      response = await send(path, withHeaders(headers), label)
      answer = await readJson(response)
      // Refused with a challenge read earlier: the service's terms changed; read them again and sign once more.
      if (!fromCache || response.status !== 402 || settlementPending(response, answer)) break
      challenges.delete(challengeKey)
      required = undefined
      fromCache = false
      sent = undefined
    }
  }
  // Paid, and the chain has not shown the transfer yet: the same payment with the same request collects
  // the answer once it shows — never a new payment (the SDK and CLI do the same, docs/payments.md).
  const until = Date.now() + COLLECT_MS
  while (sent && settlementPending(response, answer)) {
    pending.set(key, sent)
    keepPending()
    const waitS = Math.min(Math.max(Number(response.headers.get('retry-after')) || 10, 1), 30)
    if (Date.now() + waitS * 1000 > until)
      throw new Error(
        `${label}: your payment was sent and the chain has not confirmed it yet; ask again to present the same payment (no new payment): ${answer.message}`,
      )
    setStatus(
      `${label}: payment sent, waiting for the chain to confirm it — presenting the same payment again in ${waitS} s (no new payment)`,
      'busy',
    )
    await new Promise((done) => setTimeout(done, waitS * 1000))
    response = await presentAgain(sent)
    answer = await readJson(response)
  }
  // Answered, or refused for good (it can never settle: nothing was charged): the payment is done with.
  if (pending.delete(key)) keepPending()
  if (!response.ok) throw new Error(`${answer.code ?? response.status}: ${answer.message ?? response.statusText}`)
  if (response.headers.get('x-answer-replayed') === 'sign-in-with-x') {
    setStatus(`${label}: signed in — the answer this wallet paid for earlier, fetched again (no new payment)`, 'done')
    return answer
  }
  const receipt = response.headers.get('payment-response')
  const paid = receipt ? JSON.parse(atob(receipt)) : null
  if (paid?.success) notePaid(key, walletId())
  setStatus(
    `${label}: answered in ${((performance.now() - started) / 1000).toFixed(1)} s${paid?.success ? ` · paid, transaction ${short(paid.transaction)}` : ''}`,
    'done',
  )
  return answer
}

/**
 * A button for a paid call, its price in its label: disabled (and `aria-busy`) from the click until
 * `action` ends, so a double click runs it once; a failure is told in the status line.
 */
function paidButton(
  label: string,
  route: string,
  action: () => Promise<void>,
  attributes: Record<string, string> = {},
): HTMLButtonElement {
  const button = el(
    'button',
    { type: 'button', ...attributes },
    priced(label, config.prices, route),
  ) as HTMLButtonElement
  button.addEventListener('click', () => busyWhile(button, action))
  return button
}

/** Calls running: the results are `aria-busy` while any is. */
let callsRunning = 0

/** Runs `action` with `button` disabled; a click while it runs does nothing. */
async function busyWhile(button: HTMLButtonElement, action: () => Promise<void>): Promise<void> {
  if (button.disabled) return
  button.disabled = true
  button.setAttribute('aria-busy', 'true')
  callsRunning++
  results.setAttribute('aria-busy', 'true')
  try {
    await action()
  } catch (error) {
    setStatus((error as Error).message, 'error')
  } finally {
    button.disabled = false
    button.removeAttribute('aria-busy')
    if (--callsRunning === 0) results.removeAttribute('aria-busy')
  }
}

/**
 * Shows the card `id`: the one already on the page, or `build()`'s, appended to `into` (the results).
 * Either is scrolled into view (below the sticky status line) and focused (`focus: false`: neither),
 * named by its heading. One card per id: asking again shows the same card; with `replace`, `build()`'s
 * takes its place (a view whose answer changes with its inputs: an exit check's size, a feed). With
 * `mint`, an answer that comes back after the person scanned another mint is not shown (it is held:
 * asking again shows it). With `instead`, a new card takes the place of the card of that id (the token
 * view's place taken by the graded quick scan: one card, one set of buttons).
 */
function showCard(
  id: string,
  build: () => HTMLElement,
  {
    mint,
    focus = true,
    into = results,
    replace = false,
    instead,
  }: { mint?: string; focus?: boolean; into?: HTMLElement; replace?: boolean; instead?: string } = {},
): void {
  if (mint !== undefined && results.dataset.mint !== mint) return
  let card = document.getElementById(id)
  if (!card || replace) {
    const shown = card ?? (instead ? document.getElementById(instead) : null)
    card = build()
    card.id = id
    const heading = card.querySelector('h2')
    if (heading) {
      heading.id = `${id}-title`
      card.setAttribute('aria-labelledby', heading.id)
    }
    card.tabIndex = -1
    if (shown && shown !== card) shown.replaceWith(card)
    else if (!shown) into.append(card)
  }
  if (!focus) return
  card.scrollIntoView({ block: 'start' })
  card.focus({ preventScroll: true })
}

/** A deeper view of the mint on screen: its answer (paid once) as the card `id`. */
async function goDeeper(
  route: string,
  label: string,
  mint: string,
  id: string,
  render: (answer: Json, paidAt: number) => HTMLElement,
): Promise<void> {
  const { answer, paidAt } = await payOnce(route, { token_address: mint }, label)
  showCard(id, () => render(answer, paidAt), { mint })
}

/** The views a quick scan card leads to (a button each), in the order they are shown back after a reload. */
const DEEPER: { route: string; label: string; id: string; render: (answer: Json, paidAt: number) => HTMLElement }[] = [
  { route: 'POST /market/intel', label: 'Market intel', id: 'intel-card', render: intelCard },
  { route: 'POST /scan/deep', label: 'Deep dive', id: 'deep-card', render: deepDiveCard },
]

/** What the catalogue's views (web/catalogue.ts) use of the page: its paid calls, buttons and cards. */
const hooks: PageHooks = {
  async pay(route, body, label, options) {
    return (await payOnce(route, body, label, options)).answer
  },
  ask(route, body, label) {
    // A free call: never held (nor keyed with the paid ones' pending payments).
    return call(route, body, label, `free ${route} ${JSON.stringify(body)}`)
  },
  paidButton(label, route, view, action) {
    return paidButton(label, route, action, { 'data-view': view })
  },
  busyWhile,
  show(card, { mint, focus } = {}) {
    showCard(card.id, () => card, { mint, focus, replace: true })
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

/** What the watch's button and panel (web/watch.ts) use of the page: its payments, sign-in and wallets. */
const watchHooks: WatchHooks = {
  pay: hooks.pay,
  busyWhile,
  show: hooks.show,
  async signIn(path) {
    const uri = `${location.origin}${path}`
    const info = {
      domain: location.host,
      uri,
      statement: WATCH_SIGN_IN_STATEMENT,
      version: '1',
      nonce: crypto.randomUUID().replaceAll('-', ''),
      issuedAt: new Date().toISOString(),
      resources: [uri],
    }
    const offer = { info, supportedChains: config.networks.map((chainId) => ({ chainId })) }
    const header = await signInHeader(offer, 'Sign in')
    if (!header)
      throw new Error(
        'the wallet in "Pay with" cannot sign in here (sign a message): pick the wallet that paid for the watch',
      )
    return header
  },
  async solanaAddressOrNull() {
    const choice = walletSelect.value
    if (choice === 'demo') return config.demoWallet?.address ?? null
    return wallets[Number(choice.slice(1))]?.kind === 'solana' ? hooks.solanaAddress() : null
  },
  walletSigns() {
    return wallets[Number(walletSelect.value.slice(1))]?.kind === 'solana' && walletSelect.value !== 'demo'
  },
  async signTransaction(transactionB64) {
    const wallet = wallets[Number(walletSelect.value.slice(1))]
    if (walletSelect.value === 'demo' || wallet?.kind !== 'solana')
      throw new Error('an exit is signed by the watched Solana wallet: pick it in "Pay with"')
    const transaction = getTransactionDecoder().decode(Uint8Array.from(atob(transactionB64), (c) => c.charCodeAt(0)))
    // Decoded from the service's own unsigned exit: within the size limit, with its blockhash lifetime.
    const [signatures] = await (await connectSolana(wallet)).signTransactions([transaction as never])
    return getBase64EncodedWireTransaction({
      ...transaction,
      signatures: { ...transaction.signatures, ...signatures },
    })
  },
  setStatus,
  prices: config.prices,
}

/** The last mint scanned in this tab, shown back after a reload. */
const LAST_MINT_KEY = 'solsentry:mint'
const scanButton = $<HTMLButtonElement>('scan')
form.addEventListener('submit', (event) => {
  event.preventDefault()
  void scanFromForm()
})

/** The quick scan of the mint in the form (paid once), with the scan button busy while it runs. */
async function scanFromForm(): Promise<void> {
  const mint = input.value.trim()
  const check = checkSolanaAddress(mint, 'token_address')
  if (!check.ok) {
    setStatus(check.message, 'error')
    input.setAttribute('aria-invalid', 'true')
    input.focus()
    return
  }
  input.removeAttribute('aria-invalid')
  // The address bar names the token: the page's URL is the token's, to share; a new entry in the
  // history, so Back goes to the token before (popstate draws its held answers again).
  if (location.pathname !== `/t/${mint}`) history.pushState(null, '', `/t/${mint}`)
  void busyWhile(scanButton, async () => {
    const { answer } = await payOnce('POST /scan/quick', { token_address: mint }, 'Quick scan')
    if (results.dataset.mint !== mint) {
      // Another token: its cards, and every other answer this tab holds for it, as a reload draws them.
      results.replaceChildren()
      results.dataset.mint = mint
      restore(mint, null, { quiet: true })
    }
    showCard('quick-card', () => quickScanCard(answer, mint), { mint, instead: 'token-view' })
    try {
      sessionStorage.setItem(LAST_MINT_KEY, mint)
    } catch {
      // No storage: a reload shows an empty page (the answers stay held while the page is open).
    }
  })
}

function lastMint(): string | null {
  try {
    return sessionStorage.getItem(LAST_MINT_KEY)
  } catch {
    return null
  }
}

/** The answers held in this tab, oldest paid first, as the catalogue's views read them back. */
function heldAnswers(): HeldAnswer[] {
  return [...held]
    .sort(([, a], [, b]) => a.paidAt - b.paidAt)
    .flatMap(([key, { answer }]) => {
      // The key is `METHOD /path <body as JSON>`.
      const at = key.indexOf(' ', key.indexOf(' ') + 1)
      try {
        return [{ route: key.slice(0, at), body: JSON.parse(key.slice(at + 1)) as Json, answer }]
      } catch {
        return []
      }
    })
}

/**
 * After a reload: every answer this tab holds, drawn again with no request and no payment — the mint's
 * cards (the last mint scanned on `/`, the URL's on `/t/<mint>`: its quick scan, market intel, deep
 * dive, exit checks, news), the wallet's intel, the market's feeds, the trade idea. True when there
 * was something to show.
 */
function restore(mint: string | null, wallet: string | null, { quiet = false }: { quiet?: boolean } = {}): boolean {
  const before = results.childElementCount
  const key = (route: string) => `${route} ${JSON.stringify({ token_address: mint })}`
  const quick = mint ? held.get(key('POST /scan/quick')) : undefined
  if (mint && quick) {
    input.value = mint
    results.dataset.mint = mint
    showCard('quick-card', () => quickScanCard(quick.answer, mint), { mint, focus: false, instead: 'token-view' })
  }
  if (mint && results.dataset.mint === mint)
    for (const view of DEEPER) {
      const kept = held.get(key(view.route))
      if (kept) showCard(view.id, () => view.render(kept.answer, kept.paidAt), { mint, focus: false })
    }
  restoreHeld(hooks, heldAnswers(), mint && results.dataset.mint === mint ? mint : null, wallet)
  // The mint's watch bought last in this tab: its panel again, its alerts read back and followed (nothing paid).
  const watched = heldAnswers()
    .reverse()
    .find((kept) => kept.route === WATCH_ROUTE && mint !== null && kept.body.token_address === mint)
  if (mint && watched && results.dataset.mint === mint) showWatch(watchHooks, watched.answer, mint)
  const shown = results.childElementCount > before
  if (shown && !quiet) setStatus('Answers paid for in this tab, shown again — no new payment', 'done')
  return shown
}

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
  deeper.append(
    el('span', {}, 'Go deeper:'),
    ...DEEPER.map((view) =>
      paidButton(view.label, view.route, () => goDeeper(view.route, view.label, mint, view.id, view.render), {
        id: `go-${view.id.replace(/-card$/, '')}`,
      }),
    ),
    mintActions(hooks, mint),
    ...watchControl(watchHooks, mint),
  )
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
      // The meaning names the rating in words ("Thin liquidity: …"); the code (THIN) is not said again.
      () =>
        String(scan.liquidity_check.meaning).toLowerCase().startsWith(words(scan.liquidity_check.rating))
          ? scan.liquidity_check.meaning
          : `${words(scan.liquidity_check.rating)} — ${scan.liquidity_check.meaning}`,
    ),
    measuredRow(scan, 'quick_scan', 'lp_status', 'LP', () => lpText(scan as Parameters<typeof lpText>[0])),
    row(
      'Data',
      `${scan.data_quality}${scan.missing_fields.length ? ` · sources unavailable: ${(scan.missing_fields as string[]).map(missingInWords).join(', ')}` : ''}`,
      scan.data_quality === 'FULL' ? '' : 'unknown',
    ),
    ...(scope ? [el('p', { class: 'scope', id: 'scope' }, scope)] : []),
    el('h3', {}, 'What decided it'),
    findings(scan.factors),
    el('p', { class: 'summary' }, scan.summary),
    deeper,
  )
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
          () => `buy ${words(intel.buy_pressure)}, sell ${words(intel.sell_pressure)}`,
        ),
        // In words, as the page says them elsewhere ("dead · low liquidity noise", not DEAD · LOW_LIQUIDITY_NOISE).
        row('Health', `${known('token_health', () => words(intel.token_health))} · ${words(intel.signal_subtype)}`),
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

/** The LP finding's evidence (burned share, locks and their release days), where the deep dive has one. */
function lpEvidence(dive: Json): LpEvidence | null {
  const finding = (dive.factors as Json[]).find(
    (item) => String(item.code).startsWith('LP_') && typeof item.evidence?.burned_pct === 'number',
  )
  return finding ? (finding.evidence as LpEvidence) : null
}

/** The deep dive's card; `answeredAt` (when it was paid) dates the LP's unlocks on the timeline. */
function deepDiveCard(dive: Json, answeredAt: number = Date.now()): HTMLElement {
  const lp = lpEvidence(dive)
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
    ...(lp && dive.liquidity_lock_status?.source === 'lp' ? [lpTimeline(lp, answeredAt)] : []),
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
const walletButton = $<HTMLButtonElement>('wallet-go')
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
  if (location.pathname !== `/w/${address}`) history.pushState(null, '', `/w/${address}`)
  void busyWhile(walletButton, () => walletIntel(hooks, address))
})
$<HTMLElement>('market-actions').append(...marketActions(hooks))

/**
 * `/t/<mint>` opens the token's view: the mint in the form and every answer about it one click away;
 * `/w/<address>` the wallet's. Nothing is paid until a button is pressed: a shared link spends nothing.
 * A reload also draws again every answer this tab holds (restore).
 */
function openFromUrl(): void {
  const [, kind, id] = location.pathname.split('/')
  if (refusedUrl(kind, id)) return
  const urlMint = kind === 't' && id ? id : null
  const wallet = kind === 'w' && id ? id : null
  const mint = urlMint ?? (location.pathname === '/' ? lastMint() : null)
  if (urlMint) {
    // A token's page: the token and its verdict first, above the forms (on a phone, the first screen).
    document.querySelector('.lead')?.after(status, results)
    input.value = urlMint
    results.dataset.mint = urlMint
    if (!held.has(`POST /scan/quick ${JSON.stringify({ token_address: urlMint })}`)) tokenView(urlMint)
  }
  if (wallet) {
    walletInput.value = wallet
    walletInput.focus()
  }
  const restored = restore(mint, wallet)
  if (wallet && !restored) setStatus(`Wallet ${short(wallet)}: press Wallet intel to read it.`, 'done')
}

/**
 * `/t/<not a mint>` or `/w/<not a wallet>` (the service answers a browser the page, status 400): a card
 * saying in words what the URL holds instead and what to type. True when the URL was refused.
 */
function refusedUrl(kind: string | undefined, id: string | undefined): boolean {
  if (!id || (kind !== 't' && kind !== 'w')) return false
  let value = id
  try {
    value = decodeURIComponent(id)
  } catch {
    // Left as the URL has it.
  }
  const token = kind === 't'
  const check = checkSolanaAddress(
    value,
    token ? 'mint' : 'address',
    token ? 'Solana SPL mint address' : 'Solana wallet address',
  )
  if (check.ok) return false
  // A link pasted with a space around the address: the page of the bare address, one click away.
  const bare = value.trim()
  const fixed = bare !== value && checkSolanaAddress(bare).ok ? `/${kind}/${bare}` : null
  const ticker = check.message.includes('looks like a ticker')
  const why = ticker
    ? token
      ? 'It looks like a ticker: many tokens share one, so the page needs the token’s mint address (32 to 44 base58 characters).'
      : 'It looks like a token’s ticker, not a wallet: a wallet address is 32 to 44 base58 characters.'
    : `${check.message.replace(/^(mint|address)\b/, 'The address in the link')}.`
  document.querySelector('.lead')?.after(status, results)
  showCard(
    'url-refused',
    () =>
      el(
        'section',
        { class: 'card' },
        el('h2', {}, `“${value}” is not a ${token ? 'token (mint) address' : 'wallet address'}`),
        el('p', {}, why),
        ...(fixed ? [el('p', {}, 'Without the spaces: ', el('a', { href: fixed, id: 'url-fixed' }, fixed))] : []),
        el(
          'p',
          {},
          `Type a ${token ? 'mint' : 'wallet'} address in the form below, or open `,
          el('a', { href: '/' }, 'the start page'),
          '.',
        ),
      ),
    { focus: false },
  )
  setStatus(`This link holds no ${token ? 'token' : 'wallet'} address: nothing was asked or paid.`, 'error')
  return true
}

/** The token page's first card: the token (its address, its grade once asked) and every answer one click away. */
function tokenView(id: string): void {
  const share = el('a', { href: `/t/${id}` }, `${location.origin}/t/${id}`)
  const view = (slug: string) => ({ 'data-view': slug })
  showCard(
    'token-view',
    () =>
      el(
        'section',
        { class: 'card' },
        el(
          'header',
          {},
          el('span', { class: 'badge', id: 'token-grade', title: 'Not graded yet' }, '?'),
          el('div', {}, el('h2', {}, 'This token'), el('code', {}, id)),
        ),
        el(
          'p',
          { class: 'verdict-area' },
          'Not graded yet: the quick scan grades it A (safest) to F, with what decided it. ',
          paidButton('Quick scan', 'POST /scan/quick', scanFromForm, view('quick-scan')),
        ),
        el('p', {}, 'Each answer is paid when pressed. Share this page: ', share),
        el(
          'div',
          { class: 'deeper' },
          ...DEEPER.map((deeper) =>
            paidButton(
              deeper.label,
              deeper.route,
              () => goDeeper(deeper.route, deeper.label, id, deeper.id, deeper.render),
              view(deeper.label.toLowerCase().replaceAll(' ', '-')),
            ),
          ),
          mintActions(hooks, id),
          ...watchControl(watchHooks, id),
        ),
      ),
    { mint: id, focus: false },
  )
}

openFromUrl()
// Back and Forward between tokens (and wallets) scanned in this tab: the page of that URL, its held
// answers drawn again — nothing asked, nothing paid.
window.addEventListener('popstate', () => {
  results.replaceChildren()
  delete results.dataset.mint
  openFromUrl()
})
