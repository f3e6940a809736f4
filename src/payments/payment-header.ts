/**
 * Reading a payment from a request: `X-PAYMENT` (v1 clients) or `PAYMENT-SIGNATURE` (v2 clients),
 * base64 JSON. Whatever a caller sends, the answer is a payment or a reason a person can act on.
 */

/** Larger than any real payload (an SVM transaction is at most 1 232 bytes, ~1.7 KiB in base64). */
export const MAX_PAYMENT_HEADER_BYTES = 16 * 1024

export interface PaymentV1 {
  x402Version: 1
  scheme: string
  network: string
  payload: Record<string, unknown>
}

export interface PaymentV2 {
  x402Version: 2
  accepted: {
    scheme: string
    network: string
    amount: string
    asset: string
    payTo: string
    maxTimeoutSeconds?: number
    extra?: Record<string, unknown>
  }
  payload: Record<string, unknown>
  resource?: unknown
  extensions?: Record<string, unknown>
}

export type ReadPayment =
  | { kind: 'none' }
  | { kind: 'payment'; payment: PaymentV1 | PaymentV2; header: string }
  | { kind: 'invalid'; reason: string }

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const isString = (value: unknown): value is string => typeof value === 'string' && value.length > 0

/** The payment a request carries, if any. */
export function readPayment(headers: Headers): ReadPayment {
  const raw = headers.get('x-payment') ?? headers.get('payment-signature')
  if (raw === null || raw.trim() === '') return { kind: 'none' }
  const header = raw.trim()
  if (header.length > MAX_PAYMENT_HEADER_BYTES)
    return {
      kind: 'invalid',
      reason: `the payment header is ${header.length} bytes; a payment is at most ${MAX_PAYMENT_HEADER_BYTES}`,
    }
  if (!BASE64.test(header))
    return { kind: 'invalid', reason: 'the payment header is not base64: send the base64 of the JSON payment payload' }
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(header, 'base64').toString('utf8'))
  } catch {
    return {
      kind: 'invalid',
      reason: 'the payment header does not decode to JSON: send the base64 of the JSON payment payload',
    }
  }
  if (!isObject(parsed)) return { kind: 'invalid', reason: 'the payment payload must be a JSON object' }
  if (!isObject(parsed.payload))
    return {
      kind: 'invalid',
      reason: 'the payment payload has no "payload" object (the signed transaction or authorization)',
    }
  if (parsed.x402Version === 1) {
    if (!isString(parsed.scheme) || !isString(parsed.network))
      return {
        kind: 'invalid',
        reason: 'an x402 v1 payment needs "scheme" and "network" (copied from the accepts[] entry it pays)',
      }
    return { kind: 'payment', payment: parsed as unknown as PaymentV1, header }
  }
  if (parsed.x402Version === 2) {
    const accepted = parsed.accepted
    if (
      !isObject(accepted) ||
      !['scheme', 'network', 'amount', 'asset', 'payTo'].every((key) => isString(accepted[key]))
    )
      return {
        kind: 'invalid',
        reason:
          'an x402 v2 payment needs "accepted" with the scheme, network, amount, asset and payTo of the offer it pays',
      }
    return { kind: 'payment', payment: parsed as unknown as PaymentV2, header }
  }
  return {
    kind: 'invalid',
    reason: `unsupported x402Version ${JSON.stringify(parsed.x402Version)}: this service accepts 1 and 2`,
  }
}
