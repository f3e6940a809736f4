import type { TSchema } from '@sinclair/typebox'
import type { ServiceContext } from '../context.ts'
import { atomicPriceOf, atomicUsdcToUsd, type Price, responseSchemas, type RouteSpec } from '../kernel/manifest.ts'
import { paymentHooks } from './payment-adapter.ts'
import { accountCheck, type BesideCheck } from './account-check.ts'
import { paymentRails } from '../payments/rails.ts'

type SchemaOf<Spec, Key extends 'body' | 'params'> = Spec extends { [K in Key]: infer S extends TSchema }
  ? S
  : undefined

/**
 * Elysia hook options for a manifest route: its schemas (validated at runtime and published in
 * OpenAPI), its OpenAPI detail and, for a priced route, `x-payment-info` and its payment (the hooks
 * of src/http/payment-adapter.ts; a `deferredPayment` route holds its payment in its handler instead) and the
 * check of the accounts it is given (src/http/account-check.ts).
 * Plugins pass this as the third argument of `.get`/`.post`, so the manifest stays the only place a
 * schema or a price is written, and a priced route cannot be served free.
 */
export function routeOptions<const Spec extends RouteSpec>(
  ctx: ServiceContext,
  spec: Spec,
  options: { besideCheck?: BesideCheck } = {},
) {
  return {
    body: spec.body as SchemaOf<Spec, 'body'>,
    params: spec.params as SchemaOf<Spec, 'params'>,
    response: responseSchemas(spec) as { 200: Spec['response'] } & Record<number, TSchema>,
    // A named parser makes OpenAPI publish application/json as the only request media type.
    ...(spec.body ? { parse: 'json' as const } : {}),
    ...hooksOf(ctx, spec, options.besideCheck),
    detail: {
      summary: spec.summary,
      description: spec.description,
      tags: spec.tags,
      ...(spec.price === 'free' ? {} : { 'x-payment-info': paymentInfo(ctx, spec.price) }),
    },
  }
}

/**
 * The hooks around a route's handler: its payment (admitted before, settled or released after), then
 * the check of the accounts its manifest declares (src/http/account-check.ts) — after the admission, so
 * the 402 challenge reads nothing, and before the handler, so a refused call is answered nothing but
 * its refusal and, its payment released by the error hook, is never charged. `beside` (a scanner's
 * facts) starts with the check's reads, so the two share their first round trip.
 */
function hooksOf(ctx: ServiceContext, spec: RouteSpec, beside?: BesideCheck) {
  const payment = spec.price !== 'free' && !spec.deferredPayment ? paymentHooks(ctx, spec) : undefined
  const check = accountCheck(ctx, spec, beside)
  if (!check) return payment ?? {}
  return { ...payment, beforeHandle: payment ? [payment.beforeHandle, check] : check }
}

/**
 * The `x-payment-info` OpenAPI extension of a paid route: in the shape x402 directories read — `price`
 * `{mode: "fixed", currency: "USD", amount}` and `protocols: [{x402: {x402Version, scheme, accepts}}]`
 * (each configured rail's network, asset, payee and atomic amount: only the rails whose PAY_TO_* is
 * set) — with the earlier members kept for clients that read them (`price_usd`, `amount`, `currency`,
 * `decimals`, `scheme`, `networks`).
 *
 * A price per unit (docs/payments.md, "Prices per unit") is `{mode: "dynamic", currency, min, max}` —
 * one unit's price to `max` units' — with `per_unit` `{amount, unit, min_units, max_units}` saying how
 * it is counted; the rails' `accepts` carry no amount (the 402 of each request names it), and the
 * earlier members `price_usd` and `amount` are the most one call can cost, so a client reading them as
 * its cap never pays more than the route can ask.
 */
export function paymentInfo(ctx: ServiceContext, price: Exclude<Price, 'free'>) {
  const per = price.per
  const amount = atomicPriceOf(price, per?.max ?? 1)
  const rails = paymentRails(ctx.config)
  return {
    price: per
      ? { mode: 'dynamic', currency: 'USD', min: price.usd, max: atomicUsdcToUsd(amount) }
      : { mode: 'fixed', currency: 'USD', amount: price.usd },
    ...(per ? { per_unit: { amount: price.usd, unit: per.unit, min_units: 1, max_units: per.max } } : {}),
    protocols: [
      {
        x402: {
          x402Version: 2,
          scheme: 'exact',
          accepts: rails.map((rail) => ({
            network: rail.network,
            asset: rail.asset,
            payTo: rail.payTo,
            ...(per ? {} : { amount }),
          })),
        },
      },
    ],
    price_usd: per ? atomicUsdcToUsd(amount) : price.usd,
    amount,
    currency: 'USDC',
    decimals: 6,
    scheme: 'exact',
    networks: rails.map((rail) => rail.network),
  }
}
