import { Elysia } from 'elysia'
import { checkSolanaAddress } from '../onchain/address.ts'
import type { ServiceContext } from '../context.ts'
import { ApiError, errorBody } from './errors.ts'
import type { RegisteredRoute } from './manifest.ts'
import { rateLimitShapes, type TakeResult } from './rate-limit.ts'
import { SCHEMA_VERSION } from './version.ts'
import { checkDeclaredLength, readJsonBody } from './body.ts'
import { releaseOnError } from '../payments/http.ts'
import { requestLogger } from './logger.ts'
import { toApiError } from './error-mapping.ts'
import { metaOf, recordRequest, type RequestMeta, type SocketServer } from './request.ts'

const REQUEST_ID = /^[\w.:-]{1,128}$/

/**
 * CORS for browsers and web agents: any origin (no cookies or credentials are involved), and the
 * x402 response headers exposed so a page can read the challenge and the receipt.
 */
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'payment-required, payment-response, x-payment-response, x-request-id, retry-after',
}
/**
 * The request headers browsers may send: the official x402 clients' — the payment (`PAYMENT-SIGNATURE`
 * v2, `X-PAYMENT` v1), `SIGN-IN-WITH-X`, and `Access-Control-Expose-Headers`, which `@x402/fetch` sets as
 * a request header on its paid retry (a preflight that does not allow it blocks the payment).
 */
const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers':
    'content-type, x-payment, payment-signature, sign-in-with-x, access-control-expose-headers, x-request-id',
  'access-control-max-age': '600',
}
/** On every answer: a browser never guesses a type other than the one declared. */
const SECURITY_HEADERS = { 'x-content-type-options': 'nosniff' }
/** On a paid route's every answer (402 challenges, paid results): never stored by a cache on the way. */
const PAID_HEADERS = { 'cache-control': 'no-store' }

/**
 * The core every feature plugs into: request ids, one JSON log line per request, CORS exposing the
 * payment headers, JSON body parsing with limits, per-IP rate limits declared by manifests,
 * `schema_version` on every JSON answer, and the one mapping from errors to `{ error: true, ... }`.
 */
export function core(ctx: ServiceContext) {
  const { config, logger, registry, store, lifecycle } = ctx
  const shapes = rateLimitShapes(config)

  const lines = requestLogger(logger)
  /** The request's log line: id, route, status, duration, and the client address when a route read it. */
  function requestLine(meta: RequestMeta, method: string, route: string | null, path: string, status: number): void {
    const duration_ms = Math.round((performance.now() - meta.startedAt) * 100) / 100
    lines({ req_id: meta.id, method, route, path, status, duration_ms, ip: meta.ip })
  }

  /** The client's address (X-Forwarded-For's last hop behind TRUST_PROXY), read once per request. */
  function ipOf(request: Request): string {
    const meta = metaOf(request)
    meta.ip ??= clientIp(request, meta.server, config.TRUST_PROXY)
    return meta.ip
  }

  function enforce(taken: TakeResult, ip: string): void {
    if (!taken.allowed)
      throw new ApiError('RATE_LIMITED', {
        message: `too many requests from ${ip}: retry after ${taken.retryAfterS} s`,
        headers: { 'retry-after': String(taken.retryAfterS) },
        details: { retry_after_s: taken.retryAfterS },
      })
  }

  function routeOf(request: Request, path: string | undefined): RegisteredRoute | undefined {
    // Elysia sets `path` before onRequest but does not type it there.
    return registry.route(request.method, path ?? new URL(request.url).pathname)
  }

  // Elysia makes the whole request pipeline asynchronous when an onRequest hook is; stores that can
  // answer synchronously keep it synchronous (see Store.takeTokenSync).
  const takeTokenSync = store.takeTokenSync?.bind(store)
  const limitRequest = takeTokenSync
    ? function limitRequest({ request }: { request: Request }) {
        const limitClass = metaOf(request).route?.rateLimit
        if (!limitClass) return
        const ip = ipOf(request)
        enforce(takeTokenSync(`rl:${limitClass}:${ip}`, shapes[limitClass]), ip)
      }
    : async function limitRequestAsync({ request }: { request: Request }) {
        const limitClass = metaOf(request).route?.rateLimit
        if (!limitClass) return
        const ip = ipOf(request)
        enforce(await store.takeToken(`rl:${limitClass}:${ip}`, shapes[limitClass]), ip)
      }

  return (
    new Elysia({ name: 'plugin:core' })
      // Hooks destructure what they read: Elysia parses only what some hook or handler names (a hook that
      // takes the whole context makes it parse cookies and the query string on every request).
      .onRequest(function identify({
        request,
        set,
        server,
        path,
      }: {
        request: Request
        set: { headers: Record<string, string | number> }
        server: SocketServer
        path?: string
      }) {
        const incoming = request.headers.get('x-request-id')
        const id = incoming !== null && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID()
        const route = routeOf(request, path)
        recordRequest(request, { id, startedAt: performance.now(), route, server })
        set.headers['x-request-id'] = id
        Object.assign(set.headers, SECURITY_HEADERS)
        if (route !== undefined && route.price !== 'free') Object.assign(set.headers, PAID_HEADERS)
        if (request.headers.has('origin')) Object.assign(set.headers, CORS_HEADERS)
        if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
          Object.assign(set.headers, PREFLIGHT_HEADERS)
          return new Response(null, { status: 204 })
        }
        if (lifecycle.draining)
          throw new ApiError('SHUTTING_DOWN', { headers: { 'retry-after': '5', connection: 'close' } })
        checkDeclaredLength(request)
      })
      .onRequest(limitRequest)
      .onParse({ as: 'global' }, function parseJson({ request, contentType }) {
        return readJsonBody(request, contentType)
      })
      .onTransform({ as: 'global' }, function checkAddresses({ body, request, route }) {
        // Before schema validation: the common bad request gets its actionable INVALID_ADDRESS message
        // without paying for Elysia's generic validation report.
        const fields = registry.route(request.method, route)?.addressFields
        if (!fields?.length) return
        for (const field of fields) {
          const value =
            typeof body === 'object' && body !== null && !Array.isArray(body)
              ? (body as Record<string, unknown>)[field]
              : undefined
          const check = checkSolanaAddress(value, field)
          if (!check.ok) throw new ApiError('INVALID_ADDRESS', { message: check.message, details: { field } })
        }
      })
      .onAfterHandle({ as: 'global' }, function stampSchemaVersion({ response }) {
        if (isPlainObject(response) && !('schema_version' in response))
          return { schema_version: SCHEMA_VERSION, ...response }
      })
      .onError({ as: 'global' }, function answerError({ code, error, request, set, path }) {
        const meta = metaOf(request)
        const answer = () => {
          const { apiError, internal } = toApiError(code, error, request.method, path)
          if (internal) logger.error({ req_id: meta.id, err: error }, 'unhandled error')
          set.status = apiError.status
          Object.assign(set.headers, apiError.headers)
          set.headers['content-type'] = 'application/json'
          return errorBody(apiError, meta.id)
        }
        // A priced call whose handler threw gives its payment back (nothing is settled for it).
        const released = releaseOnError(ctx.payments, request)
        return released ? released.then(answer) : answer()
      })
      .onAfterResponse({ as: 'global' }, function logRequest({ request, set, route, path }) {
        const meta = metaOf(request)
        const status = typeof set.status === 'number' ? set.status : 200
        requestLine(meta, request.method, route || null, path, status)
      })
  )
}

function clientIp(request: Request, server: SocketServer, trustProxy: boolean): string {
  if (trustProxy) {
    // The right-most entry is the one our own proxy appended; entries to its left are client-supplied.
    const forwarded = request.headers.get('x-forwarded-for')
    const last = forwarded?.split(',').at(-1)?.trim()
    if (last) return last
  }
  return server?.requestIP(request)?.address ?? 'unknown'
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
}
