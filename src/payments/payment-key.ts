import { decodeTransactionFromPayload, transactionMessageHash } from '@x402/svm'
import type { PaymentV1, PaymentV2 } from './payment-header.ts'

/**
 * The payment's stable identity, the same however it is re-encoded or re-sent: on an EVM chain the
 * EIP-3009 authorization's `(from, nonce)` (what the token itself refuses to use twice); on Solana the
 * hash of the transaction message (what the signatures sign). Undefined when the payload carries
 * neither: the payment cannot be told apart from a copy, so it is refused.
 */
export function paymentKey(payment: PaymentV1 | PaymentV2, network: string): string | undefined {
  const payload = payment.payload
  const authorization = payload.authorization as { from?: unknown; nonce?: unknown } | undefined
  if (typeof authorization?.from === 'string' && typeof authorization.nonce === 'string')
    return `evm:${network}:${authorization.from.toLowerCase()}:${authorization.nonce.toLowerCase()}`
  if (typeof payload.transaction === 'string') {
    try {
      return `svm:${network}:${transactionMessageHash(decodeTransactionFromPayload({ transaction: payload.transaction }))}`
    } catch {
      return undefined
    }
  }
  return undefined
}
