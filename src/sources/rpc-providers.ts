/**
 * What a Solana RPC provider allows: how many calls per window (in all, and per method), how many calls
 * one JSON-RPC batch may carry, and which methods it is documented to refuse. The source paces its
 * calls to stay inside these limits, so a burst of scans never trips the provider (docs/data-layer.md).
 */
export interface RpcProviderLimits {
  /** The window the limits count over. */
  windowMs: number
  /** Calls per window in all (each call of a batch counts). */
  callsPerWindow: number
  /** Calls per window of any one method. */
  callsPerMethodPerWindow: number
  /** Calls one JSON-RPC batch may carry. */
  maxBatch: number
}

/**
 * How much history a deep dive reads on a provider: the getTransaction fan-out of the history facts,
 * sized so one deep dive's history fits its deadline inside the provider's limits (a test checks it,
 * docs/data-layer.md lists the figures). Shallower reads are honest, not silent: the facts say when a
 * window is incomplete (a busy pool's 24 h, a developer with more history than read).
 */
export interface HistoryDepth {
  /** The main pool's oldest transactions read for the first trades. */
  firstTransactions: number
  /** The main pool's newest transactions read for recent trades. */
  recentTransactions: number
  /** The developer wallet's newest transactions read. */
  developerTransactions: number
  /** Largest holders, and first buyers, whose funding is traced (each: one signatures page, one transaction). */
  tracedWallets: number
  /** A wallet's newest transactions read by POST /wallet/intel. */
  walletTransactions: number
  /** Tokens a wallet bought whose launch it reads, for the sniper rule (each: the launch fact's history). */
  walletLaunches: number
}

export interface RpcProvider {
  name: RpcProviderName
  /** What the operator sees in /health and the start-up line. */
  label: string
  limits: RpcProviderLimits
  /** Methods the provider is documented to refuse (answering -32010 for the key). */
  refuses: readonly string[]
  history: HistoryDepth
  /** Where the limits are published. */
  source: string
}

export const RPC_PROVIDER_NAMES = ['public', 'keyed', 'unlimited'] as const
export type RpcProviderName = (typeof RPC_PROVIDER_NAMES)[number]

export const RPC_PROVIDERS: Record<RpcProviderName, RpcProvider> = {
  // Solana's public mainnet endpoint: 100 requests per 10 s per IP, 40 per 10 s per IP for a single RPC
  // method; the secondary-index methods answer -32010 ("… excluded from account secondary indexes").
  public: {
    name: 'public',
    label: 'Solana public endpoint (api.mainnet-beta.solana.com)',
    limits: { windowMs: 10_000, callsPerWindow: 100, callsPerMethodPerWindow: 40, maxBatch: 20 },
    refuses: ['getTokenLargestAccounts', 'getProgramAccounts'],
    // 40 getTransaction per 10 s: 76 reads fit two windows, so one deep dive's history lands in ~20 s.
    history: {
      firstTransactions: 20,
      recentTransactions: 25,
      developerTransactions: 20,
      tracedWallets: 5,
      walletTransactions: 15,
      walletLaunches: 1,
    },
    source: 'https://solana.com/docs/references/clusters (Mainnet beta rate limits)',
  },
  // A keyed provider (Helius, Triton, QuickNode…): plans differ, so this is the lowest keyed tier
  // published, Helius's Free plan: 10 calls per second, every method served; batches of 10 are our own
  // conservative choice. An operator whose plan allows more sets SOLANA_RPC_PROVIDER=unlimited.
  keyed: {
    name: 'keyed',
    label: 'keyed provider (SOLANA_RPC_URL with its key)',
    limits: { windowMs: 1_000, callsPerWindow: 10, callsPerMethodPerWindow: 10, maxBatch: 10 },
    refuses: [],
    // 10 calls per second in all: ~150 history reads plus the rest of the scan land in ~18 s.
    history: {
      firstTransactions: 30,
      recentTransactions: 50,
      developerTransactions: 50,
      tracedWallets: 8,
      walletTransactions: 80,
      walletLaunches: 1,
    },
    source:
      "Helius's Free plan, the lowest keyed tier (helius.dev/docs/billing/rate-limits: 10 RPC requests/s); plans differ",
  },
  // A dedicated node or a local validator: no pacing, batches of 20.
  unlimited: {
    name: 'unlimited',
    label: 'dedicated node (no provider limits)',
    limits: {
      windowMs: 1_000,
      callsPerWindow: Number.POSITIVE_INFINITY,
      callsPerMethodPerWindow: Number.POSITIVE_INFINITY,
      maxBatch: 20,
    },
    refuses: [],
    history: {
      firstTransactions: 60,
      recentTransactions: 200,
      developerTransactions: 200,
      tracedWallets: 10,
      walletTransactions: 300,
      walletLaunches: 5,
    },
    source: 'none: the operator runs the node',
  },
}

/**
 * The provider of an RPC URL when SOLANA_RPC_PROVIDER does not name one: Solana's public hosts are
 * `public`, a URL carrying a key (a query parameter or a path segment a provider issues) is `keyed`,
 * loopback and private hosts are `unlimited`, anything else `public` (the safe guess: paced slowly).
 */
export function providerOf(url: string, named?: RpcProviderName): RpcProvider {
  if (named) return RPC_PROVIDERS[named]
  const { hostname, search, pathname } = new URL(url)
  if (/(^|\.)solana\.com$/.test(hostname)) return RPC_PROVIDERS.public
  if (hostname === 'localhost' || /^(127\.|10\.|192\.168\.|\[?::1\]?$)/.test(hostname)) return RPC_PROVIDERS.unlimited
  if (/[?&](api[-_]?key|token)=/i.test(search) || /\/[A-Za-z0-9_-]{24,}\/?$/.test(pathname)) return RPC_PROVIDERS.keyed
  return RPC_PROVIDERS.public
}

/**
 * Paces calls inside a provider's limits: a sliding window of the calls sent, in all and per method.
 * `take` answers how many of the queued calls may go now; `waitMs` how long until the next one may.
 */
export class CallPacer {
  readonly #limits: RpcProviderLimits
  /** Send times (ms) of the calls in the current window, oldest first, in all and per method. */
  readonly #all: number[] = []
  readonly #byMethod = new Map<string, number[]>()

  constructor(limits: RpcProviderLimits) {
    this.#limits = limits
  }

  /** Whether a call of `method` may be sent at `now`; if so, it is counted as sent. */
  tryTake(method: string, now: number): boolean {
    const { callsPerWindow, callsPerMethodPerWindow } = this.#limits
    if (!Number.isFinite(callsPerWindow) && !Number.isFinite(callsPerMethodPerWindow)) return true
    this.#expire(now)
    const perMethod = this.#byMethod.get(method) ?? []
    if (this.#all.length >= callsPerWindow || perMethod.length >= callsPerMethodPerWindow) return false
    this.#all.push(now)
    perMethod.push(now)
    this.#byMethod.set(method, perMethod)
    return true
  }

  /**
   * Whether all of `methods` (one batch) fit in the window together; if so they are all counted, else
   * none is (a provider refuses a batch over its limit whole).
   */
  tryTakeAll(methods: readonly string[], now: number): boolean {
    const { callsPerWindow, callsPerMethodPerWindow } = this.#limits
    this.#expire(now)
    if (this.#all.length + methods.length > callsPerWindow) return false
    const wanted = new Map<string, number>()
    for (const method of methods) wanted.set(method, (wanted.get(method) ?? 0) + 1)
    for (const [method, count] of wanted)
      if ((this.#byMethod.get(method)?.length ?? 0) + count > callsPerMethodPerWindow) return false
    for (const method of methods) this.tryTake(method, now)
    return true
  }

  /** How long until a call of `method` may be sent (0 when it may now). */
  waitMs(method: string, now: number): number {
    const { windowMs, callsPerWindow, callsPerMethodPerWindow } = this.#limits
    this.#expire(now)
    const perMethod = this.#byMethod.get(method) ?? []
    let wait = 0
    if (this.#all.length >= callsPerWindow) wait = Math.max(wait, this.#all[0]! + windowMs - now)
    if (perMethod.length >= callsPerMethodPerWindow) wait = Math.max(wait, perMethod[0]! + windowMs - now)
    return Math.max(0, wait)
  }

  /** How long until no call counts in the window any more (0 when none does). */
  drainedInMs(now: number): number {
    this.#expire(now)
    const newest = this.#all.at(-1)
    return newest === undefined ? 0 : Math.max(0, newest + this.#limits.windowMs - now + 1)
  }

  #expire(now: number): void {
    const since = now - this.#limits.windowMs
    while (this.#all.length > 0 && this.#all[0]! <= since) this.#all.shift()
    for (const [method, times] of this.#byMethod) {
      while (times.length > 0 && times[0]! <= since) times.shift()
      if (times.length === 0) this.#byMethod.delete(method)
    }
  }
}
