/**
 * What a paid call needs from payments, free of HTTP (the x402 packages' split: a core that answers
 * results, adapters that speak a transport). Every step answers a typed result — `paid`, `replay`,
 * `challenge`, `refusal`, `settled` — and `src/http/payment-adapter.ts`, the one adapter, maps each to
 * an HTTP answer. `PaymentGate` (gate.ts) is the implementation over a facilitator and the ledger;
 * `UNCONFIGURED_PAYMENTS` stands in when none is configured, so no caller needs to know which it has.
 */
import type { ErrorCode } from '../kernel/errors.ts'
import type { StoredAnswer } from '../store/answers.ts'
import type { PaymentRecord } from '../store/ledger.ts'
import type { RouteDiscovery } from './discovery.ts'
import type { OfferV1, OfferV2, Supported } from './challenge.ts'
import type { EscrowPayment } from './escrow.ts'
import type { SettleAnswer } from './facilitator.ts'
import type { PaymentErrorCode } from './payment-errors.ts'

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

/** The x402 challenge of a call: the v2 `PaymentRequired` (base64) and the v1 body with the same offers. */
export interface PaymentRequired {
  header: string
  body: { x402Version: number; error: string; accepts: OfferV1[] }
}

/** A settlement sent whose outcome is not known yet: the transaction, when the facilitator named one. */
export interface PendingSettlement {
  transaction: string | null
}

/** The call's payment is verified and claimed: the call may run, and its ticket settles or releases it. */
export interface Paid {
  kind: 'paid'
  ticket: Ticket
}

/** An answer the caller already paid for, served again without a new payment (answers.ts). */
export interface Replay {
  kind: 'replay'
  answer: StoredAnswer
  /** What proved the caller paid for it: the payment's identifier, or the payer signing in. */
  how: 'payment-identifier' | 'sign-in-with-x'
}

/**
 * The caller must (re)pay — no payment, one malformed, used, refused by the facilitator, or a settlement
 * that failed (the result withheld) — with the challenge to pay. With `pending`, the payment was sent
 * for settlement and its outcome is being read from the chain: the caller presents the same payment
 * with the same request again later to collect the answer, never a new one.
 */
export interface Challenge {
  kind: 'challenge'
  /** Why, for people: what happened and what to do. */
  reason: string
  /** Why, for machines: absent when no payment was presented (the plain ask to pay). */
  code?: PaymentErrorCode
  required: PaymentRequired
  pending?: PendingSettlement
}

/**
 * The call is refused without a challenge: no payment can be taken or recorded now (no facilitator, or
 * it does not answer; the ledger away), or what came with the payment cannot be used (a malformed
 * payment identifier, one held for another call, a sign-in that does not verify). Nothing was charged.
 * The catalogue code says which, and with it the status (src/kernel/errors.ts).
 */
export interface Refusal {
  kind: 'refusal'
  code: Extract<ErrorCode, 'FACILITATOR_UNAVAILABLE' | 'LEDGER_UNAVAILABLE' | 'PAYMENT_ID_CONFLICT' | 'INVALID_REQUEST'>
  /** Said to the caller; the catalogue's message when absent. */
  message?: string
  details?: Record<string, unknown>
  /** When to try again, in seconds, if waiting helps. */
  retryAfterS?: number
  /** What went wrong underneath (a store's error): logged with the answer, never shown to the caller. */
  cause?: unknown
}

/** The payment settled: the receipt (null when there is none to show, as for waived payments). */
export interface Settled {
  kind: 'settled'
  receipt: SettleAnswer | null
  /**
   * With `recordLater` (SettleOptions): records the settlement in the ledger, to be called once the
   * call's answer is kept. Until then the ledger holds the payment `settling`, so an instance that
   * dies between the settlement and its answer leaves it to recovery (read from the chain: credited,
   * owed the call), never `settled` with no answer anywhere.
   */
  record?: () => Promise<void>
}

/** How to settle: `recordLater` — the ledger records the settlement when `Settled.record` is called. */
export interface SettleOptions {
  recordLater?: boolean
}

/** What admitting a call's payment answers. */
export type Admission = Paid | Challenge | Refusal

/**
 * What settling an admitted payment answers: settled, or the result withheld — a challenge (the
 * settlement failed, or its outcome is pending) or a refusal (it could not even be recorded, so nothing
 * was sent and the same payment may be presented again).
 */
export type Settlement = Settled | Challenge | Refusal

/** Payments of the priced routes, whatever takes them. */
export interface Payments {
  /** Reads, matches, claims and verifies the call's payment. */
  admit(call: PaidCall): Promise<Admission>
  /** Settles an admitted payment (once). */
  settle(ticket: Ticket, call: PaidCall, options?: SettleOptions): Promise<Settlement>
  /** Gives an admitted payment back unsettled: it may be presented again. */
  release(ticket: Ticket, reason: string): Promise<void>
  /** What the facilitator settles (its /supported): which rails can be offered now. */
  readonly supported: Supported
  /** The offers of a call at `amount` (atomic USDC): exactly what a payment must match. */
  offers(amount: string): OfferV2[]
  /** A payment's ledger record, by its key (a trade's fee is read from it). */
  record(key: string): Promise<PaymentRecord | undefined>
  /**
   * Consumes a credit for the work it paid for, delivered by other means (a trade whose fee settled on
   * chain after the service stopped, then confirmed): credited → settled. False when it is not a credit.
   */
  consumeCredit(key: string, reason: string): Promise<boolean>
  /** At boot, before serving: settles the books a previous run left open (PaymentRecovery.reconcile). */
  reconcile(): Promise<{ released: number; pending: number }>
  /** Starts the background work (the facilitator's /supported, the resolver of pending payments). */
  start(retryMs?: number): Promise<void>
  /** Stops the background work. */
  stop(): Promise<void>
  /** Reads the chain for every pending payment now (the resolver runs this every 30 s). */
  resolvePending(nowMs?: number): Promise<{ credited: number; failed: number; pending: number }>
}

const NO_FACILITATOR =
  'no payment facilitator is configured (FACILITATOR_URL), so no payment can be taken: nothing was charged'

/**
 * Payments without a facilitator (no FACILITATOR_URL): nothing can be taken, so every paid call is
 * refused; nothing is offered, recorded or running.
 */
export const UNCONFIGURED_PAYMENTS: Payments = {
  async admit() {
    return { kind: 'refusal', code: 'FACILITATOR_UNAVAILABLE', message: NO_FACILITATOR }
  },
  // Never reached: nothing is admitted, so nothing is settled.
  async settle() {
    return { kind: 'refusal', code: 'FACILITATOR_UNAVAILABLE', message: NO_FACILITATOR }
  },
  async release() {},
  supported: new Map(),
  offers: () => [],
  record: async () => undefined,
  consumeCredit: async () => false,
  reconcile: async () => ({ released: 0, pending: 0 }),
  async start() {},
  async stop() {},
  resolvePending: async () => ({ credited: 0, failed: 0, pending: 0 }),
}
