import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { publicOrigin, requestIdOf } from '../../src/http/request.ts'
import { routeOptions } from '../../src/http/route-options.ts'
import { ApiError, errorBody } from '../../src/kernel/errors.ts'
import { answer, holdPayment, paymentAnswer, receiptHeaders } from '../../src/http/payment-adapter.ts'
import { paymentRails } from '../../src/payments/rails.ts'
import { offerableRails } from '../../src/payments/challenge.ts'
import { verifySignIn } from '../../src/payments/sign-in.ts'
import { CallMeter } from '../../src/sources/upstream.ts'
import { SCHEMA_VERSION } from '../../src/kernel/version.ts'
import { executeTrade } from './execute.ts'
import { tradeAnswer, type TradeOutcome } from './outcome.ts'
import { expireQuote, quoteExpired, resolveJob } from './job-recovery.ts'
import { Jobs, jobView } from './job.ts'
import { manifest } from './manifest.ts'
import { quoteTrade } from './quote.ts'

export { manifest }

/** Seconds to wait before asking again for the token list when the aggregator cannot be reached. */
const RETRY_AFTER_S = 5

/**
 * The swap executor (sol_trade): free quote with a risk gate, paid execute (charged on CONFIRMED),
 * job status, verified pairs and payment currencies. docs/trade.md.
 */
export function tradePlugin(ctx: ServiceContext) {
  ctx.registry.register(manifest)
  const { quote, execute, status, pairs, currencies } = manifest.routes
  const jobs = new Jobs(ctx.store.jobs)
  const hold = holdPayment(ctx, execute)

  return new Elysia({ name: 'plugin:trade' })
    .post(
      quote.path,
      // Handlers destructure what they read: Elysia parses only what a handler names (docs/architecture.md).
      async function tradeQuoteRoute({ request, body, set }) {
        // Proof of a job's wallet, for this service's quote URL as the payment code builds a resource's.
        const header = request.headers.get('sign-in-with-x')
        const signedIn = async () =>
          header === null ? null : verifySignIn(header, `${publicOrigin(ctx, request)}${quote.path}`)
        return answer({ set }, reply(await quoteTrade(ctx, jobs, body, signedIn), requestIdOf(request)))
      },
      routeOptions(ctx, quote),
    )
    .post(
      execute.path,
      async function tradeExecuteRoute({ request, body, set }) {
        const requestId = requestIdOf(request)
        const held = () => hold({ request, body, set })
        return answer({ set }, reply(await executeTrade({ ctx, jobs, hold: held, requestId }, body), requestId))
      },
      routeOptions(ctx, execute),
    )
    .get(
      status.path,
      async function tradeStatusRoute({ request, params, set }) {
        let job = await jobs.get(params.job_id)
        if (!job)
          return answer({ set }, tradeAnswer({ kind: 'job_not_found', job_id: params.job_id }, requestIdOf(request)))
        if (quoteExpired(job)) job = (await expireQuote(jobs, job)) ?? (await jobs.current(job.job_id))
        job = await resolveJob(ctx, jobs, job)
        return jobView(job)
      },
      routeOptions(ctx, status),
    )
    .get(
      pairs.path,
      async function tradePairsRoute({ request, set }) {
        try {
          if (!ctx.sources.jupiter) throw new Error('no token list is configured (JUPITER_URL)')
          const verified = await ctx.sources.jupiter.tagged('verified', new CallMeter())
          const list = verified
            .map((token) => ({ mint: token.id, symbol: token.symbol, name: token.name, decimals: token.decimals }))
            .sort((a, b) => a.symbol.localeCompare(b.symbol))
          return { schema_version: SCHEMA_VERSION, count: list.length, pairs: list }
        } catch (error) {
          set.status = 503
          set.headers['retry-after'] = String(RETRY_AFTER_S)
          const message = `the aggregator's token list cannot be read (${(error as Error).message}): retry after ${RETRY_AFTER_S} s`
          return errorBody(
            new ApiError('UPSTREAM_UNAVAILABLE', { message, details: { retry_after_s: RETRY_AFTER_S } }),
            requestIdOf(request),
          )
        }
      },
      routeOptions(ctx, pairs),
    )
    .get(
      currencies.path,
      function tradeCurrenciesRoute() {
        const rails = paymentRails(ctx.config)
        const offered = offerableRails(rails, ctx.payments.supported)
        return {
          schema_version: SCHEMA_VERSION,
          currencies: rails.map((rail) => ({
            currency: 'USDC' as const,
            decimals: 6 as const,
            chain: rail.name,
            network: rail.network,
            asset: rail.asset,
            pay_to: rail.payTo,
            accepted: offered.includes(rail),
          })),
          prices: ctx.registry.prices().map((price) => ({
            route: price.route,
            skill: price.skill ?? null,
            usd: price.usd,
            amount: price.atomic,
            ...(price.per ? { per_unit: { unit: price.per.unit, max_units: price.per.max } } : {}),
          })),
        }
      },
      routeOptions(ctx, currencies),
    )
}

/**
 * An outcome as HTTP: the fee's challenge or refusal, and the receipt of a fee settled, as the payment
 * adapter answers every paid call's; the rest as the trade answers it (tradeAnswer).
 */
function reply(
  outcome: TradeOutcome,
  requestId: string,
): { status: number; body: unknown; headers?: Record<string, string> } {
  if (outcome.kind === 'payment') return paymentAnswer(outcome.refusal, requestId)
  const answered = tradeAnswer(outcome, requestId)
  if (outcome.kind === 'confirmed' && outcome.receipt) return { ...answered, headers: receiptHeaders(outcome.receipt) }
  return answered
}

tradePlugin.manifest = manifest
