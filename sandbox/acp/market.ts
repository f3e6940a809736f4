/**
 * The seller's side of the loopback ACP stand-in (server.ts), behind the same `AcpMarket` interface the
 * official SDK's adapter implements: what the tests and the sandbox run the seller against.
 */
import type { AcpJob, AcpMarket } from '../../plugins/acp/marketplace.ts'
import type { StandInJob } from './server.ts'

export class HttpAcpMarket implements AcpMarket {
  #closed = false
  #listening: Promise<void> | undefined

  constructor(
    readonly url: string,
    /** The seller's wallet: the jobs addressed to it are its. */
    readonly provider: string,
  ) {}

  listen(onJob: (job: AcpJob) => Promise<void>): Promise<void> {
    this.#listening ??= (async () => {
      let after = 0
      while (!this.#closed) {
        const response = await fetch(`${this.url}/events?provider=${this.provider}&after=${after}`).catch(() => null)
        if (!response?.ok) {
          await Bun.sleep(200)
          continue
        }
        for (const event of (await response.json()) as { seq: number; job: StandInJob }[]) {
          after = event.seq
          await onJob({
            id: event.job.id,
            phase: event.job.phase,
            offering: event.job.offering,
            requirement: event.job.requirement,
            priceUsd: event.job.price_usd,
            buyer: event.job.buyer,
          })
        }
      }
    })()
    return Promise.resolve()
  }

  accept(job: AcpJob, reason: string) {
    return this.#post(job, 'accept', { reason })
  }

  reject(job: AcpJob, reason: string) {
    return this.#post(job, 'reject', { reason })
  }

  deliver(job: AcpJob, deliverable: Record<string, unknown>) {
    return this.#post(job, 'deliver', { deliverable })
  }

  async close(): Promise<void> {
    this.#closed = true
    await this.#listening
  }

  async #post(job: AcpJob, action: string, body: unknown): Promise<void> {
    const response = await fetch(`${this.url}/jobs/${job.id}/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`acp ${action} of job ${job.id}: ${response.status} ${await response.text()}`)
  }
}
