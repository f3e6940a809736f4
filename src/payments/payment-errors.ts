/**
 * Why a presented payment was not taken, as a machine reads it: the gate gives each refusal and challenge
 * its code beside its words (src/payments/gate.ts), the HTTP 402 carries it as `payment_error`, and the
 * A2A x402 extension reports it (plugins/a2a/x402-extension.ts).
 */

/**
 * Why a presented payment was not taken, as a machine reads it (a challenge's `reason` says it for
 * people). The codes of the A2A x402 extension (spec v0.2 §9.1) where one fits, and beside them:
 * `INVALID_PAYLOAD` (malformed, or not what the offer names: scheme, asset, recipient), `PAYMENT_PENDING`
 * (its settlement is being read from the chain: present the same payment again, never a new one) and
 * `PAYMENT_REFUSED` (the facilitator refused it for a reason none of the others names).
 */
export type PaymentErrorCode =
  | 'INSUFFICIENT_FUNDS'
  | 'INVALID_SIGNATURE'
  | 'EXPIRED_PAYMENT'
  | 'DUPLICATE_NONCE'
  | 'NETWORK_MISMATCH'
  | 'INVALID_AMOUNT'
  | 'SETTLEMENT_FAILED'
  | 'INVALID_PAYLOAD'
  | 'PAYMENT_PENDING'
  | 'PAYMENT_REFUSED'

/**
 * The machine code of a facilitator's refusal (its `invalidReason`, the official schemes' vocabulary,
 * and the words of its `invalidMessage` where the reason is as broad as a failed simulation): a code
 * read from a code, never from the gate's own sentences.
 */
export function invalidReasonCode(reason: string | undefined, message?: string): PaymentErrorCode {
  const said = `${reason ?? ''} ${message ?? ''}`.toLowerCase()
  // The SPL token program's error 1 is InsufficientFunds (a transfer's simulation on Solana).
  if (/insufficient|custom program error: 0x1\b/.test(said)) return 'INSUFFICIENT_FUNDS'
  if (/nonce_already_used|duplicate|already been processed|alreadyprocessed/.test(said)) return 'DUPLICATE_NONCE'
  if (/valid_before|valid_after|expired|blockhashnotfound|blockhash not found/.test(said)) return 'EXPIRED_PAYMENT'
  if (/network_mismatch|invalid_network|unsupported_network/.test(said)) return 'NETWORK_MISMATCH'
  if (/amount|_value/.test(said)) return 'INVALID_AMOUNT'
  if (/signature/.test(said)) return 'INVALID_SIGNATURE'
  return 'PAYMENT_REFUSED'
}
