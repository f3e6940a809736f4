import type { OfferV2 } from './challenge.ts'
import type { PaymentErrorCode } from './payment-errors.ts'
import type { PaymentV1, PaymentV2 } from './payment-header.ts'
import type { Rail } from './rails.ts'

export type Match = { ok: true; offer: OfferV2 } | { ok: false; reason: string; code: PaymentErrorCode }

/**
 * The offer a payment pays, matched exactly: a v2 payment's `accepted` must repeat one of our offers
 * (scheme, network, amount, asset, payTo); a v1 payment names its offer by scheme and network short
 * name, and the facilitator then checks the signed amount, asset and payTo against that offer.
 */
export function matchOffer(payment: PaymentV1 | PaymentV2, offers: OfferV2[], rails: Rail[]): Match {
  const networks = offers.map((offer) => offer.network).join(', ')
  if (payment.x402Version === 1) {
    const rail = rails.find((entry) => entry.v1Network === payment.network)
    const offer = rail && offers.find((entry) => entry.network === rail.network)
    if (!offer)
      return {
        ok: false,
        code: 'NETWORK_MISMATCH',
        reason: `network "${payment.network}" is not offered for this call (offered: ${offeredV1(offers, rails)})`,
      }
    if (payment.scheme !== offer.scheme)
      return {
        ok: false,
        code: 'INVALID_PAYLOAD',
        reason: `scheme "${payment.scheme}" is not offered: pay with "exact"`,
      }
    return { ok: true, offer }
  }
  const { accepted } = payment
  const offer = offers.find((entry) => entry.network === accepted.network)
  if (!offer)
    return {
      ok: false,
      code: 'NETWORK_MISMATCH',
      reason: `network "${accepted.network}" is not offered for this call (offered: ${networks})`,
    }
  if (accepted.scheme !== offer.scheme)
    return {
      ok: false,
      code: 'INVALID_PAYLOAD',
      reason: `scheme "${accepted.scheme}" is not offered: pay with "exact"`,
    }
  if (accepted.amount !== offer.amount)
    return {
      ok: false,
      code: 'INVALID_AMOUNT',
      reason: `the payment is for ${accepted.amount} atomic units; this call costs ${offer.amount}`,
    }
  if (accepted.asset !== offer.asset)
    return {
      ok: false,
      code: 'INVALID_PAYLOAD',
      reason: `asset ${accepted.asset} is not accepted on ${offer.network}: pay in ${offer.asset}`,
    }
  if (accepted.payTo !== offer.payTo)
    return {
      ok: false,
      code: 'INVALID_PAYLOAD',
      reason: `the payment goes to ${accepted.payTo}; pay ${offer.payTo} as the challenge says`,
    }
  return { ok: true, offer }
}

function offeredV1(offers: OfferV2[], rails: Rail[]): string {
  const names = offers.flatMap((offer) => rails.find((rail) => rail.network === offer.network)?.v1Network ?? [])
  return names.length > 0 ? names.join(', ') : 'none in x402 v1 names'
}
