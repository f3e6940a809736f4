import { setTimeout as sleep } from 'node:timers/promises'
import { Type, type TSchema, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { bigintSafe } from '../onchain/bigint-json.ts'
import type { SharedCache } from '../store/shared-cache.ts'
import { CallPacer } from './rpc-providers.ts'
import type { HttpExchange } from './tape.ts'
import { type CallMeter, Memo, statusFailure, Upstream, UpstreamError, type UpstreamOptions } from './upstream.ts'

/** Makes the headers that authorize one request: its method and full URL. */
export type Authorizer = (method: string, url: URL) => Promise<Record<string, string>>

export interface HttpJsonSourceOptions extends Partial<UpstreamOptions> {
  name: string
  baseUrl: string
  /** Sent with every request (e.g. an API key for a keyed host). */
  headers?: Record<string, string>
  /** Headers made afresh for each request (a signed, short-lived token such as a CDP JWT). */
  authorize?: Authorizer
  /** A cache shared with other instances (Redis), behind the in-process one. */
  cache?: SharedCache
  /**
   * The provider's request limit (requests per sliding window): requests wait for the window rather
   * than burst into 429s; a request whose scan answered meanwhile is dropped unsent.
   */
  limit?: { requests: number; windowMs: number }
}

/** A text answer: any string. */
const TEXT = Type.String()

/** How often a paced request looks again for room in the window. */
const PACE_POLL_MS = 100

/**
 * A JSON-over-HTTP upstream (DexScreener, Jupiter): each GET is cached and coalesced by path, runs
 * through the source's timeout, retries and breaker, and is validated against a TypeBox schema at the
 * boundary — an answer of the wrong shape is `malformed`, never a value the scanners trust.
 */
export class HttpJsonSource {
  readonly upstream: Upstream
  readonly #baseUrl: string
  readonly #headers: Record<string, string>
  readonly #memo: Memo
  readonly #authorize: Authorizer | undefined
  readonly #pacer: CallPacer | undefined

  constructor(options: HttpJsonSourceOptions) {
    this.#authorize = options.authorize
    this.#pacer =
      options.limit &&
      new CallPacer({
        windowMs: options.limit.windowMs,
        callsPerWindow: options.limit.requests,
        callsPerMethodPerWindow: options.limit.requests,
        maxBatch: 1,
      })
    this.upstream = new Upstream({ ...options, name: options.name })
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '')
    this.#headers = { accept: 'application/json', ...options.headers }
    this.#memo = new Memo(undefined, options.cache)
  }

  get<S extends TSchema>(path: string, schema: S, meter: CallMeter, ttlMs: number): Promise<Static<S>> {
    if (meter.closed) return this.#dropped()
    return this.#recorded(meter, { method: 'GET', path }, () =>
      this.#memo.get(`${this.upstream.name}:${path}`, ttlMs, () =>
        this.#request(path, schema, meter, { headers: this.#headers }),
      ),
    )
  }

  /**
   * A GET whose answer is text (an RSS or Atom feed), cached and coalesced like `get`; `accept` names
   * the media types asked for.
   */
  getText(path: string, accept: string, meter: CallMeter, ttlMs: number): Promise<string> {
    if (meter.closed) return this.#dropped()
    return this.#recorded(meter, { method: 'GET', path }, () =>
      this.#memo.get(`${this.upstream.name}:${path}`, ttlMs, () =>
        this.#paced(meter).then(() =>
          this.#run(path, TEXT, meter, { headers: { ...this.#headers, accept } }, undefined, (response) =>
            response.text(),
          ),
        ),
      ),
    )
  }

  /**
   * What a scan that has answered (or was abandoned) asks: nothing is sent, and it joins no one's call
   * (a coalesced read other scans wait on must not fail with it).
   */
  #dropped(): Promise<never> {
    return Promise.reject(new UpstreamError(this.upstream.name, 'cancelled', 'the scan that asked has answered'))
  }

  /** Recording (RECORD_DIR): the scan's tape keeps every answer it read, sent or from the cache. */
  async #recorded<T>(meter: CallMeter, request: HttpExchange['request'], read: () => Promise<T>): Promise<T> {
    const tape = meter.tape
    if (!tape) return read()
    const started = performance.now()
    const base = { source: this.upstream.name, request }
    try {
      const answer = await read()
      tape.add({ ...base, status: 200, answer, ms: Math.round(performance.now() - started) })
      return answer
    } catch (error) {
      const { reason, status, body } = error as UpstreamError
      const ms = Math.round(performance.now() - started)
      // A refusal with its body (Jupiter's no route) replays as itself; other failures by their reason.
      tape.add(status && body !== undefined ? { ...base, status, answer: body, ms } : { ...base, failure: reason, ms })
      throw error
    }
  }

  /**
   * A POST with a JSON body: never cached or coalesced (it asks for something new each time). `budget`
   * bounds every attempt and retry together (the caller's deadline), on top of the per-attempt timeout.
   */
  post<S extends TSchema>(
    path: string,
    body: unknown,
    schema: S,
    meter: CallMeter,
    budget?: AbortSignal,
  ): Promise<Static<S>> {
    if (meter.closed) return this.#dropped()
    const json = JSON.stringify(body, bigintSafe)
    return this.#recorded(meter, { method: 'POST', path, body: JSON.parse(json) }, () =>
      this.#request(
        path,
        schema,
        meter,
        { method: 'POST', headers: { ...this.#headers, 'content-type': 'application/json' }, body: json },
        budget,
      ),
    )
  }

  #request<S extends TSchema>(
    path: string,
    schema: S,
    meter: CallMeter,
    init: RequestInit,
    budget?: AbortSignal,
  ): Promise<Static<S>> {
    return this.#paced(meter).then(() => this.#run(path, schema, meter, init, budget))
  }

  /** Waits for room in the provider's window (no wait without a limit); a closed scan's request is dropped. */
  async #paced(meter: CallMeter): Promise<void> {
    if (!this.#pacer) return
    for (;;) {
      if (meter.closed) throw new UpstreamError(this.upstream.name, 'cancelled', 'the scan that asked has answered')
      const now = Date.now()
      if (this.#pacer.tryTake('request', now)) return
      await sleep(Math.min(PACE_POLL_MS, Math.max(1, this.#pacer.waitMs('request', now))))
    }
  }

  #run<S extends TSchema>(
    path: string,
    schema: S,
    meter: CallMeter,
    init: RequestInit,
    budget?: AbortSignal,
    read: (response: Response) => Promise<unknown> = (response) => response.json(),
  ): Promise<Static<S>> {
    return this.upstream.run(
      [meter],
      async (signal) => {
        const url = `${this.#baseUrl}${path}`
        const headers = this.#authorize
          ? {
              ...(init.headers as Record<string, string>),
              ...(await this.#authorize(init.method ?? 'GET', new URL(url))),
            }
          : init.headers
        const response = await fetch(url, { ...init, headers, signal })
        const failure = statusFailure(this.upstream.name, response.status)
        if (failure) {
          // Keep a refusal's body: callers branch on its error codes (e.g. no route).
          const refusal = failure.reason === 'rejected' ? await response.json().catch(() => undefined) : undefined
          throw refusal === undefined
            ? failure
            : new UpstreamError(failure.source, failure.reason, `HTTP ${response.status}`, refusal, response.status)
        }
        let body: unknown
        try {
          body = await read(response)
        } catch {
          throw new UpstreamError(this.upstream.name, 'malformed', `${path}: the answer is not readable`)
        }
        if (!Value.Check(schema, body)) {
          const first = Value.Errors(schema, body).First()
          throw new UpstreamError(
            this.upstream.name,
            'malformed',
            `${path}: ${first?.path ?? ''} ${first?.message ?? 'unexpected shape'}`,
          )
        }
        return body as Static<S>
      },
      budget,
    )
  }
}
