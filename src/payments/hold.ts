/**
 * The deferred mode (trade execute, docs/trade.md#fees): a payment admitted and held now, settled only
 * once the work it pays for succeeded (the swap confirmed), else released. Results, not HTTP: a call
 * that cannot be held answers its challenge or refusal, which the HTTP adapter maps.
 */
import type { Challenge, PaidCall, Payments, Refusal, Settlement } from './payments.ts'

/** A verified payment held for one call: settle it when the work succeeded, else cancel it. */
export interface PaymentHold {
  /** The payment's ledger key: where its fate can be read later. Null when nothing is recorded. */
  readonly key: string | null
  readonly payer: string | null
  /** Settles once: the receipt, or why it did not settle (the ledger says what became of it). */
  settle(): Promise<Settlement>
  /** Releases the payment unsettled (the caller may present it again). */
  cancel(reason: string): Promise<void>
  /** Whether settle or cancel was already called (each may be called once, and not both). */
  readonly concluded: boolean
}

/** The payment is held for the call. */
export interface Held {
  kind: 'held'
  hold: PaymentHold
}

/** Admits the call's payment and holds it: settled or cancelled later, once, by whoever holds it. */
export async function holdCall(payments: Payments, call: PaidCall): Promise<Held | Challenge | Refusal> {
  const admission = await payments.admit(call)
  if (admission.kind !== 'paid') return admission
  const { ticket } = admission
  let done = false
  // Settling twice would charge twice, and settling a cancelled payment would charge for nothing.
  const once = () => {
    if (done) throw new Error('this payment hold was already settled or cancelled')
    done = true
  }
  return {
    kind: 'held',
    hold: {
      key: ticket.key,
      payer: ticket.payer,
      async settle() {
        once()
        return payments.settle(ticket, call)
      },
      async cancel(reason: string) {
        once()
        await payments.release(ticket, reason)
      },
      get concluded() {
        return done
      },
    },
  }
}
