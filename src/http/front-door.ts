import type { AnyElysia } from 'elysia'
import type { ServiceContext } from '../context.ts'
import { checkDeclaredLength, readJsonBody } from './body.ts'
import { toApiError } from './error-mapping.ts'
import { ApiError, errorBody } from '../kernel/errors.ts'
import { requestLogger } from '../kernel/logger.ts'
import type { RegisteredRoute, Registry } from '../kernel/manifest.ts'
import { addressProblem } from '../onchain/address.ts'
import { rateLimitShapes } from './rate-limit.ts'
import type { TakeResult } from '../store/token-buckets.ts'
import { Arrival, clientIp, type RequestMeta, recordRequest, type SocketServer } from './request.ts'
import { paidRequests } from './payment-adapter.ts'
import { httpMeter, rateLimited } from '../kernel/metrics.ts'
import { withinRequest } from '../kernel/request-scope.ts'
import { endRequestSpan, startRequestSpan } from '../kernel/tracing.ts'

/** The service as a server or a test drives it: one function from a request to its answer. */
export interface Service {
  /** Answers one request: the server's `fetch` (tests call it without a socket). */
  handle(request: Request, server?: SocketServer): Promise<Response>
  /** The framework behind the front door: routing, schemas, payment, handlers. */
  readonly app: AnyElysia
  /** The manifests of the mounted plugins: what the service serves, at what price. */
  readonly registry: Registry
}

const REQUEST_ID = /^[\w.:-]{1,128}$/

/**
 * CORS for browsers and web agents: any origin (no cookies or credentials are involved), and the
 * x402 response headers exposed so a page can read the challenge and the receipt.
 */
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'payment-required, payment-response, x-payment-response, x-attestation, x-answer-replayed, x-request-id, retry-after',
}
/**
 * The request headers browsers may send: the official x402 clients' — the payment (`PAYMENT-SIGNATURE`
 * v2, `X-PAYMENT` v1), `SIGN-IN-WITH-X`, and `Access-Control-Expose-Headers`, which `@x402/fetch` sets as
 * a request header on its paid retry (a preflight that does not allow it blocks the payment) —, and
 * `Last-Event-ID`, with which a page resumes a watch's event stream; DELETE cancels a watch.
 */
const PREFLIGHT_HEADERS = {
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers':
    'content-type, x-payment, payment-signature, sign-in-with-x, access-control-expose-headers, x-request-id, last-event-id',
  'access-control-max-age': '600',
}
/** On every answer: a browser never guesses a type other than the one declared. */
const SECURITY_HEADERS = { 'x-content-type-options': 'nosniff' }
/** On a paid route's every answer (402 challenges, paid results): never stored by a cache on the way. */
const PAID_HEADERS = { 'cache-control': 'no-store' }

/** The headers an answer carries after its request id, for one case (a paid route or not, a CORS request or not). */
interface CommonHeaders {
  /** As name–value pairs, set on an answer from the framework. */
  pairs: readonly (readonly [string, string])[]
  object: Readonly<Record<string, string>>
  /** With the JSON content type: a refusal's every header but its request id. */
  refusal: Readonly<Record<string, string>>
}

function commonHeaderSet(paid: boolean, cors: boolean): CommonHeaders {
  const object = { ...SECURITY_HEADERS, ...(paid ? PAID_HEADERS : {}), ...(cors ? CORS_HEADERS : {}) }
  return { pairs: Object.entries(object), object, refusal: { ...object, 'content-type': 'application/json' } }
}

/** The four cases, built once: [free, paid] × [no Origin, Origin]. */
const COMMON_HEADERS = [
  [commonHeaderSet(false, false), commonHeaderSet(false, true)],
  [commonHeaderSet(true, false), commonHeaderSet(true, true)],
] as const

/**
 * The front door: what every request goes through before the framework sees it — a request id, the
 * client's rate limit, the body's size, media type, JSON and address members, the common headers and
 * one JSON log line. A request refused here (the cheap, common failures: a ticker instead of a mint, a
 * flood) is answered without entering the framework, whose request pipeline costs more than the whole
 * refusal; every other request goes on to `app` with its body already read (the core's parser hands it
 * over), a priced route's through the payment adapter's paid request (`paidRequests`: replay, attestation,
 * kept answers). One `Service.handle` serves the socket and the tests alike, so no path skips these steps.
 */
export function frontDoor(ctx: ServiceContext, app: AnyElysia): Service {
  const { config, logger, registry, store, lifecycle } = ctx
  const shapes = rateLimitShapes(config)
  const lines = requestLogger(logger)
  // A store that can answer synchronously (process memory) keeps the refusal path free of promises.
  const takeTokenSync = store.takeTokenSync?.bind(store)
  const paidCalls = paidRequests(ctx)

  function identify(request: Request, server: SocketServer): Arrival {
    const incoming = request.headers.get('x-request-id')
    const id = incoming !== null && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID()
    const path = pathOf(request.url)
    const meta = new Arrival(id, performance.now(), path, registry.route(request.method, path), server)
    recordRequest(request, meta)
    return meta
  }

  /** The client's address (X-Forwarded-For's last hop behind TRUST_PROXY), read once per request. */
  function ipOf(request: Request, meta: RequestMeta): string {
    meta.ip ??= clientIp(request, meta.server, config.TRUST_PROXY)
    return meta.ip
  }

  /** Takes a token from the client's bucket for the route's class; refuses when it is empty. */
  function limit(request: Request, meta: RequestMeta): Promise<void> | undefined {
    const limitClass = meta.route?.rateLimit
    if (!limitClass) return undefined
    const ip = ipOf(request, meta)
    const key = `rl:${limitClass}:${ip}`
    if (takeTokenSync) {
      enforce(takeTokenSync(key, shapes[limitClass]), ip, limitClass)
      return undefined
    }
    return store.takeToken(key, shapes[limitClass]).then((taken) => enforce(taken, ip, limitClass))
  }

  /** The common headers on an answer from the framework, and the request's log line. */
  function finish(request: Request, meta: RequestMeta, response: Response): Response {
    let answered = response
    const { pairs } = commonHeaders(request, meta)
    try {
      setCommonHeaders(answered.headers, meta.id, pairs)
    } catch {
      // An answer with immutable headers (a fetched one): a copy takes them.
      answered = new Response(response.body, response)
      setCommonHeaders(answered.headers, meta.id, pairs)
    }
    return logged(request, meta, answered)
  }

  /** The request's metrics, span end and log line: its answer is final. */
  function logged(request: Request, meta: RequestMeta, response: Response): Response {
    const elapsed = performance.now() - meta.startedAt
    const { route } = meta
    const status = response.status
    httpMeter.count(route?.key ?? 'unmatched', status, elapsed / 1000)
    if (meta.span) endRequestSpan(meta.span, status)
    lines(meta.id, request.method, route?.path ?? null, meta.path, status, Math.round(elapsed * 100) / 100, meta.ip)
    return response
  }

  /** An error raised before the framework: the catalogue's JSON answer, as the core's error hook gives. */
  function refuse(request: Request, meta: RequestMeta, error: unknown): Response {
    const { apiError, internal } = toApiError('UNKNOWN', error, request.method, meta.path)
    if (internal) logger.error({ req_id: meta.id, err: error }, 'unhandled error')
    // Every header in the constructor: setting them on a built answer costs as much again.
    const common = commonHeaders(request, meta)
    const headers = isEmpty(apiError.headers)
      ? { 'x-request-id': meta.id, ...common.refusal }
      : { 'x-request-id': meta.id, ...common.object, ...apiError.headers, 'content-type': 'application/json' }
    const response = new Response(JSON.stringify(errorBody(apiError, meta.id)), { status: apiError.status, headers })
    return logged(request, meta, response)
  }

  function handle(request: Request, server: SocketServer = null): Promise<Response> {
    const meta = identify(request, server)
    // A matched route may call upstreams and log: its lines carry the request id.
    if (!meta.route) return serve(request, meta)
    meta.span = startRequestSpan(request, meta.route.key, meta.id, meta.path)
    return withinRequest(meta.id, () => serve(request, meta), meta.span)
  }

  async function serve(request: Request, meta: Arrival): Promise<Response> {
    try {
      if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
        const headers = {
          'x-request-id': meta.id,
          ...commonHeaders(request, meta).object,
          ...CORS_HEADERS,
          ...PREFLIGHT_HEADERS,
        }
        return logged(request, meta, new Response(null, { status: 204, headers }))
      }
      if (lifecycle.draining)
        throw new ApiError('SHUTTING_DOWN', { headers: { 'retry-after': '5', connection: 'close' } })
      checkDeclaredLength(request)
      const limited = limit(request, meta)
      if (limited) await limited
      const route = meta.route
      const paid = route !== undefined && route.price !== 'free'
      if (route?.body) {
        const body = await readJsonBody(
          request,
          request.headers.get('content-type') ?? '',
          // Kept for the attestation of a paid answer, hashed only then (src/http/request.ts).
          paid ? (bytes) => (meta.bodyBytes = bytes) : undefined,
        )
        // The common refusal is answered here without being thrown (a throw costs as much as its answer).
        const invalid = invalidAddress(route, body)
        if (invalid) return refuse(request, meta, invalid)
        meta.body = body
      }
      // The framework's `fetch`, not `handle` (an async wrapper of it): what it throws is caught below.
      if (!paid) return finish(request, meta, await app.fetch(request))
      // A paid call is the payment adapter's: a kept answer replayed, else run, attested and kept.
      return finish(request, meta, await paidCalls.serve(request, meta, () => app.handle(request)))
    } catch (error) {
      return refuse(request, meta, error)
    }
  }

  return { handle, app, registry }
}

/**
 * The address members a route declares, checked before schema validation: the common bad request gets
 * its actionable INVALID_ADDRESS message without paying for the framework's generic validation report.
 */
function invalidAddress(route: RegisteredRoute, body: unknown): ApiError | undefined {
  const problem = addressProblem(route, body)
  return problem
    ? new ApiError('INVALID_ADDRESS', { message: problem.message, details: { field: problem.field } })
    : undefined
}

/** The headers every answer carries after its request id: the security header, and the paid and CORS ones where they apply. */
function commonHeaders(request: Request, meta: RequestMeta): CommonHeaders {
  const paid = meta.route !== undefined && meta.route.price !== 'free'
  return COMMON_HEADERS[paid ? 1 : 0][request.headers.has('origin') ? 1 : 0]
}

function setCommonHeaders(headers: Headers, id: string, pairs: CommonHeaders['pairs']): void {
  headers.set('x-request-id', id)
  for (const [name, value] of pairs) headers.set(name, value)
}

function isEmpty(record: Record<string, string>): boolean {
  for (const _ in record) return false
  return true
}

function enforce(taken: TakeResult, ip: string, limitClass: string): void {
  if (taken.allowed) return
  rateLimited.inc({ class: limitClass })
  throw new ApiError('RATE_LIMITED', {
    message: `too many requests from ${ip}: retry after ${taken.retryAfterS} s`,
    headers: { 'retry-after': String(taken.retryAfterS) },
    details: { retry_after_s: taken.retryAfterS },
  })
}

/**
 * A request URL's path without its query (and one trailing slash, as the router matches it): string
 * slicing, as `new URL` costs a sizeable part of a cheap request.
 */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start === -1) return '/'
  const query = url.indexOf('?', start)
  const hash = url.indexOf('#', start)
  const end = query === -1 ? (hash === -1 ? url.length : hash) : query
  const path = url.slice(start, end)
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
}
