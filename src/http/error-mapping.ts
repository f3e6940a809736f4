import { RedisUnavailable } from '../store/redis.ts'
import { ApiError, STORE_RETRY_AFTER_S } from '../kernel/errors.ts'

/** The parts of Elysia's ValidationError we read (it is not exported as a stable type). */
interface ValidationLike {
  type: string
  value: unknown
  all?: { path: string; message: string }[]
}

/**
 * Turns whatever reached the error hook into an ApiError. Elysia's own codes (VALIDATION, PARSE,
 * NOT_FOUND) never reach a client in Elysia's shape. Returns `internal: true` for unexpected errors,
 * which are logged with their stack and answered without it.
 */
export function toApiError(
  code: string | number,
  error: unknown,
  method: string,
  path: string,
): { apiError: ApiError; internal: boolean } {
  if (error instanceof ApiError) return { apiError: error, internal: false }
  // The shared store (REDIS_URL) is away: what needs it cannot be served now, and says so (docs/reliability.md).
  if (error instanceof RedisUnavailable)
    return {
      apiError: new ApiError('UPSTREAM_UNAVAILABLE', {
        message:
          "the service's shared store (Redis) cannot be reached, so this call cannot be served now: retry after Retry-After seconds",
        details: { retry_after_s: STORE_RETRY_AFTER_S },
        headers: { 'retry-after': String(STORE_RETRY_AFTER_S) },
        cause: error,
      }),
      internal: false,
    }
  switch (code) {
    case 'PARSE': {
      const cause = (error as Error).cause
      if (cause instanceof ApiError) return { apiError: cause, internal: false }
      return { apiError: new ApiError('INVALID_JSON'), internal: false }
    }
    case 'VALIDATION': {
      const validation = error as ValidationLike
      if (validation.type === 'response')
        return { apiError: new ApiError('INTERNAL', { cause: error }), internal: true }
      return { apiError: fromValidation(validation), internal: false }
    }
    case 'NOT_FOUND':
      return {
        apiError: new ApiError('NOT_FOUND', {
          message: `no route ${method} ${path}: see /openapi.json or /llm.txt for the routes this service serves`,
        }),
        internal: false,
      }
    case 'INVALID_COOKIE_SIGNATURE':
    case 'INVALID_FILE_TYPE':
      return { apiError: new ApiError('INVALID_REQUEST', { message: (error as Error).message }), internal: false }
    default:
      return { apiError: new ApiError('INTERNAL', { cause: error }), internal: true }
  }
}

/** Address members were already checked by the core's transform hook; what fails here is anything else. */
function fromValidation(validation: ValidationLike): ApiError {
  const first = validation.all?.[0]
  const where = first?.path ? `${validation.type} member ${first.path.slice(1).replaceAll('/', '.')}` : validation.type
  return new ApiError('INVALID_REQUEST', {
    message: `${where}: ${first?.message ?? 'does not match the schema'}; see /openapi.json`,
    details: { field: first?.path ? first.path.slice(1) : null },
  })
}
