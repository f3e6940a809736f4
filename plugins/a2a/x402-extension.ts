/**
 * The A2A x402 extension's vocabulary (google-agentic-commerce/a2a-x402 spec/v0.2/spec.md §7, and the A2A
 * transport of coinbase/x402, specs/transports-v2/a2a.md): the metadata keys, the payment statuses, and
 * the short error code a refused payment is given (from the gate's machine code). The payment itself is the service's one payment path:
 * the call runs as its route's HTTP request through the front door (same gate, ledger and prices).
 */
import type { PaymentErrorCode } from '../../src/payments/payment-errors.ts'

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
/** The identity of the payment a task was sent to pay its call (executor.ts `paymentId`). */
export const PAID_WITH = 'solsentry.payment'
/** The task a refused payment paid for already (it owns the payment: its answer, or its pending settlement, is there). */
export const PAID_TASK = 'solsentry.paid_task'
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
 * The extension's `x402.payment.error` for a refusal the gate coded (src/payments/payments.ts
 * `PaymentErrorCode`, carried in the 402 body's `payment_error`): spec §9.1's codes as they are, the gate's
 * own beside them as they are; a 402 without a code (none was presented) reads `PAYMENT_REFUSED`.
 */
const A2A_PAYMENT_ERRORS: Record<PaymentErrorCode, string> = {
  INSUFFICIENT_FUNDS: 'INSUFFICIENT_FUNDS',
  INVALID_SIGNATURE: 'INVALID_SIGNATURE',
  EXPIRED_PAYMENT: 'EXPIRED_PAYMENT',
  DUPLICATE_NONCE: 'DUPLICATE_NONCE',
  NETWORK_MISMATCH: 'NETWORK_MISMATCH',
  INVALID_AMOUNT: 'INVALID_AMOUNT',
  SETTLEMENT_FAILED: 'SETTLEMENT_FAILED',
  INVALID_PAYLOAD: 'INVALID_PAYLOAD',
  PAYMENT_PENDING: 'PAYMENT_PENDING',
  PAYMENT_REFUSED: 'PAYMENT_REFUSED',
}

/** The `x402.payment.error` of a refused payment's 402 body (its `payment_error`, the gate's code). */
export function refusalCode(body: unknown): string {
  const code = (body as { payment_error?: unknown } | null)?.payment_error
  return typeof code === 'string' && Object.hasOwn(A2A_PAYMENT_ERRORS, code)
    ? A2A_PAYMENT_ERRORS[code as PaymentErrorCode]
    : 'PAYMENT_REFUSED'
}

/** The network a payment payload names (x402 v2: `accepted.network`; v1: `network`), or ''. */
export function payloadNetwork(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null) return ''
  const { accepted, network } = payload as { accepted?: { network?: unknown }; network?: unknown }
  const named = accepted?.network ?? network
  return typeof named === 'string' ? named : ''
}
