import { ApiError, errorBody } from '../errors.ts'
import type { Logger } from '../logger.ts'
import type { PaymentLedger, PaymentRecord } from '../store/ledger.ts'
import { UpstreamError } from '../sources/upstream.ts'
import { offerableRails, offersV2, paymentChallenge, type OfferV2, type Supported } from './challenge.ts'
import type { FacilitatorClient, SettleAnswer } from './facilitator.ts'
import { matchOffer } from './match.ts'
import { readPayment, type PaymentV1, type PaymentV2 } from './payment-header.ts'
import { paymentKey } from './payment-key.ts'
import type { Rail } from './rails.ts'
import { evidenceOf, type Evidence, type SettlementChecker } from './settlement-check.ts'

/** One paid call, as the gate needs it. */
export interface PaidCall {
  headers: Headers
  /** The full URL of the resource (the challenge's `resource`). */
  url: string
  /** `METHOD /path`, recorded in the ledger. */
  resource: string
  /** What this call asks for (route and body, hashed): a credit redeems only the request it paid for. */
  requestHash: string
  description: string
  /** Price in USDC atomic units. */
  amount: string
  requestId: string
}

/** What the handler answered: only a 2xx is paid for. */
export interface HandlerResult {
  status: number
  body: unknown
  headers?: Record<string, string>
}

/** What the gate answers: the handler's result with the receipt, or a 402/503 of its own. */
export interface GateAnswer {
  status: number
  body: unknown
  headers: Record<string, string>
}

/** A payment verified and claimed for one call (or a credit being redeemed: settled before, result owed). */
interface Admitted {
  ok: true
  key: string
  payment: PaymentV1 | PaymentV2
  requirements: object
  payer: string | null
  /** The ledger record of a credit being redeemed: nothing is verified or settled again. */
  credit?: PaymentRecord
}

type Settlement = { ok: true; settlement: SettleAnswer; headers: Record<string, string> } | { ok: false; reason: string }

/** A verified payment held for the deferred mode: settle it when the work succeeded, else cancel it. */
export interface PaymentHold {
  /** The payment's ledger key: where its fate can be read later (PaymentGate.record). Null when waived. */
  key: string | null
  payer: string | null
  /** Settles once; answers the receipt headers, or why it did not settle. */
  settle(): Promise<Settlement>
  /** Releases the payment unsettled (the caller may present it again). */
  cancel(reason: string): Promise<void>
}

/** The settlement receipt, base64 JSON, under both generations' header names. */
function receiptHeaders(settlement: SettleAnswer): Record<string, string> {
  const receipt = Buffer.from(JSON.stringify(settlement)).toString('base64')
  return { 'payment-response': receipt, 'x-payment-response': receipt }
}

/**
 * Whether `call` is the one a credited payment is owed: the route, the price and (when the ledger kept
 * it) the request it first paid for. Otherwise why not, for the 402.
 */
function owedCall(credit: PaymentRecord, call: PaidCall, amount: string): { ok: true } | { ok: false; reason: string } {
  const same = credit.resource === call.resource && credit.amount === amount && (credit.requestHash === null || credit.requestHash === call.requestHash)
  if (same) return { ok: true }
  return {
    ok: false,
    reason:
      `this payment is owed one call of ${credit.resource} (${credit.amount} atomic units) for the request it first paid for: ` +
      'present it again with that same request to receive the result, or sign a new payment for this one',
  }
}

/** How often pending payments are looked for on their chains. */
const PENDING_CHECK_MS = 30_000

/** Seconds a caller should wait before retrying when the facilitator is unreachable. */
const FACILITATOR_RETRY_AFTER_S = 5

/**
 * The x402 flow around one paid call: challenge → claim in the ledger → verify → run → settle only
 * on a 2xx → receipt. Nothing is settled for a call that did not succeed, a payment is used at most
 * once (the ledger, not the facilitator, decides), and a facilitator that cannot be reached stops the
 * call before any work with 503 FACILITATOR_UNAVAILABLE.
 */
export class PaymentGate {
  readonly #rails: Rail[]
  readonly #ledger: PaymentLedger
  readonly #facilitator: FacilitatorClient
  readonly #logger: Logger
  /** The networks the facilitator settles, with each kind's `extra` (the Solana fee payer), from its /supported. */
  readonly supported: Supported = new Map()
  readonly #sharedLedger: boolean
  readonly #checker: SettlementChecker | undefined
  #refresh: ReturnType<typeof setTimeout> | undefined
  #pendingLoop: ReturnType<typeof setInterval> | undefined
  #stopped = false

  constructor(deps: {
    rails: Rail[]
    ledger: PaymentLedger
    facilitator: FacilitatorClient
    logger: Logger
    /** True when other instances use the same ledger (Redis): then a restart releases nothing of theirs. */
    sharedLedger?: boolean
    /** Reads the chains to resolve payments whose settlement went unanswered; without it they stay pending. */
    checker?: SettlementChecker
  }) {
    this.#rails = deps.rails
    this.#ledger = deps.ledger
    this.#facilitator = deps.facilitator
    this.#logger = deps.logger
    this.#sharedLedger = deps.sharedLedger ?? false
    this.#checker = deps.checker
  }

  /**
   * Reads the facilitator's /supported now and keeps retrying in the background until it answers
   * (the service serves its free routes meanwhile); resolves after the first attempt.
   */
  async start(retryMs = 2_000): Promise<void> {
    const attempt = async (delay: number): Promise<void> => {
      if (this.#stopped) return
      try {
        const supported = await this.#facilitator.supported()
        // v2 kinds first: a network listed under both generations keeps the v2 kind's extra.
        const kinds = supported.kinds.filter((kind) => kind.scheme === 'exact').sort((a, b) => b.x402Version - a.x402Version)
        for (const kind of kinds) if (!this.supported.has(kind.network)) this.supported.set(kind.network, kind.extra ?? {})
        this.#logger.info({ networks: offerableRails(this.#rails, this.supported).map((rail) => rail.network) }, 'payment facilitator ready')
      } catch (error) {
        this.#logger.warn({ err: (error as Error).message, retry_ms: delay }, 'payment facilitator unreachable: retrying')
        this.#refresh = setTimeout(() => void attempt(Math.min(delay * 2, 30_000)), delay)
      }
    }
    await attempt(retryMs)
    if (this.#checker && !this.#pendingLoop) {
      const resolve = () => void this.resolvePending().catch((error: Error) => this.#logger.warn({ err: error.message }, 'resolving pending payments failed'))
      resolve()
      this.#pendingLoop = setInterval(resolve, PENDING_CHECK_MS)
      this.#pendingLoop.unref?.()
    }
  }

  /**
   * Asks the chains what became of each `pending` payment (a settlement whose answer was lost): the
   * money moved → `credited` (its call's result was withheld, so presenting the same payment again
   * runs one call without charging); it never can → `failed`; otherwise it stays pending and is asked
   * again later. Nothing is ever sent for settlement twice.
   */
  async resolvePending(nowMs = Date.now()): Promise<{ credited: number; failed: number; pending: number }> {
    const counts = { credited: 0, failed: 0, pending: 0 }
    for (const record of await this.#ledger.unresolved()) {
      if (record.state !== 'pending') continue
      const evidence = record.evidence ? (JSON.parse(record.evidence) as Evidence) : undefined
      if (!this.#checker || !evidence) {
        counts.pending++
        continue
      }
      let outcome
      try {
        outcome = await this.#checker.check(evidence, record.createdAt, nowMs)
      } catch (error) {
        this.#logger.warn({ key: record.key, err: (error as Error).message }, 'cannot read the chain for a pending payment: asking again later')
        counts.pending++
        continue
      }
      if (outcome.state === 'pending') counts.pending++
      else if (outcome.state === 'settled') {
        // The call's result was withheld when its settlement went unanswered: the payment is owed one call.
        const reason = `resolved on chain: ${outcome.how}; owed one call (present the same payment again)`
        if (await this.#ledger.transition(record.key, 'pending', 'credited', { transaction: outcome.transaction, reason }, nowMs)) counts.credited++
      } else if (await this.#ledger.transition(record.key, 'pending', 'failed', { reason: `resolved on chain: ${outcome.reason}` }, nowMs)) counts.failed++
    }
    if (counts.credited + counts.failed > 0) this.#logger.info(counts, 'pending payments resolved on chain')
    return counts
  }

  /**
   * Settles the books after a restart: a payment left `verifying` or `verified` was never sent for
   * settlement (verifying moves nothing; settle comes only after the handler), so it is released
   * (`rejected` / `cancelled`: the caller may present it again). One left `settling` may have settled:
   * it stays `pending` for reconciliation against the chain and is never re-sent.
   */
  async reconcile(): Promise<{ released: number; pending: number }> {
    let released = 0
    let pending = 0
    // A shared ledger's open payments may be another instance's calls in flight: release none. Such a
    // payment stays unusable (and unsettled: nothing was charged); its payer signs a new one.
    if (this.#sharedLedger) return { released, pending: (await this.#ledger.unresolved()).length }
    for (const record of await this.#ledger.unresolved()) {
      const reason = 'the service stopped before settlement'
      if (record.state === 'verifying') released += Number(await this.#ledger.transition(record.key, 'verifying', 'rejected', { reason }))
      else if (record.state === 'verified') released += Number(await this.#ledger.transition(record.key, 'verified', 'cancelled', { reason }))
      else if (record.state === 'redeeming') released += Number(await this.#ledger.transition(record.key, 'redeeming', 'credited', { reason }))
      else {
        if (record.state === 'settling') await this.#ledger.transition(record.key, 'settling', 'pending', { reason: 'the service stopped during settlement' })
        pending++
      }
    }
    if (released + pending > 0) this.#logger.warn({ released, pending }, 'payments left unfinished by the last run: released those never settled; the rest stay pending')
    return { released, pending }
  }

  /** A payment's ledger record, by its key. */
  record(key: string): Promise<PaymentRecord | undefined> {
    return this.#ledger.get(key)
  }

  /**
   * Consumes a credit for the work it paid for, delivered by other means (a trade whose fee settled on
   * chain after the service stopped, then confirmed): credited → settled. False when it is not a credit.
   */
  consumeCredit(key: string, reason: string): Promise<boolean> {
    return this.#ledger.transition(key, 'credited', 'settled', { reason })
  }

  stop(): void {
    this.#stopped = true
    clearTimeout(this.#refresh)
    clearInterval(this.#pendingLoop)
  }

  offers(amount: string): OfferV2[] {
    return offersV2({ rails: this.#rails, supported: this.supported, amount })
  }

  /** The 402 answer: the v2 challenge in `payment-required`, the v1 offers in the JSON error body. */
  challenge(call: PaidCall, reason: string): GateAnswer {
    const { header, body } = paymentChallenge({ rails: this.#rails, supported: this.supported, amount: call.amount, resource: call.url, description: call.description, reason })
    return {
      status: 402,
      headers: { 'payment-required': header },
      body: errorBody(new ApiError('PAYMENT_REQUIRED', { message: reason, details: { x402Version: body.x402Version, accepts: body.accepts } }), call.requestId),
    }
  }

  async run(call: PaidCall, handler: () => Promise<HandlerResult>): Promise<GateAnswer> {
    const admitted = await this.#admit(call)
    if (!admitted.ok) return admitted.answer

    let result: HandlerResult
    try {
      result = await handler()
    } catch (error) {
      await this.#release(admitted, 'the call failed')
      throw error
    }
    if (result.status < 200 || result.status >= 300) {
      await this.#release(admitted, `the call answered ${result.status}`)
      return { ...result, headers: result.headers ?? {} }
    }
    const settled = await this.#settle(admitted, call)
    if (!settled.ok) return this.challenge(call, settled.reason)
    return { status: result.status, body: result.body, headers: { ...result.headers, ...settled.headers } }
  }

  /**
   * The deferred mode (trade execute): the payment is verified and held now, and settled or cancelled
   * later, when the outcome of the paid work is known. Until then the payment stays `verified` in the
   * ledger, so it cannot be used for anything else.
   */
  async hold(call: PaidCall): Promise<{ ok: false; answer: GateAnswer } | { ok: true; hold: PaymentHold }> {
    const admitted = await this.#admit(call)
    if (!admitted.ok) return admitted
    let done = false
    const once = () => {
      if (done) throw new Error('this payment hold was already settled or cancelled')
      done = true
    }
    return {
      ok: true,
      hold: {
        key: admitted.key,
        payer: admitted.payer,
        settle: async () => {
          once()
          return this.#settle(admitted, call)
        },
        cancel: async (reason: string) => {
          once()
          await this.#release(admitted, reason)
        },
      },
    }
  }

  /** Reads, matches, claims and verifies the call's payment; on success it is `verified` in the ledger. */
  async #admit(call: PaidCall): Promise<{ ok: false; answer: GateAnswer } | Admitted> {
    const refuse = (answer: GateAnswer) => ({ ok: false as const, answer })
    // Nothing to offer (the facilitator has not answered /supported yet): a challenge would be empty.
    const offers = this.offers(call.amount)
    if (offers.length === 0) return refuse(this.#unavailable(call, 'no payment rail is ready (the facilitator has not answered yet)'))
    const read = readPayment(call.headers)
    if (read.kind === 'none') return refuse(this.challenge(call, 'payment required: sign a payment for one of the offers and send it in X-PAYMENT'))
    if (read.kind === 'invalid') return refuse(this.challenge(call, read.reason))
    const match = matchOffer(read.payment, offers, this.#rails)
    if (!match.ok) return refuse(this.challenge(call, match.reason))
    const { offer } = match
    const key = paymentKey(read.payment, offer.network)
    if (!key) return refuse(this.challenge(call, 'the payment carries neither a Solana transaction nor an EIP-3009 authorization'))

    const evidence = evidenceOf(read.payment, offer)
    const claim = await this.#ledger.claim({
      key,
      network: offer.network,
      amount: offer.amount,
      resource: call.resource,
      requestHash: call.requestHash,
      requestId: call.requestId,
      evidence: evidence ? JSON.stringify(evidence) : null,
    })
    if (!claim.ok && claim.existing.state === 'credited') {
      // Settled on chain after its call gave up: it is owed that call — the same route, request and
      // price — once, and nothing else (a cheap payment must not buy a dearer call).
      const owed = owedCall(claim.existing, call, offer.amount)
      if (!owed.ok) return refuse(this.challenge(call, owed.reason))
      if (await this.#ledger.transition(key, 'credited', 'redeeming', { reason: `redeemed by ${call.requestId}` }))
        return { ok: true, key, payment: read.payment, requirements: {}, payer: claim.existing.payer, credit: claim.existing }
    }
    if (!claim.ok) {
      const { state, transaction } = claim.existing
      const why = state === 'settled' ? `this payment was already used (settled${transaction ? ` in ${transaction}` : ''}): sign a new one` : `this payment is being used by another request (${state}): sign a new one`
      return refuse(this.challenge(call, why))
    }

    const requirements = this.#requirements(read.payment, offer, call)
    let verified
    try {
      verified = await this.#facilitator.verify(read.payment, requirements)
    } catch (error) {
      await this.#ledger.transition(key, 'verifying', 'rejected', { reason: 'facilitator unreachable at verify' })
      return refuse(this.#unavailable(call, (error as Error).message))
    }
    if (!verified.isValid) {
      await this.#ledger.transition(key, 'verifying', 'rejected', { reason: verified.invalidReason ?? 'invalid' })
      return refuse(this.challenge(call, `the facilitator refused the payment: ${verified.invalidReason ?? 'invalid'}${verified.invalidMessage ? ` (${verified.invalidMessage})` : ''}`))
    }
    await this.#ledger.transition(key, 'verifying', 'verified', { payer: verified.payer ?? null })
    return { ok: true, key, payment: read.payment, requirements, payer: verified.payer ?? null }
  }

  /** Gives an admitted payment back unsettled: it may be presented again (a credit stays owed). */
  async #release(admitted: Admitted, reason: string): Promise<void> {
    if (admitted.credit) await this.#ledger.transition(admitted.key, 'redeeming', 'credited', { reason })
    else await this.#ledger.transition(admitted.key, 'verified', 'cancelled', { reason })
  }

  /** Settles a verified payment: the receipt headers, or why it did not settle (the result is then withheld). */
  async #settle(admitted: Admitted, call: PaidCall): Promise<Settlement> {
    const { key, credit } = admitted
    if (credit) {
      // Already settled on chain: the receipt says so; nothing is sent to the facilitator.
      await this.#ledger.transition(key, 'redeeming', 'settled', { reason: `settled on chain earlier; result delivered to ${call.requestId}` })
      const settlement: SettleAnswer = { success: true, transaction: credit.transaction ?? '', network: credit.network, ...(credit.payer ? { payer: credit.payer } : {}) }
      return { ok: true, settlement, headers: receiptHeaders(settlement) }
    }
    await this.#ledger.transition(key, 'verified', 'settling')
    let settled: SettleAnswer
    try {
      settled = await this.#facilitator.settle(admitted.payment, admitted.requirements)
    } catch (error) {
      // It may have settled: never re-send, reconcile (docs/payments.md).
      await this.#ledger.transition(key, 'settling', 'pending', { reason: (error as Error).message })
      this.#logger.warn({ request_id: call.requestId, err: (error as Error).message }, 'settlement outcome unknown: payment left pending')
      const why = error instanceof UpstreamError ? error.reason : 'no answer'
      return { ok: false, reason: `the settlement's outcome is not known yet (${why}); it will not be sent again and is being reconciled; the result is withheld` }
    }
    if (!settled.success) {
      await this.#ledger.transition(key, 'settling', 'failed', { reason: settled.errorReason ?? 'settlement failed' })
      return { ok: false, reason: `settlement failed: ${settled.errorReason ?? 'unknown reason'}; nothing was charged and the result is withheld` }
    }
    await this.#ledger.transition(key, 'settling', 'settled', { transaction: settled.transaction, payer: settled.payer ?? null })
    return { ok: true, settlement: settled, headers: receiptHeaders(settled) }
  }

  /** v2 payments are verified against the offer itself; v1 payments against its v1 form. */
  #requirements(payment: PaymentV1 | PaymentV2, offer: OfferV2, call: PaidCall): object {
    if (payment.x402Version === 2) return offer
    const { amount, ...terms } = offer
    return { ...terms, network: payment.network, maxAmountRequired: amount, resource: call.url, description: call.description, mimeType: 'application/json' }
  }

  #unavailable(call: PaidCall, detail: string): GateAnswer {
    this.#logger.warn({ request_id: call.requestId, detail }, 'payment facilitator unavailable')
    return {
      status: 503,
      headers: { 'retry-after': String(FACILITATOR_RETRY_AFTER_S) },
      body: errorBody(new ApiError('FACILITATOR_UNAVAILABLE', { details: { retry_after_s: FACILITATOR_RETRY_AFTER_S } }), call.requestId),
    }
  }
}
