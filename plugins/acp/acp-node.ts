/**
 * The live marketplace: `AcpMarket` on the official `@virtuals-protocol/acp-node` SDK (v2 contracts on
 * Base). The SDK speaks socket.io to the marketplace and signs contract calls through an Alchemy smart
 * account; neither can be pointed at a loopback peer, so this file is the part that runs only against
 * the live marketplace (docs/acp.md). Everything behind the interface — offerings, checks, the escrow's
 * call, the ledger — is tested against the stand-in (test/acp.test.ts).
 */
import type { AcpJob, AcpMarket, AcpPhase } from './marketplace.ts'

export interface AcpNodeSettings {
  /** The whitelisted signer's private key (app.virtuals.io → the agent's Signers tab). */
  privateKey: `0x${string}`
  /** The signer's session entity key id. */
  entityId: number
  /** The agent's smart wallet. */
  agentWallet: `0x${string}`
}

const PHASES: readonly AcpPhase[] = [
  'REQUEST',
  'NEGOTIATION',
  'TRANSACTION',
  'EVALUATION',
  'COMPLETED',
  'REJECTED',
  'EXPIRED',
] // the SDK's AcpJobPhases, by index

type SdkJob = {
  id: number
  phase: number
  name?: string
  requirement?: unknown
  price: number
  clientAddress: string
  accept(reason?: string): Promise<unknown>
  reject(reason?: string): Promise<unknown>
  deliver(deliverable: Record<string, unknown>): Promise<unknown>
}

/** The official SDK behind the seller's interface; it connects when `listen` is called. */
export function acpNodeMarket(settings: AcpNodeSettings): AcpMarket {
  const jobs = new Map<string, SdkJob>()
  const sdkJob = (job: AcpJob) => {
    const found = jobs.get(job.id)
    if (!found) throw new Error(`acp job ${job.id} is not one this seller was told of`)
    return found
  }
  return {
    async listen(onJob) {
      const sdk = await import('@virtuals-protocol/acp-node')
      const contractClient = await sdk.AcpContractClientV2.build(
        settings.privateKey,
        settings.entityId,
        settings.agentWallet,
        sdk.baseAcpConfigV2,
      )
      const client = new sdk.default({
        acpContractClient: contractClient,
        onNewTask: (raw) => {
          const job = raw as unknown as SdkJob
          jobs.set(String(job.id), job)
          void onJob({
            id: String(job.id),
            phase: PHASES[job.phase] ?? 'EXPIRED',
            offering: job.name ?? '',
            requirement: typeof job.requirement === 'string' ? safeJson(job.requirement) : job.requirement,
            priceUsd: String(job.price),
            buyer: job.clientAddress,
          })
        },
      })
      await client.init()
    },
    async accept(job, reason) {
      await sdkJob(job).accept(reason)
    },
    async reject(job, reason) {
      await sdkJob(job).reject(reason)
      jobs.delete(job.id)
    },
    async deliver(job, deliverable) {
      await sdkJob(job).deliver(deliverable)
      jobs.delete(job.id)
    },
    async close() {
      // The SDK exposes no way to close its socket: it lives until the process exits.
      jobs.clear()
    },
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
