/**
 * `GET /swap/v2/order` (Jupiter Swap API v2) without a `taker`: a quote and no transaction, which is
 * what Jupiter answers a price check ("Without `taker`, you get a quote but no transaction"). The
 * members are ones Jupiter documents for the 200 answer (jup-ag/docs openapi-spec/swap/v2/swap.yaml,
 * GetOrder; test/fixtures/recorded/jupiter/order-v2-*), none other. ExactIn only, as v2 serves.
 * The stand-in builds no `/order` transaction (the service builds trades with `/build`): a `taker` is
 * refused with the documented 400 shape, `{ requestId, error }`.
 */
import type { World } from '../world/world.ts'
import { ok, type Outcome, type Refusal } from './errors.ts'
import { parametersOf } from './params.ts'
import {
  findRoute,
  formatFraction,
  inV2Shape,
  type QuoteTerms,
  quoteFromQuery,
  routePriceImpact,
  type V2RoutePlanStep,
} from './quote.ts'

/** Jupiter's words when no router quotes the pair (the Ultra /order docs' 400 answer). */
export const NO_QUOTES = 'Failed to get quotes'

/** The answer of `GET /swap/v2/order` without a taker, in Jupiter's documented shape. */
export interface OrderResponse extends QuoteTerms {
  /** "ultra" without optional parameters, "manual" with (here: slippageBps). */
  mode: 'ultra' | 'manual'
  /** Percentage points, negative when the output is worth less than the input (-0.1 is a 0.1 % loss). */
  priceImpact: number
  /** Deprecated by Jupiter: the same as a fraction ("-0.001"). */
  priceImpactPct: string
  routePlan: V2RoutePlanStep[]
  /** The stand-in routes on its own pools, as Jupiter's Metis router does. */
  router: 'metis'
  /** Null: no taker, no transaction. */
  transaction: null
  taker: null
  requestId: string
  /** Milliseconds spent quoting. */
  totalTime: number
}

/** The documented 400 body of `/order`. */
function refused(status: number, error: string): Refusal {
  return { ok: false, status, body: { requestId: crypto.randomUUID(), error } }
}

/**
 * Answers `GET /swap/v2/order` from its query string: the route priced on the pools as they stand (the
 * v1 quote's pricing), without slippage unless asked (Jupiter then picks one; the stand-in its default).
 */
export function orderFromQuery(world: World, query: URLSearchParams): Outcome<OrderResponse> {
  const started = performance.now()
  if (query.get('taker') !== null)
    return refused(
      400,
      'The sandbox aggregator answers /swap/v2/order as a quote only (no taker): build a transaction with /swap/v2/build',
    )
  const quoteQuery = parametersOf(query, ['inputMint', 'outputMint', 'amount', 'slippageBps', 'swapMode'])
  const quoted = quoteFromQuery(world, quoteQuery)
  if (!quoted.ok) {
    // /order's refusals carry no routing code: a route not found reads as Jupiter words it.
    const noQuote = quoted.body.errorCode === 'COULD_NOT_FIND_ANY_ROUTE'
    return refused(quoted.status, noQuote ? NO_QUOTES : quoted.body.error)
  }
  const quote = quoted.value
  const hops = findRoute(world.pools, quote.inputMint, quote.outputMint, BigInt(quote.inAmount), {
    onlyDirectRoutes: false,
  })!
  const impact = routePriceImpact(hops)
  const answer: OrderResponse = {
    mode: query.get('slippageBps') === null ? 'ultra' : 'manual',
    ...inV2Shape(quote),
    priceImpact: impact > 0 ? -impact * 100 : 0,
    priceImpactPct: impact > 0 ? `-${formatFraction(impact)}` : '0',
    router: 'metis',
    transaction: null,
    taker: null,
    requestId: crypto.randomUUID(),
    totalTime: Math.round(performance.now() - started),
  }
  return ok(answer)
}
