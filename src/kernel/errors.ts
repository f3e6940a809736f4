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

/**
 * Codes raised on the caller's machine by the SDK, the CLI and the local MCP bridge (`solsentry mcp`),
 * never answered by the service: no HTTP status. The bridge returns each as an MCP tool error
 * (`isError: true`, the code and its remedy in words); the SDK as a `SolsentryError` with status 0.
 */
export const LOCAL_ERROR_CATALOGUE = {
  SPEND_LIMIT: {
    meaning:
      "the client's own spend controls refused to pay before anything was signed: the price is over the per-call cap (the route's published price, or --max-usd when lower) or over what is left of the budget (--budget); nothing was paid",
    remedy: 'raise --budget or --max-usd, or call a cheaper tool',
  },
  NO_WALLET: {
    meaning: 'the call is paid (or signs a swap) and the client has no wallet to do it; nothing was paid',
    remedy: 'give it a Solana keypair file (--keypair, SOLSENTRY_KEYPAIR) or an EVM key (--evm-key, SOLSENTRY_EVM_KEY)',
  },
  PAYMENT_FAILED: {
    meaning:
      'the wallet could not make the payment: its Solana RPC cannot be reached, the wallet holds too little USDC, or it has no signer for the rails the service takes; nothing was paid',
    remedy:
      "set a reachable Solana RPC (--solana-rpc, SOLSENTRY_SOLANA_RPC), fund the wallet with USDC, or give it a signer for the service's rail",
  },
  SERVICE_UNREACHABLE: {
    meaning: 'the service could not be reached at the URL tried (refused, unknown host, timed out); nothing was paid',
    remedy: 'start the service, or point the client at it (--url, SOLSENTRY_URL)',
  },
  USAGE: {
    meaning:
      'the command line or the client options are wrong (an unknown command, a missing or malformed value such as --budget abc); nothing was called',
    remedy: 'see `solsentry help`, or docs/client.md for the options',
  },
  ATTESTATION_INVALID: {
    meaning:
      "a paid answer's signed attestation does not hold against the key the service publishes: the answer is refused, though the call was paid",
    remedy: 'retry; if it persists, the answer was altered on the way or the service is not the one you meant',
  },
} as const satisfies Record<string, { meaning: string; remedy: string }>

export type LocalErrorCode = keyof typeof LOCAL_ERROR_CATALOGUE

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

/** docs/errors.md's table of the codes raised on the caller's machine (LOCAL_ERROR_CATALOGUE). */
export function localErrorTable(): string {
  const rows = (Object.keys(LOCAL_ERROR_CATALOGUE) as LocalErrorCode[]).map(
    (code) => `| \`${code}\` | ${LOCAL_ERROR_CATALOGUE[code].meaning} | ${LOCAL_ERROR_CATALOGUE[code].remedy} |`,
  )
  return ['| Code | Meaning | Remedy |', '|---|---|---|', ...rows].join('\n')
}
