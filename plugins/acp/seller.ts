import { Value } from '@sinclair/typebox/value'
import type { ServiceContext } from '../../src/context.ts'
import type { Service } from '../../src/http/front-door.ts'
import { priceInWords, type RegisteredRoute, usdToAtomicUsdc } from '../../src/kernel/manifest.ts'
import { addressProblem } from '../../src/onchain/address.ts'
import { markEscrowed } from '../../src/payments/escrow.ts'
import type { AcpJob, AcpMarket, AcpOffering } from './marketplace.ts'

/**
 * The routes the marketplace sells: every priced route of a skill, charged on answer (a route whose
 * payment waits for an outcome — trade execute — needs the buyer's own signature and is not offered;
 * nor is a route priced per unit of its request: an offering has one price).
 */
function offered(ctx: ServiceContext): RegisteredRoute[] {
  return ctx.registry
    .routes()
    .filter(
      (route) =>
        route.price !== 'free' && !route.price.per && !route.deferredPayment && route.skill !== undefined && route.body,
    )
}

/** The marketplace offerings, from the manifests: the skill id, its price, the route's body schema. */
export function acpOfferings(ctx: ServiceContext): AcpOffering[] {
  return offered(ctx).map((route) => ({
    name: route.skill!,
    description: `${route.summary}. ${route.description}`,
    priceUsd: (route.price as { usd: string }).usd,
    requirementSchema: JSON.parse(JSON.stringify(route.body)) as Record<string, unknown>,
  }))
}

/**
 * The ACP seller: accepts a requested job whose offering, price and requirement are right (the route's
 * own checks), and when its escrow is paid runs it as the route's HTTP call through the front door — the
 * same scanner code, the answer delivered as the same JSON — with the call marked as paid by the escrow,
 * so the ledger records it once, on the `acp` rail, and no x402 payment is asked. A call that fails is
 * rejected, which returns the escrow to the buyer.
 */
export function acpSeller(ctx: ServiceContext, service: Service, market: AcpMarket) {
  const routes = new Map(offered(ctx).map((route) => [route.skill!, route]))
  const origin = ctx.config.PUBLIC_URL ?? `http://${ctx.config.HOST}:${ctx.config.PORT}`

  /** Why a requested job cannot be taken, or null when it can. */
  function refusal(job: AcpJob): string | null {
    const route = routes.get(job.offering)
    if (!route) return `no offering named ${job.offering}: this seller offers ${[...routes.keys()].join(', ')}`
    const price = (route.price as { usd: string }).usd
    if (usdToAtomicUsdc(job.priceUsd) !== usdToAtomicUsdc(price))
      return `${job.offering} costs ${priceInWords(route)}; this job carries ${job.priceUsd} USD`
    const problem = addressProblem(route, job.requirement)
    if (problem) return problem.message
    if (!Value.Check(route.body!, job.requirement))
      return `the requirement does not match ${job.offering}'s schema: ${[...Value.Errors(route.body!, job.requirement)].map((error) => `${error.path || '/'} ${error.message}`).join('; ')}`
    return null
  }

  async function handle(job: AcpJob): Promise<void> {
    if (job.phase === 'REQUEST') {
      const why = refusal(job)
      if (why) await market.reject(job, why)
      else await market.accept(job, `accepted: ${job.offering} at ${job.priceUsd} USD`)
      return
    }
    if (job.phase !== 'TRANSACTION') return
    const route = routes.get(job.offering)
    const why = refusal(job)
    if (!route || why) {
      await market.reject(job, why ?? 'unknown offering')
      return
    }
    const request = markEscrowed(
      new Request(`${origin}${route.path}`, {
        method: route.method,
        headers: { 'content-type': 'application/json', 'x-request-id': `acp-${job.id}` },
        body: JSON.stringify(job.requirement),
      }),
      { rail: 'acp', reference: job.id, amount: usdToAtomicUsdc(job.priceUsd), payer: job.buyer },
    )
    const response = await service.handle(request)
    const answer = (await response.json()) as Record<string, unknown>
    if (response.ok) await market.deliver(job, answer)
    else
      await market.reject(
        job,
        `the call failed (${response.status} ${String(answer.code ?? '')}: ${String(answer.message ?? '')}); nothing was charged`,
      )
  }

  return {
    offerings: () => acpOfferings(ctx),
    /** Serves the marketplace's jobs until `market.close()`. */
    start: () =>
      market.listen(async (job) => {
        try {
          await handle(job)
        } catch (error) {
          ctx.logger.error({ job_id: job.id, err: (error as Error).message }, 'acp job failed')
        }
      }),
  }
}
