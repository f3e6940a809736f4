/**
 * Calls paid on another rail before they reach the service: an ACP marketplace job, whose buyer paid
 * the marketplace's escrow (spec §1 rule 6: those buyers bypass x402). The seller adapter marks the
 * in-process request it dispatches; nothing on the wire can set the mark, so no HTTP caller can claim
 * an escrow payment.
 */
export interface EscrowPayment {
  /** The rail, recorded as the ledger record's network. */
  rail: 'acp'
  /** The job on that rail (one job, one call: recorded as the ledger key `<rail>:<reference>`). */
  reference: string
  /** What the escrow holds for the call, in USDC atomic units: it must be the route's price. */
  amount: string
  payer: string
}

const escrowed = new WeakMap<Request, EscrowPayment>()

/** Marks an in-process request as paid by `payment`. */
export function markEscrowed(request: Request, payment: EscrowPayment): Request {
  escrowed.set(request, payment)
  return request
}

/** The escrow payment a request was marked with, if any. */
export function escrowOf(request: Request): EscrowPayment | undefined {
  return escrowed.get(request)
}
