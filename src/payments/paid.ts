import type { ServiceContext } from '../context.ts'
import { publicOrigin } from '../core/route-options.ts'
import { ApiError, errorBody } from '../errors.ts'
import { usdToAtomicUsdc, type RouteSpec } from '../manifest.ts'

/** What a route handler receives from Elysia that the gate needs. */
interface HandlerContext {
  request: Request
  set: { status?: number | string; headers: Record<string, string | number> }
}

/**
 * The x402 gate (src/payments/gate.ts) for a paid route: `paid(ctx, spec)` once, then inside the
 * handler `return charge(context, () => work())`. Elysia validates the request before any handler
 * runs, so a bad request gets its 400 and is never asked for money. The price, route and description
 * come from the manifest.
 */
export function paid(ctx: ServiceContext, spec: RouteSpec) {
  if (spec.price === 'free') throw new Error(`${spec.method} ${spec.path} is free: do not wrap it in paid()`)
  const amount = usdToAtomicUsdc(spec.price.usd)
  const resource = `${spec.method} ${spec.path}`
  return async function charge<R>(context: HandlerContext, work: () => Promise<R>): Promise<R | unknown> {
    const gate = ctx.payments
    if (gate === 'waived') return work()
    const requestId = String(context.set.headers['x-request-id'] ?? '')
    if (gate === null) {
      context.set.status = 503
      return errorBody(new ApiError('FACILITATOR_UNAVAILABLE', { message: 'no payment facilitator is configured (FACILITATOR_URL), so no payment can be taken: nothing was charged' }), requestId)
    }
    const answer = await gate.run(
      { headers: context.request.headers, url: `${publicOrigin(ctx, context.request)}${spec.path}`, resource, description: spec.summary, amount, requestId },
      async () => ({ status: 200, body: await work() }),
    )
    context.set.status = answer.status
    Object.assign(context.set.headers, answer.headers)
    return answer.body
  }
}
