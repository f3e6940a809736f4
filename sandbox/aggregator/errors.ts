/**
 * Refusals of the aggregator stand-in, worded and coded as Jupiter's swap v1 and tokens v2 APIs answer
 * them, so a client's error handling is exercised offline exactly as it will be against the real host.
 */

/** An error body as Jupiter answers it: a message and, for routing refusals, a machine code. */
export interface JupiterErrorBody {
  error: string
  errorCode?: string
  /** Swap API v2 `/order`'s refusals name the request instead of a routing code. */
  requestId?: string
}

/** What a handler decided: a JSON value to send, or the status and body of a refusal. */
export type Outcome<T> = { ok: true; value: T } | Refusal

/** A refusal: the HTTP status and the JSON body to answer with. */
export interface Refusal {
  ok: false
  status: number
  body: JupiterErrorBody
}

/** Jupiter's routing error codes the stand-in can produce (the names are Jupiter's). */
export const ERROR_CODES = {
  COULD_NOT_FIND_ANY_ROUTE: 'COULD_NOT_FIND_ANY_ROUTE',
  CIRCULAR_ARBITRAGE_IS_DISABLED: 'CIRCULAR_ARBITRAGE_IS_DISABLED',
  TOKEN_NOT_TRADABLE: 'TOKEN_NOT_TRADABLE',
  MARKET_NOT_FOUND: 'MARKET_NOT_FOUND',
  NOT_SUPPORTED: 'NOT_SUPPORTED',
  /**
   * Not an API code: Jupiter's program fails such a swap on chain (SlippageToleranceExceeded, 6001).
   * The sandbox pays a fixed amount fixed at build time, so it refuses up front under the program's name.
   */
  SLIPPAGE_TOLERANCE_EXCEEDED: 'SLIPPAGE_TOLERANCE_EXCEEDED',
} as const

/** A value to answer with (200). */
export function ok<T>(value: T): Outcome<T> {
  return { ok: true, value }
}

/** A refusal with Jupiter's `{ error, errorCode? }` body. */
export function refuse(status: number, error: string, errorCode?: string): Refusal {
  return { ok: false, status, body: errorCode === undefined ? { error } : { error, errorCode } }
}

/** A query parameter that does not parse: 400, in Jupiter's words. */
export function badQueryParameter(name: string, reason: string): Refusal {
  return refuse(400, `Query parameter ${name} cannot be parsed: ${reason}`)
}

/**
 * A JSON body that does not fit the request type: Jupiter's axum/serde rejection is a 422 naming the
 * path of the field (`quoteResponse: missing field \`inputMint\``, `userPublicKey: Parse error: WrongSize`).
 */
export function badBody(path: string, reason: string): Refusal {
  const where = path === '' ? '' : `${path}: `
  return refuse(422, `Failed to deserialize the JSON body into the target type: ${where}${reason}`)
}

/** Jupiter's answer when no pool (or pair of pools) connects the two mints. */
export function noRoute(): Refusal {
  return refuse(400, 'Could not find any route', ERROR_CODES.COULD_NOT_FIND_ANY_ROUTE)
}

/** Jupiter's answer when the input and output mints are the same. */
export function circularArbitrage(): Refusal {
  return refuse(400, 'Input and output mints are not allowed to be equal', ERROR_CODES.CIRCULAR_ARBITRAGE_IS_DISABLED)
}

/** The stand-in quotes ExactIn only; Jupiter's NOT_SUPPORTED code says so in its vocabulary. */
export function exactOutNotSupported(): Refusal {
  return refuse(
    400,
    'swapMode ExactOut is not supported by the sandbox aggregator: quote with swapMode=ExactIn',
    ERROR_CODES.NOT_SUPPORTED,
  )
}
