import type { Span } from '@opentelemetry/api'
import type { ServiceContext } from '../context.ts'
import type { RegisteredRoute } from '../kernel/manifest.ts'
import { sha256Hex } from '../attest/attestation.ts'

/** The origin callers reach the service at: PUBLIC_URL when set (required on mainnet), else the request's. */
export function publicOrigin(ctx: ServiceContext, request: Request): string {
  return ctx.config.PUBLIC_URL ?? new URL(request.url).origin
}

/** The request id the front door assigned to this request (echoed in `x-request-id`). */
export function requestIdOf(request: Request): string {
  return metaOf(request).id
}

/** What the core asks of the server about a request: the client's socket address. */
export type SocketServer = { requestIP(request: Request): { address: string } | null } | null

/** What the core records of each request when it arrives. */
export interface RequestMeta {
  id: string
  /** performance.now() at arrival: durations, and (with the wall clock) the arrival time. */
  startedAt: number
  /** The URL's path, without its query. */
  path: string
  /** The manifest route, looked up once per request (payment headers, rate limits). */
  route: RegisteredRoute | undefined
  /** The client's address, read when first needed (rate limits): asking the socket costs a sixth of a cheap request. */
  ip?: string
  server: SocketServer
  /** The JSON body, when the front door read it (the core's parser hands it to the framework). */
  body?: unknown
  /** SHA-256 (hex) of a paid route's request body bytes, for its attestation. */
  bodySha256?: string
  /** The request's server span, when tracing is on (src/kernel/tracing.ts). */
  span?: Span
}

/**
 * A request's meta as the front door records it on arrival. A paid route's body bytes are kept and
 * hashed when the hash is first read (its attestation, after the route answered 2xx): a refused request
 * never pays for it.
 */
export class Arrival implements RequestMeta {
  ip?: string = undefined
  // Declared, not defined: the core's parser tells a body the front door read by its presence.
  declare body?: unknown
  span?: Span = undefined
  /** A paid route's request body, as read. */
  bodyBytes?: Uint8Array = undefined
  #bodySha256?: string

  constructor(
    readonly id: string,
    readonly startedAt: number,
    readonly path: string,
    readonly route: RegisteredRoute | undefined,
    readonly server: SocketServer,
  ) {}

  get bodySha256(): string | undefined {
    if (this.#bodySha256 === undefined && this.bodyBytes !== undefined) this.#bodySha256 = sha256Hex(this.bodyBytes)
    return this.#bodySha256
  }
}

/**
 * Where a request's meta is kept: a property of the request object under a symbol of this module (a
 * WeakMap entry per request cost about 0.1 µs more, its collection included).
 */
const META = Symbol('solsentry.request-meta')

type WithMeta = Request & { [META]?: RequestMeta }

/** Records a request's meta (the core does, first thing). */
export function recordRequest(request: Request, meta: RequestMeta): void {
  ;(request as WithMeta)[META] = meta
}

/** A request's meta; for a request the core did not see, an unknown one starting now. */
export function metaOf(request: Request): RequestMeta {
  return (
    (request as WithMeta)[META] ?? {
      id: 'unknown',
      startedAt: performance.now(),
      path: new URL(request.url).pathname,
      route: undefined,
      ip: 'unknown',
      server: null,
    }
  )
}

/**
 * The headers an access path's inner HTTP call (an MCP tool, an A2A skill run as its route's request) keeps
 * from the outer request: the proxy's client address, so TRUST_PROXY reads the same caller.
 */
export function forwardedHeaders(outer: Request): Record<string, string> {
  const via = outer.headers.get('x-forwarded-for')
  return via === null ? {} : { 'x-forwarded-for': via }
}

/** The outer request's socket address, for an inner call's rate limit (the caller, not the loopback). */
export function callerOf(outer: Request): SocketServer {
  const { server } = metaOf(outer)
  return { requestIP: () => server?.requestIP(outer) ?? null }
}

/**
 * When the request arrived (epoch ms): a route's deadline runs from here, so the time spent before its
 * handler (verifying the payment) is the route's too. Now, for a request the core did not see.
 */
export function arrivalOf(request: Request): number {
  const meta = (request as WithMeta)[META]
  return meta ? Date.now() - (performance.now() - meta.startedAt) : Date.now()
}

/**
 * The client's address: behind TRUST_PROXY the right-most X-Forwarded-For entry (the one our own proxy
 * appended; entries to its left are client-supplied), else the socket's; 'unknown' without either.
 */
export function clientIp(request: Request, server: SocketServer, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')
    const last = forwarded?.slice(forwarded.lastIndexOf(',') + 1).trim()
    if (last) return last
  }
  return server?.requestIP(request)?.address ?? 'unknown'
}
