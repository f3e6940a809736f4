/**
 * The A2A x402 extension's vocabulary (google-agentic-commerce/a2a-x402 spec/v0.2/spec.md §7, and the A2A
 * transport of coinbase/x402, specs/transports-v2/a2a.md): the metadata keys, the payment statuses, and
 * the short error code a refused payment is given. The payment itself is the service's one payment path:
 * the call runs as its route's HTTP request through the front door (same gate, ledger and prices).
 */

/** The metadata keys (standalone flow). */
export const PAYMENT_STATUS = 'x402.payment.status'
export const PAYMENT_REQUIRED = 'x402.payment.required'
export const PAYMENT_PAYLOAD = 'x402.payment.payload'
export const PAYMENT_RECEIPTS = 'x402.payment.receipts'
export const PAYMENT_ERROR = 'x402.payment.error'
/** This service's own keys, beside the extension's: the answer's attestation, the call a task runs. */
export const ATTESTATION = 'solsentry.attestation'
export const SKILL = 'solsentry.skill'
export const CALL = 'solsentry.call'
/** A payment whose settlement was sent and is being read from the chain: its transaction and when to try again. */
export const SETTLEMENT = 'solsentry.settlement'

/** The payment statuses of spec §7 this server writes or reads. */
export type PaymentStatus =
  | 'payment-required'
  | 'payment-submitted'
  | 'payment-rejected'
  | 'payment-verified'
  | 'payment-completed'
  | 'payment-failed'

/** A settlement receipt as `x402.payment.receipts` holds them (x402's SettleResponse). */
export interface Receipt {
  success: boolean
  transaction: string
  network: string
  payer?: string
  errorReason?: string
}

/**
 * The short code of spec §9.1 for a payment the service refused, from the refusal's words (the gate's
 * reasons and the facilitator's `invalidReason`); `PAYMENT_REFUSED` when none of them fits.
 */
export function refusalCode(reason: string): string {
  const said = reason.toLowerCase()
  if (/did not settle|settlement failed/.test(said)) return 'SETTLEMENT_FAILED'
  if (/already|replay|owed one call|in flight|redeemed/.test(said)) return 'DUPLICATE_NONCE'
  if (/insufficient|balance/.test(said)) return 'INSUFFICIENT_FUNDS'
  if (/expir|valid_before|validbefore|too late|stale|blockhashnotfound|blockhash not found/.test(said))
    return 'EXPIRED_PAYMENT'
  if (/network|chain/.test(said)) return 'NETWORK_MISMATCH'
  if (/amount|atomic units|value|price/.test(said)) return 'INVALID_AMOUNT'
  if (/signature|signer/.test(said)) return 'INVALID_SIGNATURE'
  return 'PAYMENT_REFUSED'
}

/** The network a payment payload names (x402 v2: `accepted.network`; v1: `network`), or ''. */
export function payloadNetwork(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null) return ''
  const { accepted, network } = payload as { accepted?: { network?: unknown }; network?: unknown }
  const named = accepted?.network ?? network
  return typeof named === 'string' ? named : ''
}
