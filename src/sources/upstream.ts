import { setTimeout as sleep } from 'node:timers/promises'
import { cacheLookups, upstreamCalls, upstreamDuration } from '../kernel/metrics.ts'
import { traceUpstream } from '../kernel/tracing.ts'
import type { Tape } from './tape.ts'
import type { SharedCache } from '../store/shared-cache.ts'

/**
 * What every upstream call goes through: a timeout, bounded retries with jitter on 429/5xx and network
 * errors, a circuit breaker per source, and counting. Caching and coalescing sit above it
 * (`Memo`), per logical call, so one HTTP request can carry several calls (a JSON-RPC batch).
 */

/** Why an upstream call produced no usable answer; recorded as the reason a fact is missing. */
export type UpstreamFailure =
  | 'timeout'
  | 'rate_limited'
  | 'server_error'
  | 'network'
  | 'malformed'
  | 'circuit_open'
  | 'rejected'
  | 'cancelled'

export class UpstreamError extends Error {
  constructor(
    readonly source: string,
    readonly reason: UpstreamFailure,
    detail: string,
    /** The upstream's answer body when it refused (e.g. Jupiter's `{ errorCode }`), for callers that branch on it. */
    readonly body?: unknown,
    /** The HTTP status of a non-2xx answer. */
    readonly status?: number,
  ) {
    super(`${source}: ${reason} (${detail})`)
    this.name = 'UpstreamError'
  }
}

/** Counts upstream HTTP requests per source for one scan, with when each ran. */
export class CallMeter {
  readonly calls = new Map<string, number>()
  #closed = false
  /** Set when the scan is recorded (RECORD_DIR): the sources add each exchange it reads. */
  tape: Tape | undefined
  /** Start and end (performance.now()) of every request, for the critical-path depth. */
  readonly spans: { source: string; start: number; end: number }[] = []

  /** The scan that owns this meter has answered: calls it still has waiting for a provider's window are dropped. */
  close(): void {
    this.#closed = true
  }

  get closed(): boolean {
    return this.#closed
  }

  count(source: string): void {
    this.calls.set(source, (this.calls.get(source) ?? 0) + 1)
  }

  span(source: string, start: number, end: number): void {
    this.spans.push({ source, start, end })
  }

  /**
   * Dependent round trips on the critical path: the longest chain of requests each of which started
   * after the previous one ended. Requests that overlap count once, however many there are.
   */
  depth(): number {
    const spans = [...this.spans].sort((a, b) => a.start - b.start)
    const chain: number[] = []
    spans.forEach((span, index) => {
      let best = 0
      for (let before = 0; before < index; before++)
        if (spans[before]!.end <= span.start) best = Math.max(best, chain[before]!)
      chain.push(best + 1)
    })
    return Math.max(0, ...chain)
  }

  total(): number {
    let sum = 0
    for (const value of this.calls.values()) sum += value
    return sum
  }

  toJSON(): Record<string, number> {
    return Object.fromEntries(this.calls)
  }
}

export interface UpstreamOptions {
  name: string
  /** Per attempt. @default 4000 */
  timeoutMs?: number
  /** Retries after the first attempt, on 429, 5xx and network errors. @default 2 */
  retries?: number
  /** Base backoff; each retry waits base × 2^attempt × (0.5–1.5). @default 100 */
  backoffMs?: number
  /** Consecutive failures that open the breaker. @default 5 */
  breakerThreshold?: number
  /** How long an open breaker fails calls fast before letting one through. @default 10000 */
  breakerCooldownMs?: number
}

/** A failure worth retrying: the upstream may answer next time. */
const RETRYABLE = new Set<UpstreamFailure>(['timeout', 'rate_limited', 'server_error', 'network'])

export type BreakerState = 'closed' | 'open' | 'half-open'

/**
 * One upstream (a base URL): runs attempts with timeout, retry and breaker, counts every HTTP request
 * into the scan's meter and the source's totals.
 */
const DEFAULT_BREAKER = 'default'

export class Upstream {
  readonly name: string
  readonly #timeoutMs: number
  readonly #retries: number
  readonly #backoffMs: number
  readonly #threshold: number
  readonly #cooldownMs: number
  /**
   * One breaker per class of call (`default` unless a caller names one): a source whose calls differ
   * in cost (the RPC's history reads against its account reads) does not let the failures of one
   * class fail the other.
   */
  readonly #breakers = new Map<string, { failures: number; openedAt: number }>()
  /** HTTP requests sent since start (all scans). */
  requests = 0
  /** The last attempt's outcome (live traffic and probes alike): undefined before the first. */
  #lastAnswered: boolean | undefined

  constructor(options: UpstreamOptions) {
    this.name = options.name
    this.#timeoutMs = options.timeoutMs ?? 4_000
    this.#retries = options.retries ?? 2
    this.#backoffMs = options.backoffMs ?? 100
    this.#threshold = options.breakerThreshold ?? 5
    this.#cooldownMs = options.breakerCooldownMs ?? 10_000
  }

  /** The state of a class's breaker (`default`: the source's own). */
  breakerOf(breaker = DEFAULT_BREAKER): BreakerState {
    const state = this.#breakers.get(breaker)
    if (!state || state.failures < this.#threshold) return 'closed'
    return Date.now() - state.openedAt >= this.#cooldownMs ? 'half-open' : 'open'
  }

  get breaker(): BreakerState {
    return this.breakerOf(DEFAULT_BREAKER)
  }

  /**
   * For /health: down while the default breaker is open; degraded while it is half-open or another
   * class's breaker is not closed (part of the source fails fast); ok otherwise.
   */
  health(): 'ok' | 'degraded' | 'down' {
    const own = this.breaker
    if (own === 'open') return 'down'
    if (own === 'half-open') return 'degraded'
    for (const breaker of this.#breakers.keys()) if (this.breakerOf(breaker) !== 'closed') return 'degraded'
    return 'ok'
  }

  /**
   * For the health board, from live traffic: `unknown` before any attempt; down or degraded as
   * `health()` says while a breaker is not closed; degraded when the last attempt failed; ok when it
   * was answered.
   */
  observed(): 'unknown' | 'ok' | 'degraded' | 'down' {
    const breakers = this.health()
    if (breakers !== 'ok') return breakers
    if (this.#lastAnswered === undefined) return 'unknown'
    return this.#lastAnswered ? 'ok' : 'degraded'
  }

  /**
   * Runs `attempt` (one HTTP request) with the timeout, retries and breaker. `attempt` must throw an
   * UpstreamError to classify a failure; anything else thrown counts as `network`.
   */
  async run<T>(
    meters: readonly CallMeter[],
    attempt: (signal: AbortSignal) => Promise<T>,
    outer?: AbortSignal,
    breaker = DEFAULT_BREAKER,
  ): Promise<T> {
    if (this.#isOpen(breaker))
      throw new UpstreamError(
        this.name,
        'circuit_open',
        `${this.#breakers.get(breaker)?.failures} consecutive failures${breaker === DEFAULT_BREAKER ? '' : ` (${breaker})`}`,
      )
    for (let attemptNo = 0; ; attemptNo++) {
      if (outer?.aborted) throw new UpstreamError(this.name, 'timeout', "the caller's deadline passed")
      this.requests++
      for (const meter of meters) meter.count(this.name)
      const signal = outer
        ? AbortSignal.any([outer, AbortSignal.timeout(this.#timeoutMs)])
        : AbortSignal.timeout(this.#timeoutMs)
      const started = performance.now()
      const recordSpan = () => {
        const ended = performance.now()
        for (const meter of meters) meter.span(this.name, started, ended)
      }
      const observe = (outcome: string) => {
        upstreamCalls.inc({ source: this.name, method: breaker, outcome })
        upstreamDuration.observe({ source: this.name, method: breaker }, (performance.now() - started) / 1000)
        traceUpstream(this.name, breaker, outcome, attemptNo, started)
      }
      try {
        const value = await attempt(signal)
        recordSpan()
        observe('ok')
        this.#lastAnswered = true
        this.#breakers.delete(breaker)
        return value
      } catch (error) {
        recordSpan()
        const failure = classify(this.name, error, signal)
        observe(failure.reason)
        // A refusal or a malformed answer is an answer: the upstream is there.
        const answered = failure.reason === 'rejected' || failure.reason === 'malformed'
        // A caller's own deadline passing says nothing of the upstream.
        if (failure.reason !== 'cancelled' && !outer?.aborted) this.#lastAnswered = answered
        if (!answered) this.#recordFailure(breaker)
        if (!RETRYABLE.has(failure.reason) || attemptNo >= this.#retries || outer?.aborted || this.#isOpen(breaker))
          throw failure
        await sleep(this.#backoffMs * 2 ** attemptNo * (0.5 + Math.random()))
      }
    }
  }

  /** Closes a class's breaker: the upstream was seen answering by other means (a health probe). */
  reset(breaker = DEFAULT_BREAKER): void {
    this.#breakers.delete(breaker)
  }

  #isOpen(breaker: string): boolean {
    return this.breakerOf(breaker) === 'open'
  }

  #recordFailure(breaker: string): void {
    const state = this.#breakers.get(breaker) ?? { failures: 0, openedAt: 0 }
    state.failures++
    if (state.failures >= this.#threshold) state.openedAt = Date.now()
    this.#breakers.set(breaker, state)
  }
}

function classify(source: string, error: unknown, signal: AbortSignal): UpstreamError {
  if (error instanceof UpstreamError) return error
  if (signal.aborted) return new UpstreamError(source, 'timeout', 'no answer in time')
  return new UpstreamError(source, 'network', (error as Error)?.message ?? String(error))
}

/** Classifies an HTTP status: 429 and 5xx are worth retrying, other non-2xx are refusals. */
export function statusFailure(source: string, status: number): UpstreamError | undefined {
  if (status >= 200 && status < 300) return undefined
  if (status === 429) return new UpstreamError(source, 'rate_limited', 'HTTP 429', undefined, status)
  if (status >= 500) return new UpstreamError(source, 'server_error', `HTTP ${status}`, undefined, status)
  return new UpstreamError(source, 'rejected', `HTTP ${status}`, undefined, status)
}

/**
 * A TTL cache with in-flight coalescing, keyed by (source, method, args): a hundred scans of one mint
 * asking for the same fact at once make one upstream call, and later scans within the TTL make none.
 * Failures are not cached.
 */
export class Memo {
  readonly #values = new Map<string, { value: unknown; expires: number }>()
  readonly #inflight = new Map<string, Promise<unknown>>()
  readonly #maxEntries: number
  readonly #shared: SharedCache | undefined

  /** `shared`: a cache other instances read too (Redis), consulted after this process's own. */
  constructor(maxEntries = 10_000, shared?: SharedCache) {
    this.#maxEntries = maxEntries
    this.#shared = shared
  }

  async get<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    const cached = this.#values.get(key)
    if (cached && cached.expires > Date.now()) {
      cacheLookups.inc({ result: 'hit' })
      return cached.value as T
    }
    const pending = this.#inflight.get(key)
    if (pending) {
      cacheLookups.inc({ result: 'coalesced' })
      return pending as Promise<T>
    }
    cacheLookups.inc({ result: 'miss' })
    const loading = this.#loadShared<T>(key, ttlMs, load).then(
      ({ value, ttlMs: keepMs }) => {
        this.#inflight.delete(key)
        if (keepMs > 0) this.#store(key, value, keepMs)
        return value
      },
      (error) => {
        this.#inflight.delete(key)
        throw error
      },
    )
    this.#inflight.set(key, loading)
    return loading
  }

  /**
   * The value, from the shared cache or `load`, and how long this process may keep it: an answer
   * another instance wrote is kept only for what remains of its life in the shared cache, so no
   * instance serves it longer than the TTL it was cached with.
   */
  async #loadShared<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<{ value: T; ttlMs: number }> {
    if (!this.#shared || ttlMs <= 0) return { value: await load(), ttlMs }
    const shared = await this.#shared.get(key)
    if (shared !== undefined) return { value: shared.value as T, ttlMs: Math.min(ttlMs, shared.ttlMs) }
    const value = await load()
    void this.#shared.set(key, value, ttlMs)
    return { value, ttlMs }
  }

  #store(key: string, value: unknown, ttlMs: number): void {
    if (this.#values.size >= this.#maxEntries) {
      // Drop the oldest entry (Map keeps insertion order): a simple bound, not an LRU.
      const oldest = this.#values.keys().next().value
      if (oldest !== undefined) this.#values.delete(oldest)
    }
    this.#values.set(key, { value, expires: Date.now() + ttlMs })
  }
}
