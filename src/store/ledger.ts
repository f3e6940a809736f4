/**
 * The payment ledger: every payment the service has seen, by a stable key, with its state. It is
 * what stops a payment from being used twice — the facilitator's own guard is in one process's
 * memory and `/verify` accepts replays (FACTS.md §x402 on a LiteSVM sandbox) — and it survives a
 * restart, so a payment caught between verify and settle is reconciled, never charged twice.
 *
 *   verifying → rejected                    (the facilitator refused it; nothing moved; may be retried)
 *   verifying → verified → cancelled        (the call failed; never settled; may be retried)
 *   verifying → verified → settling → settled | failed | pending (settle timed out: reconcile)
 *   pending → failed                        (the chain shows it can never settle)
 *   pending → credited → redeeming → settled (it settled, but its call's result was withheld: the
 *                                             next call presenting it for the same route, request
 *                                             and amount runs once, free; a failed redemption goes
 *                                             back to credited)
 */
export type PaymentState =
  | 'verifying'
  | 'rejected'
  | 'verified'
  | 'cancelled'
  | 'settling'
  | 'settled'
  | 'failed'
  | 'pending'
  | 'credited'
  | 'redeeming'

/** States from which the same payment may be presented again: no money moved and none can. */
export const RETRYABLE_STATES: readonly PaymentState[] = ['rejected', 'cancelled']

/** States of a payment left mid-way: what `unresolved()` lists for a restart to reconcile. */
export const OPEN_STATES: readonly PaymentState[] = ['verifying', 'verified', 'settling', 'pending', 'redeeming']

export interface PaymentRecord {
  key: string
  state: PaymentState
  network: string
  /** Price in atomic units. */
  amount: string
  /** `METHOD /path` of the paid call. */
  resource: string
  /**
   * What the call asked for (a hash of its route and body, `requestHash` in src/http/payment-adapter.ts): a
   * credit redeems only this request. Null for records written before it was kept.
   */
  requestHash: string | null
  requestId: string
  payer: string | null
  /** The settlement transaction (signature or hash), once known. */
  transaction: string | null
  /** Why it was rejected, cancelled or failed. */
  reason: string | null
  /**
   * What finds the payment on its chain if its settlement's outcome is lost (JSON, see
   * `src/payments/settlement-check.ts`): the EIP-3009 token, signer, nonce and deadline, or the
   * Solana payer's signature and blockhash.
   */
  evidence: string | null
  createdAt: number
  updatedAt: number
}

export type NewPayment = Pick<PaymentRecord, 'key' | 'network' | 'amount' | 'resource' | 'requestId'> & {
  evidence?: string | null
  requestHash?: string | null
}
export type Claim = { ok: true } | { ok: false; existing: PaymentRecord }

export interface PaymentLedger {
  /**
   * Takes the payment for one call, atomically: succeeds when the key is new or was left in a
   * retryable state; otherwise answers the record that holds it (in flight or settled).
   */
  claim(payment: NewPayment, nowMs?: number): Promise<Claim>
  /** Moves a payment on; `from` guards the transition (false when the record was not in that state). */
  transition(
    key: string,
    from: PaymentState,
    to: PaymentState,
    fields?: Partial<Pick<PaymentRecord, 'payer' | 'transaction' | 'reason'>>,
    nowMs?: number,
  ): Promise<boolean>
  get(key: string): Promise<PaymentRecord | undefined>
  /** Payments left mid-way (OPEN_STATES): what a restart must reconcile. */
  unresolved(): Promise<PaymentRecord[]>
}
