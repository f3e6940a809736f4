/**
 * The settlement receipt's codec: the facilitator's settle answer as base64 JSON, the form x402 clients
 * read from a paid answer (`PAYMENT-RESPONSE`, `X-PAYMENT-RESPONSE`; the header names are the HTTP
 * adapter's, src/http/payment-adapter.ts). Kept apart from any transport: the attestation, the kept
 * answers and the tools read a receipt back with the same code that wrote it.
 */
import type { SettleAnswer } from './facilitator.ts'

/** What a receipt says of its settlement: the network, the transaction and the payer (when named). */
export interface ReceiptSettlement {
  network: string
  transaction: string
  payer: string | null
}

/** A settlement receipt, encoded: base64 of the facilitator's answer as JSON. */
export function encodeReceipt(receipt: SettleAnswer): string {
  return Buffer.from(JSON.stringify(receipt)).toString('base64')
}

/**
 * The settlement an encoded receipt names (`encodeReceipt`'s form): its network, transaction and payer;
 * null when absent or unreadable, since a receipt is read back from answers that may not carry one.
 */
export function decodeReceipt(encoded: string | null | undefined): ReceiptSettlement | null {
  if (!encoded) return null
  try {
    const receipt = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as Record<string, unknown>
    if (typeof receipt.transaction !== 'string' || typeof receipt.network !== 'string') return null
    return {
      network: receipt.network,
      transaction: receipt.transaction,
      payer: typeof receipt.payer === 'string' ? receipt.payer : null,
    }
  } catch {
    return null
  }
}
