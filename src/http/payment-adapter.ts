/**
 * The HTTP adapter of payments (as the x402 packages pair a transport-free core with thin adapters):
 * maps admissions, refusals and settlements to answers — 402 with the challenge, 503 when no payment
 * can be taken, receipts in `PAYMENT-RESPONSE` / `X-PAYMENT-RESPONSE` — and mounts payment on every
 * priced route from its manifest entry (`paymentHooks`, added by `routeOptions`), so no plugin can
 * serve a priced route free.
 */
import type { ServiceContext } from '../context.ts'
import { publicOrigin, requestIdOf } from './request.ts'
import { ApiError, errorBody } from '../kernel/errors.ts'
import { usdToAtomicUsdc, type RouteSpec } from '../kernel/manifest.ts'
import { payments as paymentMetrics } from '../kernel/metrics.ts'
import { routeDiscovery } from '../payments/discovery.ts'
import { escrowOf } from '../payments/escrow.ts'
import type { SettleAnswer } from '../payments/facilitator.ts'
import type { PaidCall, Payments, Refusal, Ticket } from '../payments/payments.ts'

/** An answer of the payment layer: status, JSON body and headers. */
export interface GateAnswer {
  status: number
  body: unknown
  headers: Record<string, string>
}

/** What a route handler receives from Elysia that payments need. */
interface HandlerContext {
  request: Request
  /** The validated request body (undefined for a route without one). */
  body?: unknown
  set: { status?: number | string; headers: Record<string, string | number> }
}

/** The settlement receipt, base64 JSON, under both generations' header names. */
export function receiptHeaders(receipt: SettleAnswer): Record<string, string> {
  const encoded = Buffer.from(JSON.stringify(receipt)).toString('base64')
  return { 'payment-response': encoded, 'x-payment-response': encoded }
}

/**
 * The settlement a receipt header names (`receiptHeaders`' form: base64 JSON of the facilitator's
 * answer): its network, transaction and payer; null when absent or unreadable.
 */
export function receiptOf(
  header: string | null,
): { network: string; transaction: string; payer: string | null } | null {
  if (!header) return null
  try {
    const receipt = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as Record<string, unknown>
    if (typeof receipt.transaction !== 'string' || typeof receipt.network !== 'string') return null
    return {
      network: receipt.network,
      transaction: receipt.transaction,
      payer: typeof receipt.payer === 'string' ? receipt.payer : null,
    }
  } catch {
    return null
  }
}

/**
 * When a caller whose settlement is pending should present the same payment again: the resolver reads
 * the chain every 30 s, and at once when a payment whose transaction is known is presented.
 */
const PENDING_RETRY_AFTER_S = 10

/** A refusal as HTTP: 402 with the challenge (v2 header, v1 offers in the error body), or 503. */
export function refusalAnswer(payments: Payments, call: PaidCall, refusal: Refusal): GateAnswer {
  if (refusal.kind === 'payment_required') {
    paymentMetrics.inc({ state: 'challenged', network: 'none' })
    const { header, body } = payments.challenge(call, refusal.reason)
    // A settlement whose outcome is being read: say so in machine terms, and when to present it again.
    const pending = refusal.pending && {
      settlement: { state: 'pending', transaction: refusal.pending.transaction },
      retry_after_s: PENDING_RETRY_AFTER_S,
    }
    return {
      status: 402,
      headers: {
        'payment-required': header,
        ...(pending ? { 'retry-after': String(PENDING_RETRY_AFTER_S) } : {}),
      },
      body: errorBody(
        new ApiError('PAYMENT_REQUIRED', {
          message: refusal.reason,
          details: { x402Version: body.x402Version, accepts: body.accepts, ...pending },
        }),
        call.requestId,
      ),
    }
  }
  const details = refusal.retryAfterS === null ? undefined : { retry_after_s: refusal.retryAfterS }
  return {
    status: 503,
    headers: refusal.retryAfterS === null ? {} : { 'retry-after': String(refusal.retryAfterS) },
    body: errorBody(
      new ApiError(refusal.code ?? 'FACILITATOR_UNAVAILABLE', { message: refusal.message, details }),
      call.requestId,
    ),
  }
}

/**
 * What follows a paid call that answered `status`: a 2xx settles its payment (the receipt's headers
 * to add), anything else releases it (nothing to add: the call's answer stands); a settlement that
 * fails withholds the result with a 402. Shared by `runPaid` and the route hooks.
 */
async function conclude(
  payments: Payments,
  ticket: Ticket,
  call: PaidCall,
  status: number,
): Promise<{ ok: true; headers: Record<string, string> } | { ok: false; answer: GateAnswer }> {
  if (status < 200 || status >= 300) {
    await payments.release(ticket, `the call answered ${status}`)
    return { ok: true, headers: {} }
  }
  const settled = await payments.settle(ticket, call)
  if (!settled.ok) {
    const refusal = settled.unavailable ?? {
      kind: 'payment_required',
      reason: settled.reason,
      pending: settled.pending,
    }
    return { ok: false, answer: refusalAnswer(payments, call, refusal) }
  }
  return { ok: true, headers: settled.receipt ? receiptHeaders(settled.receipt) : {} }
}

/**
 * One paid call, start to end: admit → run → settle only on a 2xx → receipt; a handler that throws
 * or answers non-2xx gets its payment released. What the route hooks do across Elysia's lifecycle,
 * in one function (for callers outside a route).
 */
export async function runPaid(
  payments: Payments,
  call: PaidCall,
  handler: () => Promise<{ status: number; body: unknown; headers?: Record<string, string> }>,
): Promise<GateAnswer> {
  const admission = await payments.admit(call)
  if (!admission.ok) return refusalAnswer(payments, call, admission.refusal)
  let result: Awaited<ReturnType<typeof handler>>
  try {
    result = await handler()
  } catch (error) {
    await payments.release(admission.ticket, 'the call failed')
    throw error
  }
  const concluded = await conclude(payments, admission.ticket, call, result.status)
  if (!concluded.ok) return concluded.answer
  return { status: result.status, body: result.body, headers: { ...result.headers, ...concluded.headers } }
}

/** A verified payment held for the deferred mode: settle it when the work succeeded, else cancel it. */
export interface PaymentHold {
  /** The payment's ledger key: where its fate can be read later. Null when nothing is recorded. */
  key: string | null
  payer: string | null
  /** Settles once: the receipt and its headers, or why it did not settle. */
  settle(): Promise<
    { ok: true; settlement: SettleAnswer | null; headers: Record<string, string> } | { ok: false; reason: string }
  >
  /** Releases the payment unsettled (the caller may present it again). */
  cancel(reason: string): Promise<void>
  /** Whether settle or cancel was already called (each may be called once, and not both). */
  readonly concluded: boolean
}

/** The deferred mode (trade execute): the payment is admitted and held now, settled or cancelled later. */
export async function holdCall(
  payments: Payments,
  call: PaidCall,
): Promise<{ ok: false; answer: GateAnswer } | { ok: true; hold: PaymentHold }> {
  const admission = await payments.admit(call)
  if (!admission.ok) return { ok: false, answer: refusalAnswer(payments, call, admission.refusal) }
  const { ticket } = admission
  let done = false
  const once = () => {
    if (done) throw new Error('this payment hold was already settled or cancelled')
    done = true
  }
  return {
    ok: true,
    hold: {
      key: ticket.key,
      payer: ticket.payer,
      async settle() {
        once()
        const settled = await payments.settle(ticket, call)
        if (!settled.ok) return settled
        return {
          ok: true,
          settlement: settled.receipt,
          headers: settled.receipt ? receiptHeaders(settled.receipt) : {},
        }
      },
      async cancel(reason: string) {
        once()
        await payments.release(ticket, reason)
      },
      get concluded() {
        return done
      },
    },
  }
}

/** Payments admitted by a route's hook, until its answer settles or releases them. */
const admitted = new WeakMap<Request, { ticket: Ticket; call: PaidCall }>()

/**
 * The payment of a priced route, mounted from its manifest entry (routeOptions adds these hooks): the
 * payment is admitted after the request is validated (a bad request is never challenged) and before
 * the handler; once the handler's answer has passed the route's response schema, a 2xx settles (the
 * receipt goes out in headers; a settlement that fails withholds the result with a 402), anything else
 * releases. A handler that throws, or an answer that fails its schema (a 500): `releaseOnError`.
 */
export function paymentHooks(ctx: ServiceContext, spec: RouteSpec) {
  const callOf = paidCallOf(ctx, spec)
  ctx.registry.markPaymentMounted(spec)
  return {
    // Destructured: Elysia parses only what its hooks name (a whole-context hook makes it parse cookies).
    beforeHandle: async function admitPayment({ request, body, set }: HandlerContext) {
      const call = callOf({ request, body, set })
      const admission = await ctx.payments.admit(call)
      if (!admission.ok) return answer({ set }, refusalAnswer(ctx.payments, call, admission.refusal))
      admitted.set(request, { ticket: admission.ticket, call })
    },
    // Validate, then settle: in mapResponse, not afterHandle. Elysia 1.4 checks an answer against the
    // route's response schema after every afterHandle hook and before any mapResponse hook (compose.mjs),
    // so an answer that fails its schema throws to onError — a 500, its payment released there
    // (`releaseOnError`) — before anything is charged. The check is Elysia's own (its normalisation
    // included, compiled once per route), so no answer Elysia accepts is refused here, nor the reverse.
    mapResponse: async function settlePayment({
      request,
      set,
    }: Pick<HandlerContext, 'request' | 'set'>): Promise<Response | undefined> {
      const entry = admitted.get(request)
      if (!entry) return undefined
      admitted.delete(request)
      const status = typeof set.status === 'number' ? set.status : 200
      const concluded = await conclude(ctx.payments, entry.ticket, entry.call, status)
      if (!concluded.ok) {
        // The validated answer is withheld: a mapResponse hook replaces it with a Response of its own.
        const { status: refused, body, headers } = concluded.answer
        return Response.json(body, { status: refused, headers })
      }
      Object.assign(set.headers, concluded.headers)
      return undefined
    },
  }
}

/**
 * Releases the payment a route admitted for a request whose handler threw (called by the core's error
 * handler): the release's promise, or undefined (synchronously) when the request holds no payment, so
 * the error path of every other request stays synchronous.
 */
export function releaseOnError(payments: Payments, request: Request): Promise<void> | undefined {
  const entry = admitted.get(request)
  if (!entry) return undefined
  admitted.delete(request)
  return payments.release(entry.ticket, 'the call failed')
}

/**
 * The deferred mode for a priced route whose outcome is known later (trade execute, declared with
 * `deferredPayment` in its manifest): `holdPayment(ctx, spec)` once, then `await hold(context)`
 * verifies the payment and holds it (or answers why not: the 402 challenge, a 503), and the handler
 * settles or cancels it once the outcome is known.
 */
export function holdPayment(ctx: ServiceContext, spec: RouteSpec) {
  const callOf = paidCallOf(ctx, spec)
  ctx.registry.markPaymentMounted(spec)
  return function hold(context: HandlerContext) {
    return holdCall(ctx.payments, callOf(context))
  }
}

/** Sets an answer's status and headers on the Elysia context; its body is what the handler returns. */
export function answer(
  context: Pick<HandlerContext, 'set'>,
  reply: { status: number; body: unknown; headers?: Record<string, string> },
): unknown {
  context.set.status = reply.status
  Object.assign(context.set.headers, reply.headers)
  return reply.body
}

function paidCallOf(ctx: ServiceContext, spec: RouteSpec) {
  if (spec.price === 'free') throw new Error(`${spec.method} ${spec.path} is free: it takes no payment`)
  const amount = usdToAtomicUsdc(spec.price.usd)
  const resource = `${spec.method} ${spec.path}`
  const discovery = routeDiscovery(spec)
  return (context: HandlerContext): PaidCall => ({
    discovery,
    headers: context.request.headers,
    url: `${publicOrigin(ctx, context.request)}${spec.path}`,
    resource,
    requestHash: requestHash(resource, context.body),
    description: spec.summary,
    amount,
    requestId: requestIdOf(context.request),
    escrow: escrowOf(context.request),
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
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
      )
    return value
  }
  return new Bun.CryptoHasher('sha256').update(`${resource}\n${JSON.stringify(canonical(body) ?? null)}`).digest('hex')
}
