/**
 * The solsentry client: a typed method per route (types from the service's manifests), x402 payment by
 * the official `@x402/fetch` with the caller's own signer, spend controls (a per-call maximum that
 * defaults to the route's published price, a budget per client), backoff on 429, typed errors carrying
 * the error catalogue's codes, and the trade flow as one call.
 *
 *   const solsentry = new Solsentry({ url, wallet: { solana: await solanaKeypairFile('~/.config/solana/id.json') } })
 *   const scan = await solsentry.quickScan('DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263')
 */
import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  type Address,
  createKeyPairSignerFromBytes,
  getAddressEncoder,
  getProgramDerivedAddress,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  type KeyPairSigner,
  partiallySignTransaction,
} from '@solana/kit'
import { x402Client } from '@x402/core/client'
import { createSIWxPayload, encodeSIWxHeader, SOLANA_MAINNET } from '@x402/extensions/sign-in-with-x'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { wrapFetchWithPayment } from '@x402/fetch'
import { ExactSvmScheme } from '@x402/svm/exact/client'
import { type LocalAccount, privateKeyToAccount } from 'viem/accounts'
import type { WatchEvent } from '../plugins/watch/watch-events.ts'
import { type Attestation, checkAttestation } from './attestation.ts'
import { tokenAmount } from './format.ts'
import type {
  DeepDive,
  InputOf,
  MarketIntel,
  OutputOf,
  QuickScan,
  QuickScanBatch,
  RouteKey,
  SignalRadar,
  TradeJob,
  TradeQuote,
  Trending,
  WalletIntel,
} from './routes.ts'

export type * from './routes.ts'
export type { Attestation } from './attestation.ts'
export { CLIENT_ERROR_CODES, type ClientErrorCode } from './errors.ts'

/** One alert of a watch, as its webhook body and its event stream carry it (docs/watch.md, "Events"). */
export type WatchAlert = WatchEvent

/** Where the service listens when nothing says otherwise: the sandbox's `npm start`. */
export const DEFAULT_URL = 'http://127.0.0.1:8402'

/** The caller's own keys; they sign payments and swaps locally and are never sent anywhere. */
export interface Wallet {
  /** Pays on the Solana rail and signs swaps (a kit signer, e.g. from `solanaKeypairFile`). */
  solana?: KeyPairSigner
  /** Pays on the Base rail (a viem account, e.g. from `evmAccount`). */
  evm?: LocalAccount
}

export interface SolsentryOptions {
  /** The service's base URL. Default: `SOLSENTRY_URL`, else http://127.0.0.1:8402. */
  url?: string
  wallet?: Wallet
  /** The Solana RPC the payment signer reads its blockhash from (the sandbox's, or mainnet's). */
  solanaRpcUrl?: string
  /** The most one call may cost, in USD. Default: the route's published price (never more). */
  maxPerCallUsd?: string
  /** The most this client may spend in all, in USD. Default: no budget. */
  budgetUsd?: string
  /** Retries of a 429 answer, waiting its Retry-After (at most 30 s each). Default 3. */
  retries?: number
  /**
   * How long a paid call whose settlement is pending (402 with `settlement.state: "pending"`)
   * keeps presenting the same payment to collect its answer, in ms. @default 120000
   */
  collectTimeoutMs?: number
  /** Check every paid answer's attestation against the published key (default true; docs/attestations.md). */
  verifyAttestations?: boolean
  fetch?: typeof fetch
}

/** The networks a base64 `payment-required` challenge offers, or undefined when there is none (or it does not read). */
function offeredNetworks(header: string | null): string[] | undefined {
  if (!header) return undefined
  try {
    const { accepts } = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as {
      accepts?: { network: string }[]
    }
    return Array.isArray(accepts) ? accepts.map((offer) => offer.network) : undefined
  } catch {
    return undefined
  }
}

/**
 * Why `wallet` cannot pay any of `offered` (a service taking one rail only, a wallet for the other), in
 * words a person can act on; undefined when it has a signer for one of them.
 */
function walletMisses(wallet: Wallet, offered: string[]): string | undefined {
  if (offered.length === 0) return undefined
  const solana = offered.some((network) => network.startsWith('solana:'))
  const evm = offered.some((network) => network.startsWith('eip155:'))
  if ((solana && wallet.solana) || (evm && wallet.evm)) return undefined
  const needed = solana
    ? 'a Solana keypair (wallet.solana; the CLI: --keypair)'
    : 'an EVM key (wallet.evm; the CLI: --evm-key)'
  return `this service takes payment on ${offered.join(', ')} only, which this wallet cannot pay: give it ${needed}`
}

/** The offers of a base64 `payment-required` challenge: network and amount (atomic USDC); [] when it does not read. */
function offersOf(header: string | null): { network: string; amount: string }[] {
  if (!header) return []
  try {
    const { accepts } = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as {
      accepts?: { network: string; amount: string }[]
    }
    return Array.isArray(accepts) ? accepts : []
  } catch {
    return []
  }
}

/** What a paid call needs when the client has no wallet: its price and how to give it one for the rails offered. */
function noWalletMessage(path: string, offers: { network: string; amount: string }[]): string {
  const price = offers[0] ? ` (${tokenAmount(offers[0].amount, 6)} USD)` : ''
  const solana = offers.length === 0 || offers.some((offer) => offer.network.startsWith('solana:'))
  const evm = offers.length === 0 || offers.some((offer) => offer.network.startsWith('eip155:'))
  const ways = [
    solana ? 'a Solana keypair file (wallet.solana; the CLI: --keypair <file> or SOLSENTRY_KEYPAIR)' : undefined,
    evm ? 'an EVM key (wallet.evm; the CLI: --evm-key <hex> or SOLSENTRY_EVM_KEY)' : undefined,
  ].filter(Boolean)
  return `${path} is paid${price} and this client has no wallet to pay it: give it ${ways.join(', or ')}`
}

/** A failure to reach a host at all (refused, no such name, reset, timed out), by its code or words. */
const NETWORK_FAILURE =
  /ConnectionRefused|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|ETIMEDOUT|Unable to connect|getaddrinfo|FailedToOpenSocket|ConnectionClosed|fetch failed|timed out|DNS/i

/** Why a request failed, in a few words: the system's code (ECONNREFUSED, ENOTFOUND…) and its message. */
function failureOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  const text = typeof message === 'string' ? message : String(error)
  return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text
}

/** How long a call waits to collect an answer whose settlement is pending (the service reads the chain every 30 s). */
const COLLECT_TIMEOUT_MS = 120_000
/** Where a paid request carries its payment: v2, then v1. */
const PAYMENT_HEADERS = ['payment-signature', 'x-payment'] as const

/** The payment a request carried: its header, and the amount held for it under the spend controls. */
interface SentPayment {
  name: (typeof PAYMENT_HEADERS)[number]
  value: string
  amount: bigint
}

/** A 402 whose payment was sent for settlement and is being read from the chain (its `settlement.state`). */
function pendingSettlement(body: Record<string, unknown>): boolean {
  return (body.settlement as { state?: unknown } | undefined)?.state === 'pending'
}

/**
 * Why the spend controls refused to pay (a SPEND_LIMIT error's body; amounts in USD, 6 decimals):
 * `per_call` — over the route's published price or `maxPerCallUsd`; `budget` — over what is left of
 * `budgetUsd`; `unpriced` — the route publishes no price.
 */
export interface SpendRefusal {
  limit: 'per_call' | 'budget' | 'unpriced'
  price_usd: string
  cap_usd?: string
  budget_usd?: string
  spent_usd?: string
  budget_left_usd?: string
}

/** A body as JSON, or {} when it is not. */
function parseJson(bytes: Uint8Array): Record<string, unknown> {
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>
  } catch {
    return {}
  }
}

/**
 * An error answer of the service (its catalogue code, docs/errors.md), or one the client raised itself
 * (`CLIENT_ERROR_CODES`: the service unreachable, no wallet, a payment refused or not made).
 */
export class SolsentryError extends Error {
  constructor(
    /**
     * The catalogue's code (`INVALID_ADDRESS`, `RATE_LIMITED`…), or the client's own
     * (`CLIENT_ERROR_CODES`): `SERVICE_UNREACHABLE`, `NO_WALLET`, `SPEND_LIMIT` for a payment our own
     * controls refused, `PAYMENT_FAILED` for one the wallet could not make (its RPC unreachable, no funds).
     */
    readonly code: string,
    message: string,
    /** The HTTP status (0 when no request was answered). */
    readonly status: number,
    /** The whole error body, for its details (`field`, `retry_after_s`, a trade's `rejection`…). */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message)
    this.name = 'SolsentryError'
  }

  /** The route called (`POST /scan/trending`), when the error came from a call: what a tool maps back to its own words. */
  route: string | undefined

  get requestId(): string | undefined {
    return typeof this.body.request_id === 'string' ? this.body.request_id : undefined
  }
}

/** What a paid call settled: the receipt the service returned. */
export interface Receipt {
  success: boolean
  transaction: string
  network: string
  payer?: string
}

/** A Solana keypair file (the CLI's JSON array of 64 bytes); `~` is the home directory. */
export function solanaKeypairFile(path: string): Promise<KeyPairSigner> {
  const bytes = JSON.parse(readFileSync(path.replace(/^~(?=\/)/, homedir()), 'utf8')) as number[]
  return createKeyPairSignerFromBytes(Uint8Array.from(bytes))
}

/** An EVM account from its private key (0x + 64 hex). */
export function evmAccount(privateKey: string): LocalAccount {
  return privateKeyToAccount(privateKey as `0x${string}`)
}

const USDC_DECIMALS = 6
const usdToAtomic = (usd: string) => BigInt(Math.round(Number(usd) * 10 ** USDC_DECIMALS))
/** Atomic USDC as people write dollars: at least cents (0.50, 0.001). */
const dollarsOf = (atomic: bigint) => {
  const exact = tokenAmount(atomic.toString(), USDC_DECIMALS).replaceAll(',', '')
  const [whole, cents = ''] = exact.split('.')
  return `${whole}.${cents.padEnd(2, '0')}`
}
const atomicToUsd = (atomic: bigint) => (Number(atomic) / 10 ** USDC_DECIMALS).toFixed(USDC_DECIMALS)
/** What signing, executing and landing a swap takes, at most: a quote with less left is quoted again. */
const SIGN_AND_LAND_MS = 10_000
/** The same in blocks (Solana's slots are about 400 ms). */
const SIGN_AND_LAND_BLOCKS = 25
/** How many times a trade quotes again before giving up (each needs a quote that expired first). */
const MAX_REQUOTES = 3
/** A job that no longer changes by itself: anything but quoted or executing. */
const isFinal = (status: string) => status !== 'QUOTED' && status !== 'EXECUTING'
type Fetcher = (input: string, init: RequestInit) => Promise<Response>
/** A route's published price (atomic USDC): the most one call can cost, and one unit's for a price per unit. */
interface PublishedPrice {
  amount: bigint
  unit?: bigint
}
/** What one request may cost, beyond its route's published price: so many units of it, or an amount in USD. */
interface RequestCap {
  units?: number
  usd?: string
}

export class Solsentry {
  readonly url: string
  readonly #options: SolsentryOptions
  readonly #fetch: typeof fetch
  #prices: Promise<Map<string, PublishedPrice>> | undefined
  #attestationKey: Promise<string | null> | undefined
  #pairs: Promise<Map<string, { mint: string; symbol: string; decimals: number }>> | undefined
  #spent = 0n
  #reserved = 0n
  /** Receipts of the paid calls, in order. */
  readonly receipts: Receipt[] = []
  /** The verified attestations of the paid answers, in order (docs/attestations.md). */
  readonly attestations: Attestation[] = []

  constructor(options: SolsentryOptions = {}) {
    for (const [name, flag] of [
      ['budgetUsd', '--budget'],
      ['maxPerCallUsd', '--max-usd'],
    ] as const) {
      const value = options[name]
      if (value !== undefined && !/^\d+(\.\d{1,6})?$/.test(value))
        throw new SolsentryError(
          'USAGE',
          `${name} (the CLI: ${flag}) is an amount in USD such as 2.00, at most 6 decimals (got ${JSON.stringify(value)})`,
          0,
        )
    }
    this.url = (options.url ?? process.env.SOLSENTRY_URL ?? DEFAULT_URL).replace(/\/$/, '')
    this.#options = options
    this.#fetch = options.fetch ?? fetch
  }

  /** Whether this client has a wallet to pay with (a Solana signer or an EVM account). */
  get canPay(): boolean {
    return Boolean(this.#options.wallet?.solana || this.#options.wallet?.evm)
  }

  /**
   * A request to the service; a service that cannot be reached at all (refused, no such host) is
   * SERVICE_UNREACHABLE with the URL tried, not the runtime's error.
   */
  async #reach(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    try {
      return await this.#fetch(input, init)
    } catch (error) {
      if ((error as Error | undefined)?.name === 'AbortError') throw error
      throw new SolsentryError(
        'SERVICE_UNREACHABLE',
        `nothing answers at ${this.url} (${failureOf(error)}): is the service running there? Point the client at it with the url option (the CLI: --url <url> or SOLSENTRY_URL)`,
        0,
        { url: this.url },
      )
    }
  }

  /** What this client has paid so far (settled calls only), in USD. */
  get spentUsd(): string {
    return atomicToUsd(this.#spent)
  }

  quickScan(tokenAddress: string): Promise<QuickScan> {
    return this.call('POST /scan/quick', { token_address: tokenAddress })
  }

  /**
   * The quick scan of up to 50 mints in one payment (0.015 USD per distinct mint that is a token), or
   * with `{ wallet_address, max_usd }` of every token the wallet holds up to `max_usd`. It never pays
   * more than this request's price: the distinct mints × the unit, or `max_usd`.
   */
  async quickScanBatch(request: InputOf<'POST /scan/quick/batch'>): Promise<QuickScanBatch> {
    const key = 'POST /scan/quick/batch'
    const cap: RequestCap = request.token_addresses
      ? { units: new Set(request.token_addresses).size }
      : request.max_usd !== undefined
        ? { usd: request.max_usd.toFixed(6) }
        : {}
    try {
      return await this.#call(key, request, { cap })
    } catch (error) {
      if (error instanceof SolsentryError) error.route ??= key
      throw error
    }
  }

  /**
   * Watches a token for `hours` (0.01 USD per hour, paid up front; docs/watch.md): alerts go to
   * `webhook_url` and to the watch's event stream (`watchEvents`). It never pays for more hours than asked.
   */
  async watch(request: InputOf<'POST /watch'>): Promise<OutputOf<'POST /watch'>> {
    const key = 'POST /watch'
    try {
      return await this.#call(key, request, { cap: { units: request.hours } })
    } catch (error) {
      if (error instanceof SolsentryError) error.route ??= key
      throw error
    }
  }

  /** A watch you paid for, its alerts and their delivery (free; signed in with `wallet.solana`). */
  async watchStatus(watchId: string): Promise<OutputOf<'GET /watch/:id'>> {
    const headers = { 'sign-in-with-x': await this.#watchSignIn(`/watch/${encodeURIComponent(watchId)}`) }
    return this.call('GET /watch/:id', { id: watchId }, { headers })
  }

  /** Cancels a watch you paid for: nothing more is detected; not refunded (free; signed in). */
  async cancelWatch(watchId: string): Promise<OutputOf<'DELETE /watch/:id'>> {
    const headers = { 'sign-in-with-x': await this.#watchSignIn(`/watch/${encodeURIComponent(watchId)}`) }
    return this.call('DELETE /watch/:id', { id: watchId }, { headers })
  }

  /**
   * A watch's alerts as they come (its Server-Sent Events stream, signed in), each `{ seq, event }`:
   * those after `afterSeq` first (from the service's store), then live; it reconnects after a drop from
   * the last one seen, and ends when the service ends the stream (the period over, the watch cancelled).
   */
  async *watchEvents(
    watchId: string,
    options: { afterSeq?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<{ seq: number; event: WatchAlert }> {
    const path = `/watch/${encodeURIComponent(watchId)}/events`
    let last = options.afterSeq ?? 0
    for (let drops = 0; ; ) {
      const headers: Record<string, string> = {
        accept: 'text/event-stream',
        'sign-in-with-x': await this.#watchSignIn(path),
        ...(last > 0 ? { 'last-event-id': String(last) } : {}),
      }
      let response: Response
      try {
        response = await this.#fetch(`${this.url}${path}`, { headers, signal: options.signal })
      } catch (error) {
        if (options.signal?.aborted || ++drops > 5) throw error
        await sleep(1_000 * drops)
        continue
      }
      if (!response.ok || !response.body) {
        const body = parseJson(new Uint8Array(await response.arrayBuffer())) as { code?: string; message?: string }
        throw new SolsentryError(
          body?.code ?? 'INTERNAL',
          body?.message ?? `HTTP ${response.status}`,
          response.status,
          body,
        )
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
      let buffer = ''
      let ended = false
      try {
        for (;;) {
          const { value, done } = await reader.read()
          if (done) break
          buffer += value
          for (let cut = buffer.indexOf('\n\n'); cut !== -1; cut = buffer.indexOf('\n\n')) {
            const fields = new Map(
              buffer
                .slice(0, cut)
                .split('\n')
                .filter((line) => !line.startsWith(':') && line.includes(': '))
                .map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)] as const),
            )
            buffer = buffer.slice(cut + 2)
            if (fields.get('event') === 'end') ended = true
            if (fields.get('event') !== 'alert') continue
            last = Number(fields.get('id'))
            drops = 0
            yield { seq: last, event: JSON.parse(fields.get('data')!) as WatchAlert }
          }
        }
      } catch (error) {
        if (options.signal?.aborted) return
        if (++drops > 5) throw error
      } finally {
        reader.releaseLock()
      }
      if (ended || options.signal?.aborted) return
      await sleep(1_000)
    }
  }

  /** A sign-in for a watch's `path` with `wallet.solana`, the wallet that paid for it. */
  #watchSignIn(path: string): Promise<string> {
    const signer = this.#options.wallet?.solana
    if (!signer)
      throw new SolsentryError(
        'NO_WALLET',
        'reading or cancelling a watch needs the Solana wallet that paid for it: wallet.solana (the CLI: --keypair <file> or SOLSENTRY_KEYPAIR)',
        0,
      )
    return this.#signIn(path, signer, 'Sign in to read or cancel a watch this wallet paid for')
  }

  marketIntel(tokenAddress: string): Promise<MarketIntel> {
    return this.call('POST /market/intel', { token_address: tokenAddress })
  }

  deepDive(tokenAddress: string): Promise<DeepDive> {
    return this.call('POST /scan/deep', { token_address: tokenAddress })
  }

  /** Can a holder sell `sizeUsdc` (default 10) of the token back to USDC now (0.01 USD). */
  exitCheck(tokenAddress: string, sizeUsdc?: number): Promise<OutputOf<'POST /exit/check'>> {
    return this.call('POST /exit/check', {
      token_address: tokenAddress,
      ...(sizeUsdc === undefined ? {} : { size_usdc: sizeUsdc }),
    })
  }

  /** The exit check, then a bridge quote of the USDC home to an EVM chain (0.01 USD). */
  exitCrossCheck(request: InputOf<'POST /exit/cross-check'>): Promise<OutputOf<'POST /exit/cross-check'>> {
    return this.call('POST /exit/cross-check', request)
  }

  /** A wallet's trades, record, style and funding from its own history (0.10 USD). */
  walletIntel(walletAddress: string): Promise<WalletIntel> {
    return this.call('POST /wallet/intel', { wallet_address: walletAddress })
  }

  /** Live launchpad coins by stage, with manipulation indicators and grades (0.05 USD). */
  launchRadar(options: InputOf<'POST /launch/radar'> = {}): Promise<OutputOf<'POST /launch/radar'>> {
    return this.call('POST /launch/radar', options)
  }

  /** Bonding curves close to graduating, soonest first (0.06 USD). */
  graduationRadar(options: InputOf<'POST /graduation/radar'> = {}): Promise<OutputOf<'POST /graduation/radar'>> {
    return this.call('POST /graduation/radar', options)
  }

  /** The top near-graduation curves, enriched and scored for momentum (0.40 USD). */
  graduationMomentum(
    options: InputOf<'POST /graduation/momentum'> = {},
  ): Promise<OutputOf<'POST /graduation/momentum'>> {
    return this.call('POST /graduation/momentum', options)
  }

  /** Launchpad coins that wallets with a proven record are buying (0.05 USD). */
  smartMoney(options: InputOf<'POST /scan/smart-money'> = {}): Promise<OutputOf<'POST /scan/smart-money'>> {
    return this.call('POST /scan/smart-money', options)
  }

  /** How the crowd leans on a ticker, a mint or (no symbol) the market, scored without a model (0.01 USD). */
  newsPulse(request: InputOf<'POST /news/pulse'> = {}): Promise<OutputOf<'POST /news/pulse'>> {
    return this.call('POST /news/pulse', request)
  }

  /** A short written brief of what is being said, with the quick scan beside it (0.05 USD). */
  newsBrief(request: InputOf<'POST /news/brief'> = {}): Promise<OutputOf<'POST /news/brief'>> {
    return this.call('POST /news/brief', request)
  }

  /** The pulse by cohort, whether the talk looks coordinated, and a synthesis (0.10 USD). */
  newsPulsePlus(request: InputOf<'POST /news/pulse_plus'> = {}): Promise<OutputOf<'POST /news/pulse_plus'>> {
    return this.call('POST /news/pulse_plus', request)
  }

  /** A full report: takes, synthesis, risks raised, a resolved watch list and the deep dive (0.25 USD). */
  newsReport(request: InputOf<'POST /news/report'> = {}): Promise<OutputOf<'POST /news/report'>> {
    return this.call('POST /news/report', request)
  }

  /**
   * One trade idea from the radars, checked by every scanner, with a plan `quote` accepts (0.60 USD):
   * `quote({ ...suggestion.recommendation.trade_plan.quote_request, user_public_key })`.
   */
  tradeSuggest(request: InputOf<'POST /trade/suggest'> = {}): Promise<OutputOf<'POST /trade/suggest'>> {
    return this.call('POST /trade/suggest', request)
  }

  /** Trending tokens now, each with its quick-scan grade (0.02 USD). */
  trending(options: InputOf<'POST /scan/trending'> = {}): Promise<Trending> {
    return this.call('POST /scan/trending', options)
  }

  /** Tokens where independent bullish signals converge, each graded (0.04 USD). */
  signalRadar(options: InputOf<'POST /signal/radar'> = {}): Promise<SignalRadar> {
    return this.call('POST /signal/radar', options)
  }

  /**
   * A risk-gated quote and its unsigned transaction (free). With a `job_id`, the request signs in with
   * `wallet.solana` (a SIGN-IN-WITH-X header): quoting an existing job again needs proof that its
   * wallet is yours (docs/trade.md "Job ownership"); a new job_id needs none and ignores it.
   */
  async quote(request: InputOf<'POST /trade/quote'>): Promise<TradeQuote> {
    const signer = this.#options.wallet?.solana
    const path = '/trade/quote'
    const headers: Record<string, string> =
      request.job_id && signer ? { 'sign-in-with-x': await this.#signIn(path, signer) } : {}
    return this.call(`POST ${path}`, request, { headers })
  }

  execute(request: InputOf<'POST /trade/execute'>): Promise<OutputOf<'POST /trade/execute'>> {
    return this.call('POST /trade/execute', request)
  }

  status(jobId: string): Promise<TradeJob> {
    return this.call('GET /trade/status/:job_id', { job_id: jobId })
  }

  /** The service's own health: each dependency's state, what its probe found, routes off or failing (free). */
  health(): Promise<OutputOf<'GET /health'>> {
    return this.call('GET /health', {})
  }

  pairs(): Promise<OutputOf<'GET /trade/pairs'>> {
    return this.call('GET /trade/pairs', {})
  }

  currencies(): Promise<OutputOf<'GET /trade/currencies'>> {
    return this.call('GET /trade/currencies', {})
  }

  /**
   * A swap from the wallet's own keys, in one call: quote (the risk gate runs there), sign the
   * transaction locally, execute (its fee is charged only when the swap confirms), then poll the job
   * until it is final. `onUpdate` sees each state. `confirm` sees the quote (its plan and risk gate)
   * before anything is signed: false declines (a `SolsentryError` DECLINED; nothing signed or sent).
   */
  async trade(request: {
    inputMint: string
    outputMint: string
    amountIn: string
    slippageBps?: number
    onUpdate?: (stage: 'quoted' | 'signed' | 'executing' | 'final', detail: unknown) => void
    /** Called again with a new quote when the one confirmed expired meanwhile (`expired`): never sign a stale quote. */
    confirm?: (quote: TradeQuote, context: { expired?: TradeQuote }) => boolean | Promise<boolean>
    pollMs?: number
    timeoutMs?: number
  }): Promise<TradeJob> {
    const signer = this.#options.wallet?.solana
    if (!signer)
      throw new SolsentryError(
        'NO_WALLET',
        'a swap needs a Solana keypair to sign it: wallet.solana (the CLI: --keypair <file> or SOLSENTRY_KEYPAIR)',
        0,
      )
    type Quoted = TradeQuote & { job_id: string; unsigned_transaction_b64: string }
    const terms = {
      input_mint: request.inputMint,
      output_mint: request.outputMint,
      amount_in: request.amountIn,
      user_public_key: signer.address,
      ...(request.slippageBps === undefined ? {} : { slippage_bps: request.slippageBps }),
    }
    let quoted = (await this.quote(terms)) as Quoted
    let expired: TradeQuote | undefined
    // A quote that expired while its plan was read (a person thinking at the question) is quoted again —
    // the same job, signed in as its wallet — and confirmed again: its terms may have moved.
    for (let requotes = 0; ; requotes++) {
      request.onUpdate?.('quoted', quoted)
      if (request.confirm && !(await request.confirm(quoted, expired ? { expired } : {})))
        throw new SolsentryError(
          'DECLINED',
          `the swap was declined: nothing was signed or sent, nothing charged (job ${quoted.job_id} expires by itself)`,
          0,
          { job_id: quoted.job_id },
        )
      if (!(await this.#quoteStale(quoted))) break
      if (requotes === MAX_REQUOTES)
        throw new SolsentryError(
          'QUOTE_EXPIRED',
          `the quote expired ${requotes + 1} times before it could be signed: nothing was signed or sent, nothing charged`,
          0,
          { job_id: quoted.job_id },
        )
      expired = quoted
      quoted = (await this.quote({ ...terms, job_id: quoted.job_id })) as Quoted
    }
    const transaction = getTransactionDecoder().decode(Buffer.from(quoted.unsigned_transaction_b64, 'base64'))
    const signed = getBase64EncodedWireTransaction(await partiallySignTransaction([signer.keyPair], transaction))
    request.onUpdate?.('signed', { job_id: quoted.job_id })
    const executed = await this.execute({ job_id: quoted.job_id, signed_transaction_b64: signed })
    request.onUpdate?.('executing', executed)
    let job: TradeJob
    // The job as it stands (the execute answer carries no fee): read until it is final.
    const deadline = Date.now() + (request.timeoutMs ?? 60_000)
    job = await this.status(quoted.job_id)
    while (!isFinal(job.status) && Date.now() < deadline) {
      await sleep(request.pollMs ?? 1_000)
      job = await this.status(quoted.job_id)
    }
    request.onUpdate?.('final', job)
    return job
  }

  /**
   * What a mint is, for showing amounts: its symbol and decimals — from /trade/pairs (free, read once),
   * else from the chain through the Solana RPC (`solanaRpcUrl` or SOLSENTRY_SOLANA_RPC): the mint's
   * decimals, its symbol from its Token-2022 metadata or its Metaplex metadata account. Either is
   * undefined when nothing tells.
   */
  async token(mint: string): Promise<{ mint: string; symbol?: string; decimals?: number }> {
    this.#pairs ??= this.pairs()
      .then((answer) => new Map(answer.pairs.map((pair) => [pair.mint, pair])))
      .catch(() => new Map())
    const pair = (await this.#pairs).get(mint)
    if (pair) return { mint, symbol: pair.symbol, decimals: pair.decimals }
    return { mint, ...(await this.#mintOnChain(mint)) }
  }

  /**
   * Whether a quote can no longer be signed in time: past its estimated expiry, or (with a Solana RPC)
   * the chain within SIGN_AND_LAND_BLOCKS of its last valid block height. An RPC that does not answer
   * leaves the estimate alone to decide.
   */
  async #quoteStale(quoted: TradeQuote): Promise<boolean> {
    const { expires_at: expiresAt, last_valid_block_height: lastValid } = quoted.quote
    if (expiresAt && Date.parse(expiresAt) - SIGN_AND_LAND_MS < Date.now()) return true
    const rpcUrl = this.#svmConfig()?.rpcUrl
    if (!rpcUrl || lastValid == null) return false
    try {
      const response = await this.#fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'getBlockHeight',
          params: [{ commitment: 'confirmed' }],
        }),
        signal: AbortSignal.timeout(5_000),
      })
      const height = ((await response.json()) as { result?: unknown }).result
      return typeof height === 'number' && height + SIGN_AND_LAND_BLOCKS > lastValid
    } catch {
      return false
    }
  }

  /** A mint's decimals and symbol read from the chain; {} without an RPC or an answer. */
  async #mintOnChain(mint: string): Promise<{ symbol?: string; decimals?: number }> {
    const rpcUrl = this.#svmConfig()?.rpcUrl
    if (!rpcUrl) return {}
    const rpc = async <T>(method: string, params: unknown[]): Promise<T | undefined> => {
      const response = await this.#fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        signal: AbortSignal.timeout(10_000),
      })
      return ((await response.json()) as { result?: T }).result
    }
    try {
      type Parsed = {
        value: {
          data: {
            parsed?: {
              type?: string
              info?: { decimals?: number; extensions?: { extension: string; state?: { symbol?: string } }[] }
            }
          }
        } | null
      }
      const info = (await rpc<Parsed>('getAccountInfo', [mint, { encoding: 'jsonParsed' }]))?.value?.data.parsed
      if (info?.type !== 'mint' || typeof info.info?.decimals !== 'number') return {}
      const decimals = info.info.decimals
      const own = info.info.extensions?.find((entry) => entry.extension === 'tokenMetadata')?.state?.symbol
      const symbol = own?.trim() || (await this.#metaplexSymbol(mint, rpc))
      return symbol ? { decimals, symbol } : { decimals }
    } catch {
      return {}
    }
  }

  /**
   * The symbol in a mint's Metaplex metadata account (`["metadata", program, mint]`): after its key (1
   * byte), update authority and mint (32 each), the name and the symbol as Borsh strings (u32 length,
   * bytes, padded with NULs). Layout: metaplex-foundation/mpl-token-metadata, state/metadata.rs.
   */
  async #metaplexSymbol(
    mint: string,
    rpc: <T>(method: string, params: unknown[]) => Promise<T | undefined>,
  ): Promise<string | undefined> {
    const program = 'metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s' as Address
    const address = getAddressEncoder()
    const [pda] = await getProgramDerivedAddress({
      programAddress: program,
      seeds: ['metadata', address.encode(program), address.encode(mint as Address)],
    })
    const account = await rpc<{ value: { data: [string, string] } | null }>('getAccountInfo', [
      pda,
      { encoding: 'base64' },
    ])
    if (!account?.value) return undefined
    const bytes = Buffer.from(account.value.data[0], 'base64')
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    let offset = 65
    const string = () => {
      const length = view.getUint32(offset, true)
      const text = bytes.subarray(offset + 4, offset + 4 + length).toString('utf8')
      offset += 4 + length
      return text.replace(/\0+$/, '').trim()
    }
    string() // the name
    return string() || undefined
  }

  /** Any route by its `METHOD path` key, typed from the manifests: paid routes are paid as needed. */
  async call<K extends RouteKey>(
    key: K,
    input: InputOf<K>,
    options: { onReceipt?: (receipt: Receipt) => void; headers?: Record<string, string> } = {},
  ): Promise<OutputOf<K>> {
    try {
      return await this.#call(key, input, options)
    } catch (error) {
      if (error instanceof SolsentryError) error.route ??= key
      throw error
    }
  }

  async #call<K extends RouteKey>(
    key: K,
    input: InputOf<K>,
    options: { onReceipt?: (receipt: Receipt) => void; headers?: Record<string, string>; cap?: RequestCap },
  ): Promise<OutputOf<K>> {
    const [method, pattern] = key.split(' ') as [string, string]
    const args = input as Record<string, unknown>
    const path = pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(args[name] ?? '')))
    const init: RequestInit = { method, headers: { accept: 'application/json', ...options.headers } }
    if (method === 'POST') {
      init.headers = { ...init.headers, 'content-type': 'application/json' }
      init.body = JSON.stringify(input)
    }
    const paying = await this.#payingFetch(path, options.cap)
    for (let attempt = 0; ; attempt++) {
      const response = await paying.fetch(`${this.url}${path}`, init)
      const receipt = paying.done(response)
      if (receipt) options.onReceipt?.(receipt)
      const bytes = new Uint8Array(await response.arrayBuffer())
      const body = parseJson(bytes)
      if (response.ok) {
        await this.#verifyAttestation(key, String(init.body ?? ''), bytes, response)
        return body as OutputOf<K>
      }
      const retryAfter = Number(response.headers.get('retry-after'))
      const wallet = this.#options.wallet
      if (response.status === 402 && !wallet?.solana && !wallet?.evm && !pendingSettlement(body))
        throw new SolsentryError(
          'NO_WALLET',
          noWalletMessage(path, offersOf(response.headers.get('payment-required'))),
          402,
          body,
        )
      const sent = paying.sent()
      if (response.status === 402 && sent && pendingSettlement(body)) {
        // Paid, and its settlement is being read from the chain: the same payment with the same request
        // collects the answer once it shows there (docs/payments.md) — never a new payment.
        const collected = await this.#collect(path, init, sent, retryAfter)
        if (collected?.response.ok) {
          const settled = paying.done(collected.response, sent)
          if (settled) options.onReceipt?.(settled)
          await this.#verifyAttestation(key, String(init.body ?? ''), collected.bytes, collected.response)
          return collected.body as OutputOf<K>
        }
        // Still pending when the wait ran out, or refused now (it can never settle): that answer is the error.
        const final = collected ?? { response, body }
        throw new SolsentryError(
          String(final.body.code ?? `HTTP_${final.response.status}`),
          String(final.body.message ?? final.response.statusText),
          final.response.status,
          final.body,
        )
      }
      if (response.status === 429 && attempt < (this.#options.retries ?? 3)) {
        await sleep(Math.min(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 1, 30) * 1_000)
        continue
      }
      throw new SolsentryError(
        String(body.code ?? `HTTP_${response.status}`),
        String(body.message ?? response.statusText),
        response.status,
        body,
      )
    }
  }

  /**
   * A fetch that pays a 402 with the wallet, under the spend controls: the offer may not exceed the
   * route's published price (or `maxPerCallUsd`, when lower), nor what is left of the budget. The
   * amount is held while the call runs and counted as spent only when a receipt comes back.
   */
  async #payingFetch(
    path: string,
    cap?: RequestCap,
  ): Promise<{
    fetch: Fetcher
    /** The answer's receipt, counted against the budget; `collected`: the payment a withheld answer was collected with. */
    done(response: Response, collected?: SentPayment): Receipt | undefined
    /** The payment header the last request carried, and the amount it was held for. */
    sent(): SentPayment | undefined
  }> {
    const { wallet } = this.#options
    if (!wallet?.solana && !wallet?.evm)
      return { fetch: (input, init) => this.#reach(input, init), done: () => undefined, sent: () => undefined }
    const client = new x402Client()
    if (wallet.solana) client.register('solana:*', new ExactSvmScheme(wallet.solana, this.#svmConfig()))
    if (wallet.evm) client.register('eip155:*', new ExactEvmScheme(wallet.evm))
    // Our own caps below replace the client's default (1 USD on the assets it knows).
    client.setSpendControls({ maxAmountPerPayment: false, allowedAssets: true })
    let held = 0n
    // Why our own controls refused to pay, when they did: a payment that could not be made is another failure.
    let refused: { reason: string; details: SpendRefusal } | undefined
    client.onBeforePaymentCreation(async ({ selectedRequirements }) => {
      const verdict = await this.#spendVerdict(path, BigInt(selectedRequirements.amount), cap)
      if (verdict.abort) {
        refused = verdict
        return { abort: true, reason: verdict.reason }
      }
      held = verdict.amount
      this.#reserved += verdict.amount
    })
    let sent: SentPayment | undefined
    // The payment each request carries, kept so a withheld answer can be collected with it.
    // The networks the last challenge offered: a service may take payment on one rail only.
    let offered: string[] = []
    const recording = async (input: string | URL | Request, init?: RequestInit) => {
      const headers = input instanceof Request ? input.headers : new Headers(init?.headers)
      const name = PAYMENT_HEADERS.find((header) => headers.has(header))
      if (name) sent = { name, value: headers.get(name)!, amount: held }
      const response = await this.#reach(input, init)
      offered = offeredNetworks(response.headers.get('payment-required')) ?? offered
      return response
    }
    const paying = wrapFetchWithPayment(recording as typeof fetch, client)
    return {
      sent: () => sent,
      fetch: async (input: string, init: RequestInit) => {
        try {
          return await paying(input, init)
        } catch (error) {
          this.#reserved -= held
          held = 0n
          // The service itself did not answer: that is the error, whatever the payment's state.
          if (error instanceof SolsentryError) throw error
          if (refused !== undefined) throw new SolsentryError('SPEND_LIMIT', refused.reason, 0, { ...refused.details })
          throw new SolsentryError('PAYMENT_FAILED', this.#paymentFailure(wallet, offered, error), 0)
        }
      },
      done: (response, collected) => {
        if (collected) held = collected.amount
        else this.#reserved -= held
        const header = response.headers.get('payment-response')
        const receipt = header ? (JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as Receipt) : undefined
        if (receipt) {
          this.receipts.push(receipt)
          if (receipt.success) this.#spent += held
        }
        held = 0n
        return receipt
      },
    }
  }

  /**
   * Presents `sent` — a payment whose settlement is being read from the chain — again with the same
   * request, every Retry-After seconds, until the answer comes (it settled: owed, answered once, no new
   * payment) or the service says otherwise (it never can), within `collectTimeoutMs`. The last answer
   * other than "still pending", or undefined when the wait ran out.
   */
  async #collect(
    path: string,
    init: RequestInit,
    sent: SentPayment,
    retryAfterS: number,
  ): Promise<{ response: Response; bytes: Uint8Array; body: Record<string, unknown> } | undefined> {
    const until = Date.now() + (this.#options.collectTimeoutMs ?? COLLECT_TIMEOUT_MS)
    let waitS = retryAfterS
    for (;;) {
      const pauseMs = Math.min(Number.isFinite(waitS) && waitS > 0 ? waitS : 15, 30) * 1_000
      if (Date.now() + pauseMs > until) return undefined
      await sleep(pauseMs)
      const response = await this.#reach(`${this.url}${path}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), [sent.name]: sent.value },
      })
      const bytes = new Uint8Array(await response.arrayBuffer())
      const body = parseJson(bytes)
      if (response.status !== 402 || !pendingSettlement(body)) return { response, bytes, body }
      waitS = Number(response.headers.get('retry-after'))
    }
  }

  /**
   * A `SIGN-IN-WITH-X` header (CAIP-122, the x402 sign-in-with-x extension) signed by `signer` for this
   * service's `path`, issued now: the service checks its domain, its uri and its age. The chain named
   * is Solana's mainnet whatever the service's network: the service binds a sign-in to its own URL, and
   * the signature proves the key.
   */
  async #signIn(
    path: string,
    signer: KeyPairSigner,
    statement = 'Sign in to quote again a trade job of this wallet',
  ): Promise<string> {
    const url = `${this.url}${path}`
    const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')
    const info = {
      domain: new URL(url).host,
      uri: url,
      statement,
      version: '1',
      nonce,
      issuedAt: new Date().toISOString(),
      resources: [url],
      chainId: SOLANA_MAINNET,
      type: 'ed25519' as const,
    }
    // A @solana/kit KeyPairSigner is the extension's SolanaKitSigner (its types are looser than kit's).
    return encodeSIWxHeader(await createSIWxPayload(info, signer as never, url))
  }

  /**
   * Whether our caps let this call pay `amount` (atomic USDC): its published price (for a price per unit,
   * the most one call can cost, lowered to this request's units or its own cap when it names them),
   * --max-usd, the budget.
   */
  async #spendVerdict(
    path: string,
    amount: bigint,
    request?: RequestCap,
  ): Promise<{ abort: true; reason: string; details: SpendRefusal } | { abort: false; amount: bigint }> {
    const price = (await this.#publishedPrices()).get(path)
    let published = price?.amount
    if (published !== undefined && price?.unit !== undefined && request?.units !== undefined)
      published = [published, price.unit * BigInt(request.units)].reduce((a, b) => (a < b ? a : b))
    if (published !== undefined && request?.usd !== undefined)
      published = [published, usdToAtomic(request.usd)].reduce((a, b) => (a < b ? a : b))
    const price_usd = atomicToUsd(amount)
    if (published === undefined)
      return {
        abort: true,
        reason: `${path} publishes no price: not paying`,
        details: { limit: 'unpriced', price_usd },
      }
    const cap = this.#options.maxPerCallUsd
      ? [published, usdToAtomic(this.#options.maxPerCallUsd)].reduce((a, b) => (a < b ? a : b))
      : published
    if (amount > cap)
      return {
        abort: true,
        reason: `${path} asks ${dollarsOf(amount)} USD, over this call's cap of ${dollarsOf(cap)} USD`,
        details: { limit: 'per_call', price_usd, cap_usd: atomicToUsd(cap) },
      }
    const budget = this.#options.budgetUsd ? usdToAtomic(this.#options.budgetUsd) : undefined
    if (budget !== undefined && this.#spent + this.#reserved + amount > budget)
      return {
        abort: true,
        reason: `${path} costs ${dollarsOf(amount)} USD, which would exceed the budget of ${dollarsOf(usdToAtomic(this.#options.budgetUsd ?? '0'))} USD (${dollarsOf(this.#spent)} USD spent)`,
        details: {
          limit: 'budget',
          price_usd,
          budget_usd: atomicToUsd(budget),
          spent_usd: atomicToUsd(this.#spent),
          budget_left_usd: atomicToUsd(
            budget > this.#spent + this.#reserved ? budget - this.#spent - this.#reserved : 0n,
          ),
        },
      }
    return { abort: false as const, amount }
  }

  /**
   * Why the wallet could not pay, in words a person can act on: no signer for the rails offered, the
   * Solana RPC unset (the signer tried a public one) or not answering, else the wallet's own reason.
   */
  #paymentFailure(wallet: Wallet, offered: string[], error: unknown): string {
    const unpayable = walletMisses(wallet, offered)
    if (unpayable) return unpayable
    const reason = failureOf(error).replace(/^Failed to create payment payload: /, '')
    const solana = offered.find((network) => network.startsWith('solana:'))
    if (wallet.solana && solana && NETWORK_FAILURE.test(reason)) {
      const rpcUrl = this.#svmConfig()?.rpcUrl
      return rpcUrl
        ? `the payment could not be made: the Solana RPC ${rpcUrl} did not answer (${reason}): check it, or set another with solanaRpcUrl (the CLI: --solana-rpc <url> or SOLSENTRY_SOLANA_RPC)`
        : `the payment could not be made: no Solana RPC is set, so the payment signer tried the public one for ${solana}, which did not answer (${reason}): set solanaRpcUrl (the CLI: --solana-rpc <url> or SOLSENTRY_SOLANA_RPC; on the sandbox, the Solana RPC its banner prints)`
    }
    return `the payment could not be made: ${reason}`
  }

  #svmConfig(): { rpcUrl: string } | undefined {
    const rpcUrl = this.#options.solanaRpcUrl ?? process.env.SOLSENTRY_SOLANA_RPC
    return rpcUrl ? { rpcUrl } : undefined
  }

  /**
   * A paid answer's attestation checked against the key the service publishes (/.well-known/x402):
   * kept in `attestations` when it holds; an answer whose attestation does not hold is refused
   * (ATTESTATION_INVALID). An answer without one (a free route, an older service) passes as it is.
   */
  async #verifyAttestation(route: string, requestBody: string, responseBody: Uint8Array, response: Response) {
    const header = response.headers.get('x-attestation')
    if (!header || this.#options.verifyAttestations === false) return
    this.#attestationKey ??= this.#fetch(`${this.url}/.well-known/x402`)
      .then((answer) => answer.json() as Promise<{ attestation?: { public_key?: string } }>)
      .then((manifest) => manifest.attestation?.public_key ?? null)
      .catch(() => null)
    const key = await this.#attestationKey
    const checked = key
      ? checkAttestation(header, key, { route, requestBody, responseBody, status: response.status })
      : ({ ok: false, reason: 'the service publishes no attestation key' } as const)
    if (!checked.ok)
      throw new SolsentryError(
        'ATTESTATION_INVALID',
        `the answer's attestation does not hold: ${checked.reason}`,
        response.status,
      )
    this.attestations.push(checked.attestation)
  }

  /**
   * The published price of each paid route's path (atomic USDC), read once from /openapi.json: the most
   * one call can cost (`amount`), and for a price per unit one unit's (`per_unit.amount`, USD).
   */
  #publishedPrices(): Promise<Map<string, PublishedPrice>> {
    this.#prices ??= (async () => {
      const response = await this.#reach(`${this.url}/openapi.json`)
      const document = (await response.json()) as {
        paths: Record<string, Record<string, { 'x-payment-info'?: { amount: string; per_unit?: { amount: string } } }>>
      }
      const prices = new Map<string, PublishedPrice>()
      for (const [path, operations] of Object.entries(document.paths))
        for (const operation of Object.values(operations)) {
          const info = operation['x-payment-info']
          if (info)
            prices.set(path, {
              amount: BigInt(info.amount),
              ...(info.per_unit ? { unit: usdToAtomic(info.per_unit.amount) } : {}),
            })
        }
      return prices
    })()
    // A service that did not answer this time is asked again by the next call.
    const asked = this.#prices
    asked.catch(() => {
      if (this.#prices === asked) this.#prices = undefined
    })
    return asked
  }
}
