/** JSON-RPC 2.0 and Solana RPC error codes used by the sandbox (same numbers as agave's rpc). */
export const RPC_ERRORS = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  SEND_TRANSACTION_PREFLIGHT_FAILURE: -32002,
  TRANSACTION_SIGNATURE_VERIFICATION_FAILURE: -32003,
  UNSUPPORTED_TRANSACTION_VERSION: -32015,
} as const

/** An error answered as `{ error: { code, message, data? } }`. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
    this.name = 'RpcError'
  }
}

export function invalidParams(detail: string): RpcError {
  return new RpcError(RPC_ERRORS.INVALID_PARAMS, `Invalid params: ${detail}`)
}
