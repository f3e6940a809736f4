import {
  createRpc,
  createSolanaRpcApi,
  DEFAULT_RPC_CONFIG,
  type Rpc,
  type RpcApi,
  type RpcTransport,
  type SolanaRpcApi,
} from '@solana/kit'
import { parseJsonWithBigInts, stringifyJsonWithBigInts } from '@solana/rpc-spec-types'
import { Value } from '@sinclair/typebox/value'
import type { SharedCache } from '../store/shared-cache.ts'
import { RPC_RESULT_SCHEMAS, RpcErrorSchema } from './solana-answers.ts'
import { CallPacer, type RpcProvider, RPC_PROVIDERS } from './rpc-providers.ts'
import { CallMeter, Memo, statusFailure, Upstream, UpstreamError, type UpstreamOptions } from './upstream.ts'

/**
 * How long an answer may be reused, per read method. Finalized transactions never change; account
 * state is reused for a few seconds, which is what lets concurrent scans of one mint share calls.
 * Methods absent here (sendTransaction, ...) are never cached or coalesced.
 */
const CACHE_TTL_MS: Record<string, number> = {
  getAccountInfo: 5_000,
  getMultipleAccounts: 5_000,
  getTokenLargestAccounts: 10_000,
  getTokenSupply: 10_000,
  getBalance: 10_000,
  getSignaturesForAddress: 10_000,
  getTransaction: 24 * 60 * 60 * 1000,
  getProgramAccounts: 10_000,
}

/**
 * The history reads: the heaviest calls, which a deep dive fans out by the dozen. They run behind a
 * breaker of their own, so a provider struggling with them does not fail the account reads every
 * quick scan needs; each batch carries one class only.
 */
const HISTORY_METHODS: ReadonlySet<string> = new Set(['getSignaturesForAddress', 'getTransaction'])
const breakerOf = (method: string) => (HISTORY_METHODS.has(method) ? 'history' : 'default')

/** Added to the provider's window when pacing: the time a request may take to reach it. */
export const PACING_MARGIN_MS = 250

/** A pacer for a provider's limits, its window widened by the margin. */
export function pacerFor(provider: RpcProvider): CallPacer {
  return new CallPacer({ ...provider.limits, windowMs: provider.limits.windowMs + PACING_MARGIN_MS })
}

interface JsonRpcPayload {
  jsonrpc: '2.0'
  id: unknown
  method: string
  params: unknown
}

interface Queued {
  payload: JsonRpcPayload
  /** The cache key of a coalesced read: later askers of the same call join its meters. */
  key: string | undefined
  /** The scans waiting on the call: it is dropped unsent once all of them have answered. */
  meters: Set<CallMeter>
  resolve(response: unknown): void
  reject(error: unknown): void
}

export interface SolanaSourceOptions extends Partial<UpstreamOptions> {
  url: string
  /** A cache shared with other instances (Redis), behind the in-process one. */
  cache?: SharedCache
  /** The provider's limits, which calls are paced to (default: none, a dedicated node). */
  provider?: RpcProvider
  /** Extra headers on every request (a provider's key header). */
  headers?: Record<string, string>
  /** A pacer shared with other sources on the same provider account (benches, tests); default: its own. */
  pacer?: CallPacer
}

/**
 * The Solana JSON-RPC source, used through the stock @solana/kit client. Its transport coalesces and
 * caches each call by (method, params), and sends the calls made by all scans in the same tick as one
 * JSON-RPC batch: one upstream HTTP request, counted once in the meter of every scan that had a call in it.
 * Calls are paced to the provider's limits (in all and per method, batches capped): a call over a limit
 * waits in the queue for the window to move rather than being refused by the provider.
 */
export class SolanaSource {
  readonly upstream: Upstream
  readonly #url: string
  readonly provider: RpcProvider
  readonly #memo: Memo
  readonly #pacer: CallPacer
  readonly #headers: Record<string, string>
  #queue: Queued[] = []
  #flushScheduled = false
  /** Methods the provider answered -32010 (key excluded from its secondary indexes), learned from its answers. */
  readonly #refused = new Set<string>()
  #latestSlot: number | null = null
  #paceTimer: ReturnType<typeof setTimeout> | undefined

  constructor(options: SolanaSourceOptions) {
    this.#url = options.url
    this.provider = options.provider ?? RPC_PROVIDERS.unlimited
    // The provider counts a call when it arrives, after we count it: a margin keeps the windows apart.
    this.#pacer = options.pacer ?? pacerFor(this.provider)
    this.#headers = { ...options.headers, 'content-type': 'application/json' }
    this.#memo = new Memo(undefined, options.cache)
    this.upstream = new Upstream({ ...options, name: options.name ?? 'solana_rpc' })
  }

  /**
   * Whether the provider refuses `method` for lack of a secondary index (it answered -32010 for it):
   * facts then take their fallback without spending a call of the rate budget on a known refusal.
   */
  refuses(method: string): boolean {
    return this.#refused.has(method)
  }

  /**
   * The newest slot any answer of this RPC has carried (`context.slot`, or `getSlot`'s result): the
   * chain's state the service has read up to. Null before the first such answer.
   */
  get latestSlot(): number | null {
    return this.#latestSlot
  }

  #sawSlot(answer: { result?: unknown }, method: string): void {
    const result = answer.result as { context?: { slot?: unknown } } | bigint | number | undefined
    const slot =
      method === 'getSlot' && (typeof result === 'bigint' || typeof result === 'number')
        ? result
        : typeof result === 'object' && result !== null
          ? result.context?.slot
          : undefined
    if (typeof slot !== 'bigint' && typeof slot !== 'number') return
    const value = Number(slot)
    if (this.#latestSlot === null || value > this.#latestSlot) this.#latestSlot = value
  }

  /** The methods found refused so far. */
  get refused(): string[] {
    return [...this.#refused].sort()
  }

  /**
   * Asks the provider once, at start-up, for the largest accounts of `mint` (a mint every mainnet
   * node knows), to learn whether it serves the method; its answer is not kept. Never throws.
   */
  async probe(mint: string): Promise<'served' | 'refused' | 'unknown'> {
    try {
      const answer = (await this.#enqueue(
        { jsonrpc: '2.0', id: 0, method: 'getTokenLargestAccounts', params: [mint] },
        new CallMeter(),
        undefined,
      )) as { error?: unknown }
      return isKeyExcluded(answer) ? 'refused' : 'served'
    } catch {
      return 'unknown'
    }
  }

  /**
   * One JSON-RPC call sent as is, never cached and paced like every other: what the health probe and
   * `solsentry doctor` ask. The provider's answer, its `error` included; throws an UpstreamError when
   * none came.
   */
  async ask(method: string, params: unknown[] = []): Promise<RpcAnswer> {
    return (await this.#enqueue({ jsonrpc: '2.0', id: 0, method, params }, new CallMeter(), undefined)) as RpcAnswer
  }

  /** Calls waiting for the provider's window to move (paced, not yet sent). */
  get waiting(): number {
    return this.#queue.length
  }

  /** A kit RPC client whose calls count into `meter`. */
  rpc(meter: CallMeter): Rpc<SolanaRpcApi> {
    const transport = <T>(config: { payload: unknown }): Promise<T> =>
      this.#call(config.payload as JsonRpcPayload, meter) as Promise<T>
    return createRpc({ api: this.#api, transport: transport as RpcTransport }) as Rpc<SolanaRpcApi>
  }

  /** kit's Solana API, each cached answer typed once (sharedAnswersApi). */
  readonly #api = sharedAnswersApi()

  #call(payload: JsonRpcPayload, meter: CallMeter): Promise<unknown> {
    if (!meter.tape) return this.#answer(payload, meter)
    // Recording (RECORD_DIR): the scan's tape keeps every answer it read, sent or from the cache.
    const tape = meter.tape
    const started = performance.now()
    const request = { method: payload.method, params: payload.params }
    const ms = () => Math.round(performance.now() - started)
    return this.#answer(payload, meter).then(
      (answer) => {
        const { id: _id, ...kept } = answer as { id: unknown }
        tape.add({ source: 'solana_rpc', request, answer: kept, ms: ms() })
        return answer
      },
      (error: unknown) => {
        tape.add({ source: 'solana_rpc', request, failure: (error as UpstreamError).reason ?? 'network', ms: ms() })
        throw error
      },
    )
  }

  #answer(payload: JsonRpcPayload, meter: CallMeter): Promise<unknown> {
    const ttl = CACHE_TTL_MS[payload.method]
    if (ttl === undefined) return this.#enqueue(payload, meter, undefined)
    const key = `${payload.method}:${stringifyJsonWithBigInts(payload.params)}`
    // A scan coalescing onto a call still waiting for the window keeps it alive.
    for (const item of this.#queue) if (item.key === key) item.meters.add(meter)
    return this.#memo
      .get(key, ttl, async () => {
        const response = (await this.#enqueue(payload, meter, key)) as { error?: unknown; result?: unknown }
        // JSON-RPC errors are answers, not values: let the next scan ask again. So is a transaction not
        // found: it may land, or reach the node answering, later (only a found one never changes).
        if (response.error !== undefined || (payload.method === 'getTransaction' && response.result === null))
          throw new CachedRpcError(response)
        return response
      })
      .then(
        (response) => ({ ...(response as object), id: payload.id }),
        (error) => {
          if (error instanceof CachedRpcError) return { ...error.response, id: payload.id }
          throw error
        },
      )
  }

  #enqueue(payload: JsonRpcPayload, meter: CallMeter, key: string | undefined): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ payload, key, meters: new Set([meter]), resolve, reject })
      if (this.#queue.length >= this.provider.limits.maxBatch) this.#flush()
      else if (!this.#flushScheduled) {
        this.#flushScheduled = true
        // After the current microtasks: every fact that can start now has queued its call.
        setImmediate(() => this.#flush())
      }
    })
  }

  /** Sends the queued calls the provider's limits allow now, in batches; the rest wait for the window. */
  #flush(): void {
    this.#flushScheduled = false
    const now = Date.now()
    const ready: Queued[] = []
    const held: Queued[] = []
    for (const item of this.#queue) {
      if ([...item.meters].every((meter) => meter.closed))
        item.reject(new UpstreamError(this.upstream.name, 'cancelled', 'the scans that asked have answered'))
      else (this.#pacer.tryTake(item.payload.method, now) ? ready : held).push(item)
    }
    this.#queue = held
    for (const breaker of ['default', 'history']) {
      const calls = ready.filter((item) => breakerOf(item.payload.method) === breaker)
      for (let start = 0; start < calls.length; start += this.provider.limits.maxBatch)
        void this.#send(calls.slice(start, start + this.provider.limits.maxBatch), breaker)
    }
    if (held.length > 0 && this.#paceTimer === undefined) {
      const wait = Math.min(...held.map((item) => this.#pacer.waitMs(item.payload.method, now)))
      this.#paceTimer = setTimeout(
        () => {
          this.#paceTimer = undefined
          this.#flush()
        },
        Math.max(1, wait),
      )
    }
  }

  async #send(batch: Queued[], breaker: string): Promise<void> {
    const meters = [...new Set(batch.flatMap((item) => [...item.meters]))]
    // Unique ids within the batch, mapped back to each caller's own id.
    const wire = batch.map((item, index) => ({ ...item.payload, id: index }))
    try {
      const answers = await this.upstream.run(
        meters,
        async (signal) => {
          const response = await fetch(this.#url, {
            method: 'POST',
            headers: this.#headers,
            body: stringifyJsonWithBigInts(wire.length === 1 ? wire[0] : wire),
            signal,
          })
          const failure = statusFailure(this.upstream.name, response.status)
          if (failure) throw failure
          const text = await response.text()
          let parsed: unknown
          try {
            parsed = parseJsonWithBigInts(text)
          } catch {
            throw new UpstreamError(this.upstream.name, 'malformed', 'the answer is not JSON')
          }
          const list = Array.isArray(parsed) ? parsed : [parsed]
          if (!list.every(isJsonRpcResponse))
            throw new UpstreamError(this.upstream.name, 'malformed', 'not JSON-RPC responses')
          return list
        },
        undefined,
        breaker,
      )
      for (const [index, item] of batch.entries()) {
        // Ids come back through the bigint-preserving parser: compare as numbers.
        const answer = answers.find(
          (entry) => Number(entry.id) === index || (wire.length === 1 && answers.length === 1),
        )
        if (answer && isKeyExcluded(answer)) this.#refused.add(item.payload.method)
        if (answer) this.#sawSlot(answer as { result?: unknown }, item.payload.method)
        const problem = answer ? shapeProblem(item.payload.method, answer) : `no answer for ${item.payload.method}`
        if (problem) item.reject(new UpstreamError(this.upstream.name, 'malformed', problem))
        else item.resolve(answer)
      }
    } catch (error) {
      for (const item of batch) item.reject(error)
    }
  }
}

/** A JSON-RPC answer as the provider sent it (integers as bigints). */
export interface RpcAnswer {
  result?: unknown
  error?: { code?: unknown; message?: unknown }
}

/**
 * kit's Solana RPC API (createSolanaRpcApi: default commitment, integers typed as kit types them), with
 * the answer of a cached read typed once: kit walks the whole of every answer to type its integers,
 * and a warm scan reads a dozen cached answers. An answer the cache hands out again is the same object
 * (Memo), so the value kit made of it the first time is kept beside it (a WeakMap: it goes with the
 * answer) and handed to every later reader — frozen, so no reader can change it under another. kit
 * still runs for every read (its request shaping, its error for an error answer); on a repeat it
 * types a null in place of the answer.
 */
function sharedAnswersApi(): RpcApi<SolanaRpcApi> {
  const kit = createSolanaRpcApi(DEFAULT_RPC_CONFIG)
  const typed = new WeakMap<object, unknown>()
  type Plan = { execute(config: { signal?: AbortSignal; transport: RpcTransport }): Promise<unknown> }
  return new Proxy(kit, {
    get(target, property, receiver) {
      const method = Reflect.get(target, property, receiver) as unknown
      if (typeof property !== 'string' || !Object.hasOwn(CACHE_TTL_MS, property) || typeof method !== 'function')
        return method
      return (...params: unknown[]): Plan => {
        const plan = (method as (...args: unknown[]) => Plan)(...params)
        return {
          async execute({ signal, transport }) {
            let answer: object | undefined
            let known: { value: unknown } | undefined
            const value = await plan.execute({
              signal,
              transport: (async (config: Parameters<RpcTransport>[0]) => {
                const response = (await transport(config)) as { result?: unknown }
                const result = response.result
                if (typeof result !== 'object' || result === null) return response
                if (typed.has(result)) {
                  known = { value: typed.get(result) }
                  return { ...response, result: null }
                }
                answer = result
                return response
              }) as RpcTransport,
            })
            if (known) return known.value
            if (answer) typed.set(answer, deepFreeze(value))
            return value
          },
        }
      }
    },
  })
}

/** `value` and everything in it frozen (typed arrays aside, which cannot be); returned. */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return value
  Object.freeze(value)
  for (const member of Object.values(value)) deepFreeze(member)
  return value
}

class CachedRpcError extends Error {
  constructor(readonly response: object) {
    super('rpc error')
  }
}

/** agave's KeyExcludedFromSecondaryIndex: the provider does not index the key this method needs. */
const KEY_EXCLUDED_FROM_SECONDARY_INDEX = -32010

function isKeyExcluded(answer: { error?: unknown }): boolean {
  // Integers come back as bigints through the bigint-preserving parser.
  const code = (answer.error as { code?: unknown } | undefined)?.code
  return code !== undefined && Number(code) === KEY_EXCLUDED_FROM_SECONDARY_INDEX
}

/** Why an answer breaks its method's boundary schema (src/sources/solana-answers.ts), or undefined. */
function shapeProblem(method: string, answer: { result?: unknown; error?: unknown }): string | undefined {
  const [schema, value] =
    'error' in answer ? [RpcErrorSchema, answer.error] : [RPC_RESULT_SCHEMAS[method], answer.result]
  if (!schema || Value.Check(schema, value)) return undefined
  const first = Value.Errors(schema, value).First()
  return `${method}: ${first?.path ?? ''} ${first?.message ?? 'unexpected shape'}`
}

function isJsonRpcResponse(value: unknown): value is { id: unknown; result?: unknown; error?: unknown } {
  return typeof value === 'object' && value !== null && ('result' in value || 'error' in value)
}
