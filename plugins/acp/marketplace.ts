/**
 * The ACP marketplace as the seller sees it: jobs move REQUEST → NEGOTIATION → TRANSACTION →
 * EVALUATION → COMPLETED (or REJECTED, EXPIRED); the buyer pays the marketplace's escrow in the
 * TRANSACTION phase and the escrow pays the seller when the delivery is accepted. This thin interface
 * is all the seller uses: `acp-node.ts` implements it on the official `@virtuals-protocol/acp-node`
 * SDK (the live marketplace only), `sandbox/acp/market.ts` on a loopback stand-in (the tests).
 */
export type AcpPhase = 'REQUEST' | 'NEGOTIATION' | 'TRANSACTION' | 'EVALUATION' | 'COMPLETED' | 'REJECTED' | 'EXPIRED'

/** A job that needs the seller: a new request to accept or reject, or a paid one to deliver. */
export interface AcpJob {
  id: string
  phase: AcpPhase
  /** The offering's name (the service's skill id). */
  offering: string
  /** What the buyer asks for: the offering's requirement (the route's request body). */
  requirement: unknown
  /** The price the job carries, in USD (the marketplace's fare; USDC on Base). */
  priceUsd: string
  /** The buyer's wallet. */
  buyer: string
}

/** One offering as the marketplace lists it: name, price and the requirement's JSON schema. */
export interface AcpOffering {
  name: string
  description: string
  priceUsd: string
  requirementSchema: Record<string, unknown>
}

export interface AcpMarket {
  /** Hands every job that needs the seller to `onJob`, until `close`. */
  listen(onJob: (job: AcpJob) => Promise<void>): Promise<void>
  /** Accepts a requested job (REQUEST → NEGOTIATION): the buyer may pay. */
  accept(job: AcpJob, reason: string): Promise<void>
  /** Rejects a job (its escrow, if paid, goes back to the buyer). */
  reject(job: AcpJob, reason: string): Promise<void>
  /** Delivers a paid job's result (TRANSACTION → EVALUATION). */
  deliver(job: AcpJob, deliverable: Record<string, unknown>): Promise<void>
  close(): Promise<void>
}
