import type { RouteDiscovery } from './discovery.ts'
import type { Rail } from './rails.ts'

/** How long a payer has to sign and send a payment for a challenge (on every rail). */
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
 * The configured rails that can be offered now: an asset known, the facilitator settling the network
 * and, on Solana, naming its fee payer (without it no payer can build the transaction).
 */
export function offerableRails(rails: Rail[], supported: Supported): Rail[] {
  return rails.filter(
    (rail) => rail.asset && supportOf(rail, supported) && (rail.name !== 'solana' || feePayerOf(rail, supported)),
  )
}

/** The v2 offers: exactly what a payment must match, field for field. */
export function offersV2(input: Omit<ChallengeInput, 'resource' | 'description' | 'reason'>): OfferV2[] {
  return offerableRails(input.rails, input.supported).map((rail) => ({
    scheme: 'exact',
    network: rail.network,
    amount: input.amount,
    asset: rail.asset,
    payTo: rail.payTo,
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
  const { headerPayload, body } = challengeParts(input)
  return { header: Buffer.from(JSON.stringify(headerPayload)).toString('base64'), headerPayload, body }
}

/** The challenge's two parts as objects: the v2 `PaymentRequired` (the header's JSON) and the v1 body. */
function challengeParts(input: ChallengeInput) {
  const accepts = offersV2(input)
  const resource = {
    url: input.resource,
    description: input.description,
    mimeType: 'application/json',
    ...(input.discovery ? { serviceName: input.discovery.serviceName, tags: input.discovery.tags } : {}),
  }
  const headerPayload = {
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
  return { headerPayload, body: { x402Version: 1, error: input.reason, accepts: v1 } }
}

/** Stands for the reason in a template: occurs nowhere else in a challenge. */
const REASON_SLOT = '{{x402 challenge reason}}'
/** Printable ASCII: base64 takes it a character a byte. */
const ASCII = /^[\x20-\x7e]*$/
/** Text that goes into the header's JSON as it is, and into base64 a character a byte: printable ASCII but `"` and `\`. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/
/** Reasons whose encoding a template keeps (the common ones: no payment, a malformed one); others are encoded whole. */
const KEPT_REASONS = 16

/** The v1 body of a 402: the offers with the resource inline. */
export interface PaymentRequiredV1 {
  x402Version: number
  error: string
  accepts: OfferV1[]
}

/** A reason's challenge in base64, but for the slots' region: see `ChallengeTemplate`. */
interface EncodedReason {
  /** Base64 of the bytes before the slots' region, cut where a base64 quantum starts. */
  head: string
  /** The 0–2 bytes between that cut and the first slot (ASCII). */
  lead: string
  /** The bytes after the last slot that complete the region's last quantum (ASCII). */
  tail: string
  /** Base64 of the bytes after those. */
  rest: string
}

/**
 * One route's challenge at one resource URL, serialised once and filled per request. Built by
 * `paymentChallenge` itself (so the bytes are those it writes), from `inputOf(slots)`: the route's input
 * with stand-ins for what changes with every request (the sign-in-with-x nonce and times), each found
 * once in the JSON; `fill` puts in the reason and the slots' values. The header is base64: a reason's
 * encoding is kept, and per request only the few base64 quanta the slots' values fall in are encoded
 * (values as long as their stand-ins keep the quanta where they were), so a 5–6 KB challenge costs one
 * short base64 and a few string joins. Anything else (a value of another length, a template the
 * stand-ins cannot be found in) is built whole by `paymentChallenge` from `inputOf(values)`: the same
 * bytes, the slower way.
 */
export class ChallengeTemplate {
  readonly #inputOf: (values: readonly string[]) => Omit<ChallengeInput, 'reason'>
  /** The header's JSON cut at the reason and at each slot (slots + 2 parts), or null: not cut. */
  readonly #parts: string[] | null
  readonly #slotLengths: number[]
  /** The v1 offers (shared by every answer of this template: frozen). */
  readonly #v1: OfferV1[]
  readonly #encoded = new Map<string, EncodedReason | null>()

  constructor(inputOf: (values: readonly string[]) => Omit<ChallengeInput, 'reason'>, slots: readonly string[]) {
    this.#inputOf = inputOf
    const { headerPayload, body } = challengeParts({ ...inputOf(slots), reason: REASON_SLOT })
    this.#v1 = Object.freeze(
      body.accepts.map((offer) => Object.freeze({ ...offer, extra: Object.freeze({ ...offer.extra }) })),
    ) as OfferV1[]
    this.#slotLengths = slots.map((slot) => slot.length)
    const parts = cut(JSON.stringify(headerPayload), [JSON.stringify(REASON_SLOT), ...slots])
    // The fixed text between slots is spliced into base64 as it is: printable ASCII only.
    this.#parts = parts?.slice(2, -1).every((part) => ASCII.test(part)) ? parts : null
  }

  /** The challenge for `reason`, with `values` in the slots (in the slots' order). */
  fill(reason: string, values: readonly string[]): { header: string; body: PaymentRequiredV1 } {
    return { header: this.#header(reason, values), body: { x402Version: 1, error: reason, accepts: this.#v1 } }
  }

  #header(reason: string, values: readonly string[]): string {
    const parts = this.#parts
    const encoded =
      parts !== null &&
      values.length === this.#slotLengths.length &&
      values.length > 0 &&
      values.every((value, i) => value.length === this.#slotLengths[i] && PLAIN.test(value))
        ? this.#encodedReason(reason, parts)
        : null
    if (!encoded) return paymentChallenge({ ...this.#inputOf(values), reason }).header
    let region = encoded.lead
    for (let i = 0; i < values.length - 1; i++) region += values[i]! + parts![i + 2]!
    region += values[values.length - 1]! + encoded.tail
    return encoded.head + btoa(region) + encoded.rest
  }

  /** `reason`'s encoding, but for the slots' region (kept for the first KEPT_REASONS reasons). */
  #encodedReason(reason: string, parts: string[]): EncodedReason | null {
    const kept = this.#encoded.get(reason)
    if (kept !== undefined) return kept
    const before = Buffer.from(parts[0]! + JSON.stringify(reason) + parts[1]!)
    const after = Buffer.from(parts[parts.length - 1]!)
    const fixed = parts.slice(2, -1).reduce((length, part) => length + part.length, 0)
    const region = this.#slotLengths.reduce((length, slot) => length + slot, fixed)
    const cutAt = before.length - (before.length % 3)
    const lead = before.subarray(cutAt)
    const tailLength = Math.min(after.length, (3 - ((lead.length + region) % 3)) % 3)
    const tail = after.subarray(0, tailLength)
    const ascii = (bytes: Uint8Array) => bytes.every((byte) => byte < 0x80)
    const encoded =
      ascii(lead) && ascii(tail)
        ? {
            head: before.subarray(0, cutAt).toString('base64'),
            lead: lead.toString('latin1'),
            tail: tail.toString('latin1'),
            rest: after.subarray(tailLength).toString('base64'),
          }
        : null
    if (this.#encoded.size < KEPT_REASONS) this.#encoded.set(reason, encoded)
    return encoded
  }
}

/** `text` cut at each marker in turn (each found once, in this order), or null. */
function cut(text: string, markers: readonly string[]): string[] | null {
  const parts: string[] = []
  let from = 0
  for (const marker of markers) {
    const at = text.indexOf(marker, from)
    if (at === -1 || text.indexOf(marker, at + marker.length) !== -1) return null
    parts.push(text.slice(from, at))
    from = at + marker.length
  }
  parts.push(text.slice(from))
  return parts
}
