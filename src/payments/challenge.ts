import type { RouteDiscovery } from './discovery.ts'
import type { Rail } from './rails.ts'

/** How long a payer has to sign and send a payment for a challenge (both rails). */
export const MAX_TIMEOUT_SECONDS = 120

/** One v2 offer (`accepts[]` entry of the `payment-required` header). */
export interface OfferV2 {
  scheme: 'exact'
  network: string
  amount: string
  asset: string
  payTo: string
  maxTimeoutSeconds: number
  extra: Record<string, string>
}

/** One v1 offer (`accepts[]` entry of the 402 body): the v2 offer's terms with the resource inline. */
export interface OfferV1 {
  scheme: 'exact'
  network: string
  maxAmountRequired: string
  asset: string
  payTo: string
  resource: string
  description: string
  mimeType: string
  maxTimeoutSeconds: number
  extra: Record<string, string>
}

export interface ChallengeInput {
  rails: Rail[]
  /** What the facilitator settles (its /supported `exact` kinds): network (CAIP-2 or v1 name) → the kind's `extra`. */
  supported: Supported
  /** Price in USDC atomic units. */
  amount: string
  /** The full URL of the paid resource. */
  resource: string
  description: string
  /** Why the challenge is sent: no payment, or what was wrong with the one sent. */
  reason: string
  /** The resource's service name and tags, and the extensions directories read (Bazaar). */
  discovery?: RouteDiscovery
  /** Further extensions offered (payment-identifier, sign-in-with-x). */
  extensions?: Record<string, unknown>
}

/** The facilitator's `exact` kinds: network (CAIP-2 id, or a v1 short name) → the kind's `extra`. */
export type Supported = Map<string, Record<string, unknown>>

/** What the facilitator says about a rail's network, under its CAIP-2 id or its v1 name. */
function supportOf(rail: Rail, supported: Supported): Record<string, unknown> | undefined {
  return supported.get(rail.network) ?? (rail.v1Network ? supported.get(rail.v1Network) : undefined)
}

/** The Solana fee payer the facilitator names for a rail (`extra.feePayer`), if any. */
function feePayerOf(rail: Rail, supported: Supported): string | undefined {
  const feePayer = supportOf(rail, supported)?.feePayer
  return typeof feePayer === 'string' ? feePayer : undefined
}

/**
 * The rails that can be offered: a payTo and an asset configured, the facilitator settling the
 * network and, on Solana, naming its fee payer (without it no payer can build the transaction).
 */
export function offerableRails(rails: Rail[], supported: Supported): Rail[] {
  return rails.filter(
    (rail) =>
      rail.payTo && rail.asset && supportOf(rail, supported) && (rail.name !== 'solana' || feePayerOf(rail, supported)),
  )
}

/** The v2 offers: exactly what a payment must match, field for field. */
export function offersV2(input: Omit<ChallengeInput, 'resource' | 'description' | 'reason'>): OfferV2[] {
  return offerableRails(input.rails, input.supported).map((rail) => ({
    scheme: 'exact',
    network: rail.network,
    amount: input.amount,
    asset: rail.asset,
    payTo: rail.payTo!,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    extra: rail.name === 'solana' ? { feePayer: feePayerOf(rail, input.supported)! } : rail.extra,
  }))
}

/**
 * The 402 challenge in both protocol generations (FACTS.md §x402): the v2 `PaymentRequired` for the
 * base64 `payment-required` header, and the v1 body with the same offers. v1 names networks by short
 * names, so a rail without one (a local anvil chain) appears in the header only.
 */
export function paymentChallenge(input: ChallengeInput) {
  const accepts = offersV2(input)
  const resource = {
    url: input.resource,
    description: input.description,
    mimeType: 'application/json',
    ...(input.discovery ? { serviceName: input.discovery.serviceName, tags: input.discovery.tags } : {}),
  }
  const header = {
    x402Version: 2,
    error: input.reason,
    resource,
    accepts,
    ...(input.discovery || input.extensions
      ? { extensions: { ...input.discovery?.extensions, ...input.extensions } }
      : {}),
  }
  const v1 = accepts.flatMap((offer): OfferV1[] => {
    const name = input.rails.find((rail) => rail.network === offer.network)?.v1Network
    if (!name) return []
    const { amount, ...terms } = offer
    return [
      {
        ...terms,
        network: name,
        maxAmountRequired: amount,
        resource: input.resource,
        description: input.description,
        mimeType: 'application/json',
      },
    ]
  })
  return {
    header: Buffer.from(JSON.stringify(header)).toString('base64'),
    headerPayload: header,
    body: { x402Version: 1, error: input.reason, accepts: v1 },
  }
}
