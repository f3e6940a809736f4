import { createHash } from 'node:crypto'
/**
 * The HTTP adapter of payments, the one place payment speaks HTTP (as the x402 packages pair a
 * transport-free core with thin adapters). It owns a paid request end to end (`paidRequests`, which the
 * front door hands every call of a priced route): an answer kept for it replayed, the payment admitted
 * and settled around the handler by the route's hooks (`paymentHooks`, mounted by `routeOptions`, so no
 * plugin can serve a priced route free; `releaseOnError` for a handler that throws; `holdPayment` for the
 * deferred mode), the paid answer attested and kept. It maps every result of src/payments to HTTP:
 * 402 with the challenge, the catalogue's status for a refusal, receipts in `PAYMENT-RESPONSE` /
 * `X-PAYMENT-RESPONSE`. MCP and ACP reach payments through the front door, so this serves them too.
 */
import type { ServiceContext } from '../context.ts'
import { publicOrigin, requestIdOf, type RequestMeta } from './request.ts'
import { ATTESTATION_HEADER, sha256Hex } from '../attest/attestation.ts'
import { ApiError, errorBody } from '../kernel/errors.ts'
import { atomicPriceOf, type RouteSpec } from '../kernel/manifest.ts'
import { payments as paymentMetrics } from '../kernel/metrics.ts'
import { AnswerKeeper, type KeptCall } from '../payments/answer-replay.ts'
import { routeDiscovery } from '../payments/discovery.ts'
import { escrowOf } from '../payments/escrow.ts'
import type { SettleAnswer } from '../payments/facilitator.ts'
import { holdCall } from '../payments/hold.ts'
import type { Challenge, PaidCall, Payments, Refusal, Replay, Ticket } from '../payments/payments.ts'
import { decodeReceipt, encodeReceipt } from '../payments/receipt.ts'
import type { StoredAnswer } from '../store/answers.ts'

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

/** The settlement receipt (src/payments/receipt.ts), under both generations' header names. */
export function receiptHeaders(receipt: SettleAnswer): Record<string, string> {
  const encoded = encodeReceipt(receipt)
  return { 'payment-response': encoded, 'x-payment-response': encoded }
}

/**
 * When a caller whose settlement is pending should present the same payment again: the resolver reads
 * the chain every 30 s, and at once when a payment whose transaction is known is presented.
 */
const PENDING_RETRY_AFTER_S = 10

/** A refusal as the catalogue's error (its status from its code), with Retry-After when waiting helps. */
export function refusalError(refusal: Refusal): ApiError {
  const retry = refusal.retryAfterS
  return new ApiError(refusal.code, {
    message: refusal.message,
    details: { ...refusal.details, ...(retry === undefined ? {} : { retry_after_s: retry }) },
    headers: retry === undefined ? {} : { 'retry-after': String(retry) },
    cause: refusal.cause,
  })
}

/**
 * A call that does not go ahead, as HTTP: a challenge is 402 PAYMENT_REQUIRED with the v2 challenge in
 * `payment-required` and the v1 offers in the error body (and, for a pending settlement, when to present
 * the same payment again); a refusal is its catalogue error (503 FACILITATOR_UNAVAILABLE, …).
 */
export function paymentAnswer(result: Challenge | Refusal, requestId: string): GateAnswer {
  if (result.kind === 'refusal') {
    const error = refusalError(result)
    return { status: error.status, headers: error.headers, body: errorBody(error, requestId) }
  }
  paymentMetrics.inc({ state: 'challenged', network: 'none' })
  const { header, body } = result.required
  // A settlement whose outcome is being read: say so in machine terms, and when to present it again.
  const pending = result.pending && {
    settlement: { state: 'pending', transaction: result.pending.transaction },
    retry_after_s: PENDING_RETRY_AFTER_S,
  }
  // Why a presented payment was refused, for machines (the A2A x402 extension maps it): the message says it for people.
  const refused = result.code ? { payment_error: result.code } : {}
  const error = new ApiError('PAYMENT_REQUIRED', {
    message: result.reason,
    details: { x402Version: body.x402Version, accepts: body.accepts, ...refused, ...pending },
  })
  return {
    status: error.status,
    headers: {
      'payment-required': header,
      ...(pending ? { 'retry-after': String(PENDING_RETRY_AFTER_S) } : {}),
    },
    body: errorBody(error, requestId),
  }
}

/**
 * What follows a paid call that answered `status`: a 2xx settles its payment (the receipt's headers
 * to add), anything else releases it (nothing to add: the call's answer stands); a settlement that
 * fails withholds the result with its 402 or refusal. Shared by `runPaid` and the route hooks.
 */
async function conclude(
  payments: Payments,
  ticket: Ticket,
  call: PaidCall,
  status: number,
  keptBy?: Request,
): Promise<{ ok: true; headers: Record<string, string> } | { ok: false; answer: GateAnswer }> {
  if (status < 200 || status >= 300) {
    await payments.release(ticket, `the call answered ${status}`)
    return { ok: true, headers: {} }
  }
  // A call whose answer `paidRequests` keeps has its settlement recorded once that answer is kept.
  const settled = await payments.settle(ticket, call, { recordLater: keptBy !== undefined })
  if (settled.kind !== 'settled') return { ok: false, answer: paymentAnswer(settled, call.requestId) }
  if (keptBy && settled.record) unrecorded.set(keptBy, settled.record)
  return { ok: true, headers: settled.receipt ? receiptHeaders(settled.receipt) : {} }
}

/**
 * Calls served by `paidRequests` (their answers kept), and the settlements they owe the ledger until
 * their answer is kept: an instance that dies between the two leaves the payment `settling`, which
 * recovery reads from the chain (credited: presenting it again collects the call).
 */
const keeping = new WeakSet<Request>()
const unrecorded = new WeakMap<Request, () => Promise<void>>()

/** Records the settlement of `request`'s payment, if one waits (once). */
async function recordSettlement(request: Request): Promise<void> {
  const record = unrecorded.get(request)
  if (!record) return
  unrecorded.delete(request)
  await record()
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
  if (admission.kind !== 'paid') return paymentAnswer(admission, call.requestId)
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

/** Payments admitted by a route's hook, until its answer settles or releases them. */
const admitted = new WeakMap<Request, { ticket: Ticket; call: PaidCall }>()

/** What a handler asked to be told once its call's payment is settled or not (`whenConcluded`). */
const concluding = new WeakMap<Request, (settled: boolean) => void | Promise<void>>()

/**
 * The wallet that pays for a request admitted by its route's hook (what the facilitator's verification
 * named), for a handler that keeps something of the payer's (a watch only its payer may read): null
 * when the request holds no payment or its payer was not named.
 */
export function payerOf(request: Request): string | null {
  return admitted.get(request)?.ticket.payer ?? null
}

/**
 * Tells `then` whether the payment of `request` (admitted by its route's hook) was settled once its
 * answer is concluded: false when the answer was not a 2xx, the handler threw, or the settlement failed
 * (the answer withheld). A handler that started something lasting (a watch) undoes it on false, so
 * nothing runs unpaid.
 */
export function whenConcluded(request: Request, then: (settled: boolean) => void | Promise<void>): void {
  concluding.set(request, then)
}

async function tellConcluded(request: Request, settled: boolean): Promise<void> {
  const then = concluding.get(request)
  if (!then) return
  concluding.delete(request)
  await then(settled)
}

/**
 * The payment of a priced route, mounted from its manifest entry (routeOptions adds these hooks): the
 * payment is admitted after the request is validated (a bad request is never challenged) and before
 * the handler; once the handler's answer has passed the route's response schema, a 2xx settles (the
 * receipt goes out in headers; a settlement that fails withholds the result with a 402), anything else
 * releases. A handler that throws, or an answer that fails its schema (a 500): `releaseOnError`.
 */
export function paymentHooks(ctx: ServiceContext, spec: RouteSpec) {
  const callOf = paidCallOf(ctx, spec)
  const perUnit = spec.price !== 'free' && spec.price.per !== undefined
  ctx.registry.markPaymentMounted(spec)
  return {
    // Destructured: Elysia parses only what its hooks name (a whole-context hook makes it parse cookies).
    beforeHandle: async function admitPayment({ request, body, set }: HandlerContext) {
      // A price per unit is counted from the valid request before any challenge (a count that refuses
      // the request throws its 4xx, nothing admitted); a request that buys nothing is answered free.
      const units = perUnit ? await unitsOf(ctx, spec, body) : 1
      if (units === 0) return undefined
      const call = callOf({ request, body, set }, units)
      const admission = await ctx.payments.admit(call)
      if (admission.kind !== 'paid') return answer({ set }, paymentAnswer(admission, call.requestId))
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
      const keptBy = keeping.has(request) ? request : undefined
      const concluded = await conclude(ctx.payments, entry.ticket, entry.call, status, keptBy)
      await tellConcluded(request, concluded.ok && status >= 200 && status < 300)
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
  return payments.release(entry.ticket, 'the call failed').then(() => tellConcluded(request, false))
}

/**
 * The deferred mode for a priced route whose outcome is known later (trade execute, declared with
 * `deferredPayment` in its manifest): `holdPayment(ctx, spec)` once, then `await hold(context)`
 * verifies the payment and holds it (src/payments/hold.ts) or answers why not — a challenge or a
 * refusal, which `paymentAnswer` maps — and the handler settles or cancels it once the outcome is known.
 */
export function holdPayment(ctx: ServiceContext, spec: RouteSpec) {
  if (spec.price !== 'free' && spec.price.per)
    throw new Error(
      `${spec.method} ${spec.path}: a held payment is of a fixed price, not one per ${spec.price.per.unit}`,
    )
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

/**
 * How many units a valid request buys (src/kernel/manifest.ts `PerUnit`): 1 at a fixed price, else the
 * route's count of its body (which may read, and may refuse the request with a catalogue error).
 */
async function unitsOf(ctx: ServiceContext, spec: RouteSpec, body: unknown): Promise<number> {
  if (spec.price === 'free' || !spec.price.per) return 1
  const count = spec.price.per.count as (body: unknown, ctx: ServiceContext) => number | Promise<number>
  return count(body, ctx)
}

/**
 * The paid call of a request to `spec` that buys `units`: its amount is the route's price for that
 * request (unit × units), so a payment signed for another request's price never matches its offers.
 */
function paidCallOf(ctx: ServiceContext, spec: RouteSpec) {
  if (spec.price === 'free') throw new Error(`${spec.method} ${spec.path} is free: it takes no payment`)
  const price = spec.price
  const resource = `${spec.method} ${spec.path}`
  const discovery = routeDiscovery(spec)
  // A fixed price's amount is the same for every call: computed once (a 402 is on the hot path).
  const fixed = price.per ? undefined : atomicPriceOf(price)
  return (context: HandlerContext, units = 1): PaidCall => {
    let hash: string | undefined
    const amount = fixed ?? atomicPriceOf(price, units)
    const description = price.per
      ? `${spec.summary}: ${units} ${units === 1 ? price.per.unit : `${price.per.unit}s`} at ${price.usd} USD each`
      : spec.summary
    return {
      discovery,
      headers: context.request.headers,
      url: `${publicOrigin(ctx, context.request)}${spec.path}`,
      resource,
      // Read once a payment is presented (the ledger records it): a call answered 402 never hashes its body.
      get requestHash() {
        hash ??= requestHash(resource, context.body)
        return hash
      },
      description,
      amount,
      requestId: requestIdOf(context.request),
      escrow: escrowOf(context.request),
    }
  }
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
  return createHash('sha256')
    .update(`${resource}\n${JSON.stringify(canonical(body) ?? null)}`)
    .digest('hex')
}

/** The headers a kept answer is replayed with (its receipt and attestation included). */
const REPLAYED_HEADERS = ['content-type', 'payment-response', 'x-payment-response', 'x-attestation'] as const

/** Marks a replayed answer, with what proved the caller paid for it. */
export const REPLAY_HEADER = 'x-answer-replayed'

/** A kept answer as a response, marked replayed. */
function replayed({ answer, how }: Replay): Response {
  return new Response(Buffer.from(answer.body_b64, 'base64'), {
    status: answer.status,
    headers: { ...answer.headers, [REPLAY_HEADER]: how },
  })
}

/** What a paid answer keeps: status, the replayable headers and the body. */
function storedAnswerOf(response: Response, body: Uint8Array): StoredAnswer {
  const headers: Record<string, string> = {}
  for (const name of REPLAYED_HEADERS) {
    const value = response.headers.get(name)
    if (value !== null) headers[name] = value
  }
  return { status: response.status, headers, body_b64: Buffer.from(body).toString('base64') }
}

/** A paid request as the front door serves it. */
export interface PaidRequests {
  /**
   * Answers one call of a priced route, whose body the front door has read: `run` hands it to the
   * framework (where the route's hooks admit and settle its payment). Refusals are thrown as the
   * catalogue's errors, for the front door to answer as it answers any.
   */
  serve(request: Request, meta: RequestMeta, run: () => Promise<Response>): Promise<Response>
}

/**
 * A paid request, around the framework: an answer the caller already paid for is replayed before
 * anything runs (its payment identifier seen before, or its payer signed in: src/payments/answer-replay.ts);
 * else the call runs — its payment admitted, settled or released by the route's hooks — and a 2xx
 * answer gets its attestation (src/attest/attestation.ts: the route, the request and response bodies'
 * hashes, the newest slot read, the time, the request id and the settlement) and is kept for replays.
 * A call that fails frees its payment identifier.
 */
export function paidRequests(ctx: ServiceContext): PaidRequests {
  const answers = new AnswerKeeper(ctx.store.answers, ctx.logger)

  async function attested(
    request: Request,
    meta: RequestMeta,
    response: Response,
  ): Promise<{ answered: Response; bytes: Uint8Array }> {
    const bytes = new Uint8Array(await response.arrayBuffer())
    const answered = new Response(bytes, response)
    answered.headers.set(
      ATTESTATION_HEADER,
      ctx.attestor.attest({
        service: publicOrigin(ctx, request),
        route: `${meta.route!.method} ${meta.route!.path}`,
        request_sha256: meta.bodySha256 ?? sha256Hex(''),
        response_sha256: sha256Hex(bytes),
        status: response.status,
        slot: ctx.sources.solana?.latestSlot ?? null,
        at: new Date().toISOString(),
        request_id: meta.id,
        payment: decodeReceipt(response.headers.get('payment-response')),
      }),
    )
    return { answered, bytes }
  }

  return {
    async serve(request, meta, run) {
      const route = meta.route!
      const call: KeptCall = {
        headers: request.headers,
        route: `${route.method} ${route.path}`,
        requestSha256: meta.bodySha256 ?? sha256Hex(''),
        // Read only for a sign-in (most paid calls carry none).
        get resourceUrl() {
          return `${publicOrigin(ctx, request)}${route.path}`
        },
      }
      const before = await answers.before(call)
      if (before.kind === 'refusal') throw refusalError(before)
      if (before.kind === 'replay') return replayed(before)
      let response: Response
      keeping.add(request)
      try {
        try {
          response = await run()
        } catch (error) {
          await answers.failed(before.key)
          throw error
        }
        if (!response.ok) {
          await answers.failed(before.key)
          return response
        }
        const { answered, bytes } = await attested(request, meta, response)
        const payer = decodeReceipt(answered.headers.get('payment-response'))?.payer ?? null
        await answers.kept(before.key, call, storedAnswerOf(answered, bytes), payer)
        return answered
      } finally {
        // The answer is kept (or could not be: it goes out regardless): the ledger records the settlement.
        keeping.delete(request)
        await recordSettlement(request)
      }
    },
  }
}
