import type { Rpc, SolanaRpcApi } from '@solana/kit'
import type { DexScreenerSource } from '../sources/dexscreener.ts'
import type { JupiterSource } from '../sources/jupiter.ts'
import type { LifiSource } from '../sources/lifi.ts'
import type { SolanaSource } from '../sources/solana-rpc.ts'
import { type HistoryDepth, RPC_PROVIDERS } from '../sources/rpc-providers.ts'
import type { ExchangeList } from '../onchain/exchanges.ts'
import type { IssuerRegistry } from '../onchain/issuers.ts'
import type { Tape } from '../sources/tape.ts'
import type { NewsFeedsSource } from '../sources/news.ts'
import type { XSource } from '../sources/x.ts'
import type { ModelClient } from '../sources/llm.ts'
import type { EcosystemAccounts } from '../onchain/ecosystem.ts'
import { CallMeter, UpstreamError } from '../sources/upstream.ts'
import type { FactName, Facts } from './types.ts'

/** The upstream sources a scan reads through; one whose URL is not configured is absent (its facts go missing). */
export interface Sources {
  solana?: SolanaSource
  dexscreener?: DexScreenerSource
  jupiter?: JupiterSource
  /** Bridge quotes (the exit cross-check), not a token fact. */
  lifi?: LifiSource
  /** Reference data, no I/O: the issuer registry (built in, plus ISSUER_REGISTRY). */
  issuers?: IssuerRegistry
  /** Reference data, no I/O: exchange hot wallets (built in, plus EXCHANGE_WALLETS). */
  exchanges?: ExchangeList
  /** The /news routes' sources, not token facts: news feeds, X recent search, the language model. */
  news?: NewsFeedsSource
  x?: XSource
  llm?: ModelClient
  /** Reference data, no I/O: the ecosystem's own social accounts (built in, plus ECOSYSTEM_ACCOUNTS). */
  ecosystem?: EcosystemAccounts
}

/** How a fact is gathered: from the context (its sources and other facts), or it throws. */
export type FactLoader<K extends FactName> = (facts: TokenContext) => Promise<Facts[K]>

/** Why a fact is missing, as logged and tested (the wire lists only the fact names). */
export interface MissingFact {
  name: FactName
  reason: string
}

export interface TokenContextOptions {
  /** Absolute time (ms since epoch) by which every fact must be settled. */
  deadlineAt: number
  loaders: { [K in FactName]: FactLoader<K> }
  /** Records every upstream exchange of the scan (RECORD_DIR). */
  tape?: Tape
}

/**
 * The facts of one scan of one mint. Each fact is loaded at most once, when first asked for, and
 * loaders ask for the facts they need, so everything starts as early as its inputs allow and the
 * deepest chain of dependent calls sets the latency. A fact that fails, has the wrong shape upstream
 * or is still outstanding at the deadline is recorded as missing; asking for it then yields
 * `undefined`, never an exception.
 */
export class TokenContext {
  readonly meter = new CallMeter()
  readonly #rpc: Rpc<SolanaRpcApi> | undefined
  readonly #facts = new Map<FactName, Promise<unknown>>()
  readonly #missing = new Map<FactName, string>()
  readonly #present = new Set<FactName>()
  readonly #deadline: Promise<'deadline'>
  readonly #timer: ReturnType<typeof setTimeout>
  readonly #loaders: TokenContextOptions['loaders']
  readonly #shared = new Map<string, Promise<unknown>>()

  constructor(
    readonly mint: string,
    readonly sources: Sources,
    options: TokenContextOptions,
  ) {
    this.meter.tape = options.tape
    this.#rpc = sources.solana?.rpc(this.meter)
    this.#loaders = options.loaders
    let expire: (value: 'deadline') => void = () => {}
    this.#deadline = new Promise((resolve) => (expire = resolve))
    this.#timer = setTimeout(() => expire('deadline'), Math.max(0, options.deadlineAt - Date.now()))
  }

  /** The Solana RPC client of this scan; throws FactUnavailable when SOLANA_RPC_URL is not configured. */
  get rpc(): Rpc<SolanaRpcApi> {
    if (!this.#rpc) throw new FactUnavailable('SOLANA_RPC_URL is not configured')
    return this.#rpc
  }

  /** How much history the history facts read: sized to the RPC provider's limits (docs/data-layer.md). */
  get historyDepth(): HistoryDepth {
    return (this.sources.solana?.provider ?? RPC_PROVIDERS.unlimited).history
  }

  /** A configured source, or FactUnavailable naming the setting that would configure it. */
  source<K extends 'dexscreener' | 'jupiter'>(name: K): NonNullable<Sources[K]> {
    const found = this.sources[name]
    if (!found)
      throw new FactUnavailable(`${name === 'dexscreener' ? 'DEXSCREENER_URL' : 'JUPITER_URL'} is not configured`)
    return found as NonNullable<Sources[K]>
  }

  /** The fact, or undefined when it is missing (the reason is recorded). */
  fact<K extends FactName>(name: K): Promise<Facts[K] | undefined> {
    let pending = this.#facts.get(name) as Promise<Facts[K] | undefined> | undefined
    if (!pending) {
      pending = this.#load(name)
      this.#facts.set(name, pending)
    }
    return pending
  }

  /** Loads the facts a scanner needs, all at once, and stops the deadline timer. */
  async gather(names: readonly FactName[]): Promise<void> {
    await Promise.all(names.map((name) => this.fact(name)))
  }

  /**
   * An intermediate result several loaders share (e.g. the pool accounts both `pools` and `holders`
   * read), computed once per scan. Its failure is each caller's failure.
   */
  shared<T>(key: string, load: () => Promise<T>): Promise<T> {
    let pending = this.#shared.get(key) as Promise<T> | undefined
    if (!pending) {
      pending = load()
      this.#shared.set(key, pending)
    }
    return pending
  }

  /**
   * `work`, unless the scan's deadline comes first: then it rejects with the deadline's error (what
   * makes a fact missing when its loader is still outstanding; a route's own reads use it too).
   */
  untilDeadline<T>(work: Promise<T>): Promise<T> {
    return Promise.race([
      work,
      this.#deadline.then(() => {
        throw new Error('deadline: still outstanding when the scan had to answer')
      }),
    ])
  }

  missing(): MissingFact[] {
    return [...this.#missing].map(([name, reason]) => ({ name, reason }))
  }

  present(): FactName[] {
    return [...this.#present]
  }

  /**
   * Releases the deadline timer (call when the scan is answered), drops the scan's calls still waiting
   * for a provider's window, and, given a logger, logs the scan's
   * upstream cost: calls per source, dependent round trips, and the facts that went missing and why.
   */
  close(logger?: { info(object: object, message: string): void }): void {
    clearTimeout(this.#timer)
    // Calls still paced behind a provider's window would spend its budget on an answered scan.
    this.meter.close()
    logger?.info(
      {
        mint: this.mint,
        upstream_calls: this.meter.toJSON(),
        round_trips: this.meter.depth(),
        missing: this.missing(),
      },
      'facts gathered',
    )
  }

  async #load<K extends FactName>(name: K): Promise<Facts[K] | undefined> {
    const loader = this.#loaders[name] as FactLoader<K>
    const outcome = await this.untilDeadline(loader(this)).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    )
    if ('error' in outcome) {
      this.#missing.set(name, describe(outcome.error))
      return undefined
    }
    this.#present.add(name)
    return outcome.value
  }
}

function describe(error: unknown): string {
  if (error instanceof UpstreamError) return `${error.source}: ${error.reason}`
  if (error instanceof Error) return error.message
  return String(error)
}

/** A loader's way to say a fact cannot be had (a dependency is missing, or the data is not there). */
export class FactUnavailable extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FactUnavailable'
  }
}

/** The fact, or FactUnavailable naming it when it is missing. */
export async function need<K extends FactName>(facts: TokenContext, name: K): Promise<Facts[K]> {
  const value = await facts.fact(name)
  if (value === undefined) throw new FactUnavailable(`needs ${name}, which is missing`)
  return value
}
