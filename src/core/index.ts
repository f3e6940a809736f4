import { cors } from '@elysiajs/cors'
import { Elysia } from 'elysia'
import type { ServiceContext } from '../context.ts'
import { ApiError, errorBody } from '../errors.ts'
import { rateLimitShapes } from '../rate-limit.ts'
import { SCHEMA_VERSION } from '../version.ts'
import { checkDeclaredLength, readJsonBody } from './body.ts'
import { toApiError } from './error-mapping.ts'

/** Request and response headers of the x402 flow, which browsers may only read when CORS exposes them. */
const PAYMENT_HEADERS = ['payment-required', 'payment-response', 'x-payment-response']
const REQUEST_ID = /^[\w.:-]{1,128}$/

interface RequestMeta {
  id: string
  startedAt: number
  ip: string
}

/**
 * The core every feature plugs into: request ids, one JSON log line per request, CORS exposing the
 * payment headers, JSON body parsing with limits, per-IP rate limits declared by manifests,
 * `schema_version` on every JSON answer, and the one mapping from errors to `{ error: true, ... }`.
 */
export function core(ctx: ServiceContext) {
  const { config, logger, registry, store, lifecycle } = ctx
  const shapes = rateLimitShapes(config)
  const requests = new WeakMap<Request, RequestMeta>()

  const metaOf = (request: Request): RequestMeta =>
    requests.get(request) ?? { id: 'unknown', startedAt: performance.now(), ip: 'unknown' }

  return new Elysia({ name: 'plugin:core' })
    .use(
      cors({
        origin: true,
        methods: ['GET', 'POST', 'OPTIONS'],
        allowedHeaders: ['content-type', 'x-payment', 'payment-signature', 'x-request-id'],
        exposeHeaders: [...PAYMENT_HEADERS, 'x-request-id', 'retry-after'],
        maxAge: 600,
      }),
    )
    .onRequest(async function identifyAndLimit(context) {
      const { request, set, server } = context
      // Elysia sets `path` before onRequest but does not type it there.
      const path = (context as { path?: string }).path ?? new URL(request.url).pathname
      const incoming = request.headers.get('x-request-id')
      const id = incoming !== null && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID()
      const ip = clientIp(request, server, config.TRUST_PROXY)
      requests.set(request, { id, startedAt: performance.now(), ip })
      set.headers['x-request-id'] = id

      if (lifecycle.draining) throw new ApiError('SHUTTING_DOWN', { headers: { 'retry-after': '5', connection: 'close' } })
      checkDeclaredLength(request)
      const limitClass = registry.route(request.method, path)?.rateLimit
      if (limitClass) {
        const taken = await store.takeToken(`rl:${limitClass}:${ip}`, shapes[limitClass])
        if (!taken.allowed)
          throw new ApiError('RATE_LIMITED', {
            message: `too many requests from ${ip}: retry after ${taken.retryAfterS} s`,
            headers: { 'retry-after': String(taken.retryAfterS) },
            details: { retry_after_s: taken.retryAfterS },
          })
      }
    })
    .onParse({ as: 'global' }, function parseJson({ request, contentType }) {
      return readJsonBody(request, contentType)
    })
    .onAfterHandle({ as: 'global' }, function stampSchemaVersion({ response }) {
      if (isPlainObject(response) && !('schema_version' in response))
        return { schema_version: SCHEMA_VERSION, ...response }
    })
    .onError({ as: 'global' }, function answerError({ code, error, request, set, path }) {
      const meta = metaOf(request)
      const { apiError, internal } = toApiError(code, error, request.method, path)
      if (internal) logger.error({ req_id: meta.id, err: error }, 'unhandled error')
      set.status = apiError.status
      Object.assign(set.headers, apiError.headers)
      set.headers['content-type'] = 'application/json'
      return errorBody(apiError, meta.id)
    })
    .onAfterResponse({ as: 'global' }, function logRequest({ request, set, route, path }) {
      const meta = metaOf(request)
      logger.info(
        {
          req_id: meta.id,
          method: request.method,
          route: route || null,
          path,
          status: typeof set.status === 'number' ? set.status : 200,
          duration_ms: Math.round((performance.now() - meta.startedAt) * 100) / 100,
          ip: meta.ip,
        },
        'request',
      )
    })
}

function clientIp(request: Request, server: { requestIP(r: Request): { address: string } | null } | null, trustProxy: boolean): string {
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
