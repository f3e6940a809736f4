import { Elysia } from 'elysia'
import type { ServiceContext } from '../context.ts'
import { releaseOnError } from '../payments/http.ts'
import { readJsonBody } from './body.ts'
import { toApiError } from './error-mapping.ts'
import { errorBody } from './errors.ts'
import { checkAddresses } from './front-door.ts'
import { metaOf } from './request.ts'
import { SCHEMA_VERSION } from './version.ts'

/**
 * The core every feature plugs into, inside the framework (the front door, src/core/front-door.ts, has
 * done the request id, rate limit, body read and common headers before): the body handed over,
 * address members checked where the front door did not recognise the route, `schema_version` on every
 * JSON answer, and the one mapping from errors to `{ error: true, ... }`.
 */
export function core(ctx: ServiceContext) {
  const { logger, registry } = ctx

  return (
    new Elysia({ name: 'plugin:core' })
      // Hooks destructure what they read: Elysia parses only what some hook or handler names (a hook that
      // takes the whole context makes it parse cookies and the query string on every request).
      .onParse({ as: 'global' }, function handOverBody({ request, contentType }) {
        const meta = metaOf(request)
        return 'body' in meta ? meta.body : readJsonBody(request, contentType)
      })
      .onTransform({ as: 'global' }, function checkAddressMembers({ body, request, route }) {
        // The front door checked them when it recognised the route; a path the router matches more
        // loosely (a trailing slash, an encoding) is checked here, before schema validation.
        const registered = registry.route(request.method, route)
        if (registered?.addressFields.length && !('body' in metaOf(request))) checkAddresses(registered, body)
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
  )
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
}
