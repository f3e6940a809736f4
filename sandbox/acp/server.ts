/**
 * A loopback stand-in of the ACP marketplace's job phases (REQUEST → NEGOTIATION → TRANSACTION →
 * EVALUATION → COMPLETED, or REJECTED), with the escrow's money as balances: the buyer's USDC moves
 * into escrow when it pays, to the seller when it accepts the delivery, back to itself when the job is
 * rejected. It is the marketplace's lifecycle, not its wire protocol (socket.io events and Base
 * contracts, which the official SDK speaks and no stand-in here can): the seller reaches it through
 * `HttpAcpMarket` (market.ts), the buyer through the routes below.
 *
 *   POST /jobs {buyer, provider, offering, requirement, price_usd}   the buyer requests a job
 *   POST /jobs/:id/pay                                               the buyer pays the escrow
 *   POST /jobs/:id/evaluate {accept}                                 the buyer accepts the delivery
 *   POST /jobs/:id/accept|reject|deliver {reason|deliverable}       the seller's moves
 *   GET  /jobs/:id, GET /balances/:wallet, GET /events?provider=&after=   read (events wait up to 1 s)
 */
import type { AcpPhase } from '../../plugins/acp/marketplace.ts'

/** A job as the stand-in keeps and serves it. */
export interface StandInJob {
  id: string
  phase: AcpPhase
  buyer: string
  provider: string
  offering: string
  requirement: unknown
  price_usd: string
  escrow_usd: string
  deliverable: unknown
  reason: string | null
  history: { phase: AcpPhase; at: string; note: string }[]
}

export interface RunningAcpStandIn {
  url: string
  /** Credits `wallet` with USDC (the stand-in's faucet). */
  fund(wallet: string, usd: string): void
  stop(): Promise<void>
}

const micro = (usd: string) => BigInt(Math.round(Number(usd) * 1e6))
const usd = (atomic: bigint) => (Number(atomic) / 1e6).toFixed(6)

export function startAcpStandIn(options: { hostname?: string; port?: number } = {}): RunningAcpStandIn {
  const jobs = new Map<string, StandInJob>()
  const balances = new Map<string, bigint>()
  const events: { seq: number; provider: string; job: StandInJob }[] = []
  const waiters = new Set<() => void>()
  let next = 1

  const balance = (wallet: string) => balances.get(wallet) ?? 0n
  const move = (from: string | null, to: string | null, amount: bigint) => {
    if (from) balances.set(from, balance(from) - amount)
    if (to) balances.set(to, balance(to) + amount)
  }
  /** Moves a job to `phase`; the seller hears of the phases that need it. */
  const advance = (job: StandInJob, phase: AcpPhase, note: string) => {
    job.phase = phase
    job.history.push({ phase, at: new Date().toISOString(), note })
    if (phase === 'REQUEST' || phase === 'TRANSACTION') {
      events.push({ seq: events.length + 1, provider: job.provider, job: structuredClone(job) })
      for (const wake of waiters) wake()
    }
  }
  const json = (body: unknown, status = 200) => Response.json(body, { status })
  const refuse = (message: string, status = 409) => json({ error: message }, status)

  const server = Bun.serve({
    hostname: options.hostname ?? '127.0.0.1',
    port: options.port ?? 0,
    async fetch(request) {
      const url = new URL(request.url)
      const parts = url.pathname.split('/').filter(Boolean)
      const body =
        request.method === 'POST' ? ((await request.json().catch(() => ({}))) as Record<string, unknown>) : {}
      if (request.method === 'GET' && parts[0] === 'events') {
        const provider = url.searchParams.get('provider') ?? ''
        const after = Number(url.searchParams.get('after') ?? 0)
        const pending = () => events.filter((event) => event.seq > after && event.provider === provider)
        if (pending().length === 0)
          await new Promise<void>((resolve) => {
            const wake = () => {
              waiters.delete(wake)
              resolve()
            }
            waiters.add(wake)
            setTimeout(wake, 1_000)
          })
        return json(pending())
      }
      if (request.method === 'GET' && parts[0] === 'balances') return json({ usd: usd(balance(parts[1] ?? '')) })
      if (parts[0] !== 'jobs') return refuse('not found', 404)
      if (request.method === 'POST' && parts.length === 1) {
        const job: StandInJob = {
          id: String(next++),
          phase: 'REQUEST',
          buyer: String(body.buyer),
          provider: String(body.provider),
          offering: String(body.offering),
          requirement: body.requirement,
          price_usd: String(body.price_usd),
          escrow_usd: '0.000000',
          deliverable: null,
          reason: null,
          history: [],
        }
        jobs.set(job.id, job)
        advance(job, 'REQUEST', 'requested by the buyer')
        return json(job, 201)
      }
      const job = jobs.get(parts[1] ?? '')
      if (!job) return refuse(`no job ${parts[1]}`, 404)
      if (request.method === 'GET') return json(job)
      const action = parts[2]
      if (action === 'accept') {
        if (job.phase !== 'REQUEST') return refuse(`job ${job.id} is ${job.phase}, not REQUEST`)
        advance(job, 'NEGOTIATION', String(body.reason ?? 'accepted'))
      } else if (action === 'pay') {
        if (job.phase !== 'NEGOTIATION') return refuse(`job ${job.id} is ${job.phase}, not NEGOTIATION`)
        const price = micro(job.price_usd)
        if (balance(job.buyer) < price) return refuse(`the buyer holds ${usd(balance(job.buyer))} USD`, 402)
        move(job.buyer, null, price)
        job.escrow_usd = usd(price)
        advance(job, 'TRANSACTION', 'paid into escrow')
      } else if (action === 'deliver') {
        if (job.phase !== 'TRANSACTION') return refuse(`job ${job.id} is ${job.phase}, not TRANSACTION`)
        job.deliverable = body.deliverable
        advance(job, 'EVALUATION', 'delivered')
      } else if (action === 'evaluate') {
        if (job.phase !== 'EVALUATION') return refuse(`job ${job.id} is ${job.phase}, not EVALUATION`)
        const escrow = micro(job.escrow_usd)
        job.escrow_usd = usd(0n)
        if (body.accept) {
          move(null, job.provider, escrow)
          advance(job, 'COMPLETED', 'the buyer accepted the delivery: the escrow paid the seller')
        } else {
          move(null, job.buyer, escrow)
          advance(job, 'REJECTED', 'the buyer rejected the delivery: the escrow went back')
        }
      } else if (action === 'reject') {
        if (['COMPLETED', 'REJECTED', 'EXPIRED'].includes(job.phase)) return refuse(`job ${job.id} is ${job.phase}`)
        move(null, job.buyer, micro(job.escrow_usd))
        job.escrow_usd = usd(0n)
        job.reason = String(body.reason ?? '')
        advance(job, 'REJECTED', `rejected by the seller: ${job.reason}`)
      } else return refuse(`no action ${action}`, 404)
      return json(job)
    },
  })
  return {
    url: `http://${server.hostname}:${server.port}`,
    fund: (wallet, amount) => move(null, wallet, micro(amount)),
    async stop() {
      for (const wake of waiters) wake()
      await server.stop(true)
    },
  }
}
