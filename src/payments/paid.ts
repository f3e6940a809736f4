import type { ServiceContext } from '../context.ts'
import { publicOrigin, requestIdOf } from '../core/route-options.ts'
import { ApiError, errorBody } from '../errors.ts'
import { usdToAtomicUsdc, type RouteSpec } from '../manifest.ts'
import type { GateAnswer, PaidCall, PaymentHold } from './gate.ts'

/** What a route handler receives from Elysia that the gate needs. */
interface HandlerContext {
  request: Request
  /** The validated request body (undefined for a route without one). */
  body?: unknown
  set: { status?: number | string; headers: Record<string, string | number> }
}

/**
 * The x402 gate (src/payments/gate.ts) for a paid route: `paid(ctx, spec)` once, then inside the
 * handler `return charge(context, () => work())`. Elysia validates the request before any handler
 * runs, so a bad request gets its 400 and is never asked for money. The price, route and description
 * come from the manifest.
 */
export function paid(ctx: ServiceContext, spec: RouteSpec) {
  const callOf = paidCallOf(ctx, spec)
  return async function charge<R>(context: HandlerContext, work: () => Promise<R>): Promise<R | unknown> {
    const gate = ctx.payments
    if (gate === 'waived') return work()
    const call = callOf(context)
    if (gate === null) return answer(context, unconfigured(call.requestId))
    return answer(context, await gate.run(call, async () => ({ status: 200, body: await work() })))
  }
}

/**
 * The deferred mode for a paid route whose outcome is known later (trade execute): `holdPayment(ctx,
 * spec)` once, then `await hold(context)` verifies the payment and holds it (or answers why not: the
 * 402 challenge, a 503), and the handler settles or cancels it once the outcome is known.
 */
export function holdPayment(ctx: ServiceContext, spec: RouteSpec) {
  const callOf = paidCallOf(ctx, spec)
  return async function hold(context: HandlerContext): Promise<{ ok: false; answer: GateAnswer } | { ok: true; hold: PaymentHold }> {
    const gate = ctx.payments
    if (gate === 'waived') return { ok: true, hold: WAIVED_HOLD }
    const call = callOf(context)
    if (gate === null) return { ok: false, answer: unconfigured(call.requestId) }
    return gate.hold(call)
  }
}

/** Sets an answer's status and headers on the Elysia context; its body is what the handler returns. */
export function answer(context: Pick<HandlerContext, 'set'>, reply: { status: number; body: unknown; headers?: Record<string, string> }): unknown {
  context.set.status = reply.status
  Object.assign(context.set.headers, reply.headers)
  return reply.body
}

/** A hold when payments are waived (scanner tests and benches): nothing to settle or cancel. */
const WAIVED_HOLD: PaymentHold = { key: null, payer: null, settle: async () => ({ ok: true, settlement: { success: true, transaction: '', network: '' }, headers: {} }), cancel: async () => {} }

function paidCallOf(ctx: ServiceContext, spec: RouteSpec) {
  if (spec.price === 'free') throw new Error(`${spec.method} ${spec.path} is free: do not wrap it in paid()`)
  const amount = usdToAtomicUsdc(spec.price.usd)
  const resource = `${spec.method} ${spec.path}`
  return (context: HandlerContext): PaidCall => ({
    headers: context.request.headers,
    url: `${publicOrigin(ctx, context.request)}${spec.path}`,
    resource,
    requestHash: requestHash(resource, context.body),
    description: spec.summary,
    amount,
    requestId: requestIdOf(context.set),
  })
}

/**
 * A digest of what a call asks for: its route and its body as canonical JSON (keys sorted), so the same
 * request hashes the same whatever order its keys came in.
 */
export function requestHash(resource: string, body: unknown): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical)
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]))
    return value
  }
  return new Bun.CryptoHasher('sha256').update(`${resource}\n${JSON.stringify(canonical(body) ?? null)}`).digest('hex')
}

function unconfigured(requestId: string): GateAnswer {
  const message = 'no payment facilitator is configured (FACILITATOR_URL), so no payment can be taken: nothing was charged'
  return { status: 503, headers: {}, body: errorBody(new ApiError('FACILITATOR_UNAVAILABLE', { message }), requestId) }
}
