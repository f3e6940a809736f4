/**
 * What a paid call needs from payments, free of HTTP (the x402 packages' split: a core that answers
 * results, adapters that speak a transport). `PaymentGate` (gate.ts) is the implementation over a
 * facilitator and the ledger; `src/http/payment-adapter.ts` maps its results to HTTP answers.
 */
import type { RouteDiscovery } from './discovery.ts'
import type { OfferV1 } from './challenge.ts'
import type { EscrowPayment } from './escrow.ts'
import type { SettleAnswer } from './facilitator.ts'

/** One paid call, as payments need it. */
export interface PaidCall {
  headers: Headers
  /** The full URL of the resource (the challenge's `resource`). */
  url: string
  /** `METHOD /path`, recorded in the ledger. */
  resource: string
  /** What this call asks for (route and body, hashed): a credit redeems only the request it paid for. */
  requestHash: string
  description: string
  /** Price in USDC atomic units. */
  amount: string
  requestId: string
  /** Paid on another rail before it arrived (an ACP job's escrow): admitted from the ledger, not x402. */
  escrow?: EscrowPayment
  /** What directories read from the challenge: service name, tags, the Bazaar extension (src/payments/discovery.ts). */
  discovery?: RouteDiscovery
}

/** A payment admitted for one call: settle it once the call succeeded, release it otherwise. */
export interface Ticket {
  /** The payment's ledger key (null when nothing is recorded: payments waived in a test). */
  readonly key: string | null
  readonly payer: string | null
}

/** Why a call's payment was not admitted. */
export type Refusal =
  /**
   * The payment is missing, malformed, used, refused by the facilitator: the caller must (re)pay. With
   * `pending`, it was sent for settlement and its outcome is being read from the chain: the caller
   * presents the same payment with the same request again later to collect the answer, never a new one.
   */
  | { kind: 'payment_required'; reason: string; pending?: PendingSettlement }
  /** No payment can be taken now (no facilitator, or it does not answer): nothing was charged. */
  | {
      kind: 'unavailable'
      detail: string
      retryAfterS: number | null
      message?: string
      /** The catalogue code (FACILITATOR_UNAVAILABLE unless the ledger is what cannot be reached). */
      code?: 'LEDGER_UNAVAILABLE'
    }

export type Admission = { ok: true; ticket: Ticket } | { ok: false; refusal: Refusal }

/** A settlement sent whose outcome is not known yet: the transaction, when the facilitator named one. */
export interface PendingSettlement {
  transaction: string | null
}

/** A settlement's outcome: the receipt (null when there is none to show), or why it did not settle. */
export type Settlement =
  | { ok: true; receipt: SettleAnswer | null }
  /**
   * `unavailable`: the settlement could not even be recorded (the ledger was away), so nothing was
   * charged and the call answers that refusal; the same payment may be presented again.
   */
  | { ok: false; reason: string; unavailable?: Refusal; pending?: PendingSettlement }

/** The x402 challenge of a call: the v2 `PaymentRequired` (base64) and the v1 body with the same offers. */
export interface Challenge {
  header: string
  body: { x402Version: number; error: string; accepts: OfferV1[] }
}

export interface Payments {
  /** Reads, matches, claims and verifies the call's payment. */
  admit(call: PaidCall): Promise<Admission>
  /** Settles an admitted payment (once). */
  settle(ticket: Ticket, call: PaidCall): Promise<Settlement>
  /** Gives an admitted payment back unsettled: it may be presented again. */
  release(ticket: Ticket, reason: string): Promise<void>
  /** The challenge to pay `call`, saying why. */
  challenge(call: PaidCall, reason: string): Challenge
}

/** Payments without a facilitator (no FACILITATOR_URL): nothing can be taken, so every paid call is refused. */
export const UNCONFIGURED_PAYMENTS: Payments = {
  async admit() {
    const message =
      'no payment facilitator is configured (FACILITATOR_URL), so no payment can be taken: nothing was charged'
    return {
      ok: false,
      refusal: { kind: 'unavailable', detail: 'no facilitator is configured', retryAfterS: null, message },
    }
  },
  async settle() {
    return { ok: false, reason: 'no facilitator is configured' }
  },
  async release() {},
  challenge(_call, reason) {
    return { header: '', body: { x402Version: 1, error: reason, accepts: [] } }
  },
}
