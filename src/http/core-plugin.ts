import { Elysia } from 'elysia'
import type { ServiceContext } from '../context.ts'
import { releaseOnError } from './payment-adapter.ts'
import { readJsonBody } from './body.ts'
import { toApiError } from './error-mapping.ts'
import { errorBody } from '../kernel/errors.ts'
import { metaOf } from './request.ts'
import { SCHEMA_VERSION } from '../kernel/version.ts'

/**
 * The core every feature plugs into, inside the framework (the front door, src/http/front-door.ts, has
 * done the request id, rate limit, body read, address check and common headers before): the body
 * handed over, `schema_version` on every JSON answer, and the one mapping from errors to
 * `{ error: true, ... }`.
 */
export function core(ctx: ServiceContext) {
  const { logger } = ctx

  return (
    new Elysia({ name: 'plugin:core' })
      // Hooks destructure what they read: Elysia parses only what some hook or handler names (a hook that
      // takes the whole context makes it parse cookies and the query string on every request).
      // The front door read and checked the body of every route that declares one (its address members
      // included); a body it did not read (a route no manifest gives a body) is read here, as strictly.
      .onParse({ as: 'global' }, function handOverBody({ request, contentType }) {
        const meta = metaOf(request)
        return 'body' in meta ? meta.body : readJsonBody(request, contentType)
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
