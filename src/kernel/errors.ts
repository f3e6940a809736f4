import { SCHEMA_VERSION } from './version.ts'

/**
 * The one catalogue of error codes: HTTP status and the default message a caller can act on.
 * Routes, OpenAPI, docs/errors.md and tests all read this table.
 */
export const ERROR_CATALOGUE = {
  INVALID_ADDRESS: {
    status: 400,
    message: 'token_address must be a Solana SPL mint address: base58, 32 to 44 characters',
  },
  INVALID_JSON: {
    status: 400,
    message: 'the request body is not valid JSON: send a JSON object such as {"token_address": "<mint>"}',
  },
  INVALID_REQUEST: {
    status: 400,
    message: 'the request does not match the schema of this route: see /openapi.json',
  },
  PAYMENT_ID_CONFLICT: {
    status: 409,
    message:
      'this payment identifier was already used for another call (another route, body or offer): use a new identifier for a new call',
  },
  PAYMENT_REQUIRED: {
    status: 402,
    message:
      'this call is paid: sign a payment for one of the offers (payment-required header or accepts[]) and repeat the request with it in X-PAYMENT',
  },
  FORBIDDEN: {
    status: 403,
    message:
      "this endpoint is the operator's: send its bearer token (METRICS_TOKEN), or call it from the service's own host",
  },
  JOB_OWNER_PROOF_REQUIRED: {
    status: 403,
    message:
      "this job_id is taken: only its wallet may quote it again. Sign in with the job's wallet (a fresh SIGN-IN-WITH-X header signed by its user_public_key for this service's /trade/quote URL), or quote without a job_id (one is generated)",
  },
  NOT_FOUND: {
    status: 404,
    message: 'no such route: see /openapi.json or /llm.txt for the routes this service serves',
  },
  TOKEN_NOT_FOUND: {
    status: 404,
    message:
      'no account exists at this address on Solana, so it is no token: check the address (a mint, not a transaction signature); nothing was charged',
  },
  JOB_NOT_FOUND: {
    status: 404,
    message: 'no trade job has this job_id: quote first with POST /trade/quote, and use the job_id it answers',
  },
  JOB_CONFLICT: {
    status: 409,
    message:
      'this job_id belongs to a trade that is executing or was executed: quote with a new job_id (or omit it to get one)',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    message: 'the request body is too large',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    message: 'send the request body as JSON with the header Content-Type: application/json',
  },
  TRADE_REJECTED: {
    status: 422,
    message: 'the trade was not executed: see status and rejection {code, reason, refundable}; no fee was charged',
  },
  NOT_A_TOKEN_MINT: {
    status: 422,
    message:
      "this address holds an account, but not an SPL Token or Token-2022 mint (a wallet, a token account, a program or another program's account; the message says which, and names the mint to send when it knows it); nothing was charged",
  },
  NOT_A_WALLET: {
    status: 422,
    message:
      'this address is not a wallet but a token mint, a token account or a program (the message says which): scan a mint with POST /scan/quick; nothing was charged',
  },
  RATE_LIMITED: {
    status: 429,
    message: 'too many requests from this address: wait for the Retry-After seconds, then retry',
  },
  INTERNAL: {
    status: 500,
    message: 'an unexpected error occurred: retry, and quote the request_id if it persists',
  },
  FACILITATOR_UNAVAILABLE: {
    status: 503,
    message:
      'the payment facilitator cannot be reached, so no payment can be taken: nothing was charged; retry after Retry-After seconds',
  },
  LEDGER_UNAVAILABLE: {
    status: 503,
    message:
      'the payment ledger cannot be reached, so no payment can be recorded: nothing was charged; retry after Retry-After seconds',
  },
  UPSTREAM_UNAVAILABLE: {
    status: 503,
    message: 'a data source this route needs cannot be reached: retry after Retry-After seconds',
  },
  SHUTTING_DOWN: {
    status: 503,
    message: 'the service is shutting down: retry in a few seconds',
  },
} as const satisfies Record<string, { status: number; message: string }>

export type ErrorCode = keyof typeof ERROR_CATALOGUE

/** Seconds a caller is asked to wait when the service's store (the ledger, a shared Redis) does not answer. */
export const STORE_RETRY_AFTER_S = 2

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[]

export interface ApiErrorOptions {
  /** Overrides the catalogue's default message. */
  message?: string
  /** Extra members merged into the JSON body (snake_case, e.g. `field`, `retry_after_s`). */
  details?: Record<string, unknown>
  /** Extra response headers (e.g. `retry-after`). */
  headers?: Record<string, string>
  cause?: unknown
}

/** An error that the HTTP edge turns into `{ error: true, code, message, ... }` with the catalogue's status. */
export class ApiError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly details: Record<string, unknown>
  readonly headers: Record<string, string>

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    // An answer to the caller, never logged with a stack (an unexpected error is logged as its cause):
    // capturing one cost as much as the rest of a refused request.
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    super(options.message ?? ERROR_CATALOGUE[code].message, { cause: options.cause })
    Error.stackTraceLimit = limit
    this.name = 'ApiError'
    this.code = code
    this.status = ERROR_CATALOGUE[code].status
    this.details = options.details ?? {}
    this.headers = options.headers ?? {}
  }
}

/** The JSON body of every error response. */
export interface ErrorBody {
  schema_version: typeof SCHEMA_VERSION
  error: true
  code: ErrorCode
  message: string
  request_id: string
  [detail: string]: unknown
}

export function errorBody(error: ApiError, requestId: string): ErrorBody {
  return {
    ...error.details,
    schema_version: SCHEMA_VERSION,
    error: true,
    code: error.code,
    message: error.message,
    request_id: requestId,
  }
}

/** docs/errors.md's table, generated from the catalogue (a test keeps the document in step). */
export function errorTable(): string {
  const rows = ERROR_CODES.map(
    (code) => `| \`${code}\` | ${ERROR_CATALOGUE[code].status} | ${ERROR_CATALOGUE[code].message} |`,
  )
  return ['| Code | HTTP | Default message |', '|---|---|---|', ...rows].join('\n')
}
