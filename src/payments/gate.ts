import { answerExtensions, freshSignIn, SIGN_IN_SLOTS } from './answer-replay.ts'
import { payments, settlementDuration } from '../kernel/metrics.ts'
import { STORE_RETRY_AFTER_S } from '../kernel/errors.ts'
import type { Logger } from '../kernel/logger.ts'
import type { Claim, PaymentLedger, PaymentRecord } from '../store/ledger.ts'
import { UpstreamError } from '../sources/upstream.ts'
import { ChallengeTemplate, offersV2, type OfferV2, type Supported } from './challenge.ts'
import { invalidReasonCode, type PaymentErrorCode } from './payment-errors.ts'
import { refusedBeforeSending, type FacilitatorClient, type SettleAnswer, type VerifyAnswer } from './facilitator.ts'
import { matchOffer } from './match.ts'
import { readPayment, type PaymentV1, type PaymentV2 } from './payment-header.ts'
import { paymentKey } from './payment-key.ts'
import type { EscrowPayment } from './escrow.ts'
import type {
  Admission,
  Challenge,
  PaidCall,
  PaymentRequired,
  Payments,
  PendingSettlement,
  Refusal,
  SettleOptions,
  Settled,
  Settlement,
  Ticket,
} from './payments.ts'
import type { Rail } from './rails.ts'
import { LedgerOutbox } from './ledger-outbox.ts'
import { PaymentRecovery } from './recovery.ts'
import { evidenceOf, type Evidence, type SettlementChecker } from './settlement-check.ts'
import { FacilitatorSupport } from './supported.ts'

export type { PaidCall } from './payments.ts'

/** A payment verified and claimed for one call (or a credit being redeemed: settled before, result owed). */
interface Admitted extends Ticket {
  key: string
  /** The x402 payment and its requirements (none for a call paid on an escrow). */
  payment?: PaymentV1 | PaymentV2
  requirements?: object
  /** The ledger record of a credit being redeemed: nothing is verified or settled again. */
  credit?: PaymentRecord
  /** Paid on another rail's escrow (an ACP job): recorded and settled in the ledger, no facilitator. */
  escrow?: EscrowPayment
  /** What finds the payment on its chain (src/payments/settlement-check.ts), when the payload names it. */
  evidence?: Evidence
}

/**
 * Whether `call` is the one a credited payment is owed: the route, the price and (when the ledger kept
 * it) the request it first paid for. Otherwise why not, for the 402.
 */
function owedCall(credit: PaymentRecord, call: PaidCall, amount: string): { ok: true } | { ok: false; reason: string } {
  const same =
    credit.resource === call.resource &&
    credit.amount === amount &&
    (credit.requestHash === null || credit.requestHash === call.requestHash)
  if (same) return { ok: true }
  return {
    ok: false,
    reason:
      `this payment is owed one call of ${credit.resource} (${credit.amount} atomic units) for the request it first paid for: ` +
      'present it again with that same request to receive the result, or sign a new payment for this one',
  }
}

/** Why a payment the ledger already holds cannot pay this call, and what the caller can do. */
function heldBecause({ state, transaction, reason }: PaymentRecord): string {
  const named = transaction ? ` in ${transaction}` : ''
  switch (state) {
    case 'settled':
      return (
        `this payment was already used (settled${named}): sign a new one for a new call; ` +
        'its own answer can be fetched again without paying by signing in with the paying wallet (the sign-in-with-x offer in this 402)'
      )
    case 'failed':
      return `this payment did not settle and never can (${reason ?? 'failed'}): nothing was charged; sign a new one`
    case 'pending':
      return `this payment's settlement was sent${named} and its outcome is being read from the chain: ${PRESENT_AGAIN}`
    case 'settling':
      // Its call may be gone (an instance that died mid-settlement): never "sign a new one" for money that may have moved.
      return `this payment is being settled by another request: ${PRESENT_AGAIN}`
    case 'redeeming':
      // Settled before and owed one call, being delivered to another request (or left by one that died).
      return `this payment settled earlier and its call is being answered to another request: ${PRESENT_AGAIN}`
    default:
      return `this payment is being used by another request (${state}): sign a new one`
  }
}

/**
 * The machine code of `heldBecause`: used (or in use by another request) is a nonce already spent; a
 * settlement in flight is pending (the same payment collects the answer); a failed one failed.
 */
function heldCode({ state }: PaymentRecord): PaymentErrorCode {
  if (state === 'failed') return 'SETTLEMENT_FAILED'
  if (state === 'pending' || state === 'settling' || state === 'redeeming') return 'PAYMENT_PENDING'
  return 'DUPLICATE_NONCE'
}

/** Challenge templates kept (routes × the origins they are called at): past it they are built again. */
const MAX_TEMPLATES = 512
/** The key of calls without discovery members (tests' calls). */
const NO_DISCOVERY = {}

/** Seconds a caller should wait before retrying when the facilitator is unreachable. */
const FACILITATOR_RETRY_AFTER_S = 5
/**
 * How long a call waits for the settlement a facilitator sent but could not confirm
 * (`settlement_pending`) to show on chain before its result is withheld: a Solana transaction
 * confirms in about a second, a Base one in two; past this the resolver takes over.
 */
const CONFIRM_PENDING_WAIT_MS = 3_000
/** What a caller whose settlement's outcome is open is told to do. */
const PRESENT_AGAIN =
  'present the same payment with the same request again in a minute: if it settled you get the result without paying again; if it cannot settle nothing was charged'

/** Why a call is refused while the ledger cannot record its payment. */
const LEDGER_DOWN =
  'the payment ledger cannot be reached, so this payment cannot be recorded: nothing was charged; retry after Retry-After seconds'

/**
 * x402 payments over a facilitator and the ledger, as results (no HTTP: src/http/payment-adapter.ts maps
 * them): admit (read → match → claim in the ledger → verify: `paid`, or a `challenge` to pay, or a
 * `refusal`), then settle only when the call succeeded (`settled`, or the result withheld), or release.
 * A payment is used at most once (the ledger, not the facilitator, decides); a facilitator that cannot
 * be reached refuses the call as unavailable before any work. Recovery (recovery.ts) and the
 * facilitator's `/supported` (supported.ts) are its parts.
 */
export class PaymentGate implements Payments {
  readonly #rails: Rail[]
  readonly #ledger: PaymentLedger
  readonly #facilitator: FacilitatorClient
  readonly #logger: Logger
  readonly #support: FacilitatorSupport
  readonly #recovery: PaymentRecovery
  readonly #checker: SettlementChecker | undefined
  /** Transitions that record what already happened, kept until the ledger takes them (ledger-outbox.ts). */
  readonly #outbox: LedgerOutbox
  /** What is built from the facilitator's /supported, kept until it changes (`FacilitatorSupport.version`). */
  #built = { version: -1, offers: new Map<string, OfferV2[]>(), challenges: new Map<string, ChallengeTemplate>() }
  /** A number per route's discovery members (one object per route), for the templates' keys. */
  readonly #routeKeys = new WeakMap<object, number>()
  #lastRouteKey = 0

  constructor(deps: {
    rails: Rail[]
    ledger: PaymentLedger
    facilitator: FacilitatorClient
    logger: Logger
    /** True when other instances use the same ledger (Redis): then a restart releases nothing of theirs. */
    sharedLedger?: boolean
    /** Reads the chains to resolve payments whose settlement went unanswered; without it they stay pending. */
    checker?: SettlementChecker
    /** How long a call can hold a payment `settling` (PaymentRecovery); past it the call is taken for gone. */
    settlingBoundMs?: number
  }) {
    this.#rails = deps.rails
    this.#ledger = deps.ledger
    this.#facilitator = deps.facilitator
    this.#logger = deps.logger
    this.#checker = deps.checker
    this.#outbox = new LedgerOutbox(deps.ledger, deps.logger)
    this.#support = new FacilitatorSupport({ facilitator: deps.facilitator, rails: deps.rails, logger: deps.logger })
    this.#recovery = new PaymentRecovery({
      ledger: deps.ledger,
      logger: deps.logger,
      sharedLedger: deps.sharedLedger ?? false,
      checker: deps.checker,
      ...(deps.settlingBoundMs !== undefined ? { settlingBoundMs: deps.settlingBoundMs } : {}),
    })
  }

  /** The networks the facilitator settles, with each kind's `extra` (the Solana fee payer), from its /supported. */
  get supported(): Supported {
    return this.#support.supported
  }

  /**
   * Reads the facilitator's /supported now and keeps retrying in the background until it answers
   * (the service serves its free routes meanwhile), and starts resolving pending payments.
   */
  async start(retryMs = 2_000): Promise<void> {
    await this.#support.start(retryMs)
    this.#recovery.start()
  }

  /** Stops the background work; ledger writes still queued are tried once more, then logged. */
  async stop(): Promise<void> {
    this.#support.stop()
    this.#recovery.stop()
    await this.#outbox.stop()
  }

  /** See PaymentRecovery.reconcile. */
  reconcile(): Promise<{ released: number; pending: number }> {
    return this.#recovery.reconcile()
  }

  /** See PaymentRecovery.releaseStale. */
  releaseStale(nowMs = Date.now()): Promise<number> {
    return this.#recovery.releaseStale(nowMs)
  }

  /** See PaymentRecovery.resolvePending. */
  resolvePending(nowMs = Date.now()): Promise<{ credited: number; failed: number; pending: number }> {
    return this.#recovery.resolvePending(nowMs)
  }

  /** A payment's ledger record, by its key. */
  record(key: string): Promise<PaymentRecord | undefined> {
    return this.#ledger.get(key)
  }

  /** See Payments.consumeCredit. */
  consumeCredit(key: string, reason: string): Promise<boolean> {
    return this.#ledger.transition(key, 'credited', 'settled', { reason })
  }

  /** The offers of a call at `amount`: each rail the facilitator settles now (built once per amount, frozen). */
  offers(amount: string): OfferV2[] {
    const built = this.#current()
    let offers = built.offers.get(amount)
    if (!offers) {
      offers = Object.freeze(
        offersV2({ rails: this.#rails, supported: this.supported, amount }).map((offer) =>
          Object.freeze({ ...offer, extra: Object.freeze({ ...offer.extra }) }),
        ),
      ) as OfferV2[]
      built.offers.set(amount, offers)
    }
    return offers
  }

  /**
   * The x402 challenge to pay `call`, saying why: the route's challenge at the call's URL, built once
   * (offers, discovery, schemas: a `ChallengeTemplate`), with a fresh sign-in-with-x nonce and times.
   */
  challenge(call: PaidCall, reason: string): PaymentRequired {
    const fresh = freshSignIn()
    return this.#template(call).fill(reason, [fresh.nonce, fresh.issuedAt, fresh.expirationTime])
  }

  /** What is built from /supported, emptied when it changes. */
  #current() {
    if (this.#built.version !== this.#support.version)
      this.#built = { version: this.#support.version, offers: new Map(), challenges: new Map() }
    return this.#built
  }

  /**
   * The challenge template of a call's route at its URL (the route's discovery members, description and
   * price, and the URL: PUBLIC_URL's, or the request's origin), kept for MAX_TEMPLATES of them.
   */
  #template(call: PaidCall): ChallengeTemplate {
    const { challenges } = this.#current()
    const { url, amount, description, discovery } = call
    let routeKey = this.#routeKeys.get(discovery ?? NO_DISCOVERY)
    if (routeKey === undefined) {
      routeKey = ++this.#lastRouteKey
      this.#routeKeys.set(discovery ?? NO_DISCOVERY, routeKey)
    }
    const key = `${routeKey}\n${amount}\n${url}\n${description}`
    let template = challenges.get(key)
    if (!template) {
      const networks = this.offers(amount).map((offer) => offer.network)
      template = new ChallengeTemplate(
        ([nonce, issuedAt, expirationTime]) => ({
          rails: this.#rails,
          supported: this.supported,
          amount,
          resource: url,
          description,
          discovery,
          extensions: answerExtensions(url, networks, {
            nonce: nonce!,
            issuedAt: issuedAt!,
            expirationTime: expirationTime!,
          }),
        }),
        [SIGN_IN_SLOTS.nonce, SIGN_IN_SLOTS.issuedAt, SIGN_IN_SLOTS.expirationTime],
      )
      // Origins come from requests when PUBLIC_URL is unset: a bound, so odd Host headers cannot grow it.
      if (challenges.size >= MAX_TEMPLATES) challenges.clear()
      challenges.set(key, template)
    }
    return template
  }

  /** Reads, matches, claims and verifies the call's payment; on success it is `verified` in the ledger. */
  async admit(call: PaidCall): Promise<Admission> {
    const required = (reason: string, code?: PaymentErrorCode) => this.#challenged(call, reason, code)
    if (call.escrow) return this.#admitEscrow(call, call.escrow)
    // Nothing to offer (the facilitator has not answered /supported yet, or settles none of the configured
    // rails): a challenge would be empty.
    const offers = this.offers(call.amount)
    if (offers.length === 0)
      return this.#unavailable(
        call,
        this.#support.version === 0
          ? 'no payment rail is ready (the facilitator has not answered yet)'
          : `the facilitator settles none of the configured rails (${this.#rails.map((rail) => rail.network).join(', ')})`,
      )
    const read = readPayment(call.headers)
    if (read.kind === 'none')
      return required('payment required: sign a payment for one of the offers and send it in X-PAYMENT')
    if (read.kind === 'invalid') return required(read.reason, 'INVALID_PAYLOAD')
    const match = matchOffer(read.payment, offers, this.#rails)
    if (!match.ok) return required(match.reason, match.code)
    const { offer } = match
    const key = paymentKey(read.payment, offer.network)
    if (!key)
      return required(
        'the payment carries neither a Solana transaction nor an EIP-3009 authorization',
        'INVALID_PAYLOAD',
      )

    const evidence = evidenceOf(read.payment, offer)
    let claim: Claim
    try {
      claim = await this.#ledger.claim({
        key,
        network: offer.network,
        amount: offer.amount,
        resource: call.resource,
        requestHash: call.requestHash,
        requestId: call.requestId,
        evidence: evidence ? JSON.stringify(evidence) : null,
      })
      // Left settling by a call that is gone (its instance died mid-settlement): pending, and read from
      // the chain now, so the payer presenting it again collects the call it paid for.
      if (!claim.ok && (await this.#recovery.adoptOrphan(claim.existing))) {
        const adopted = (await this.#ledger.get(key)) ?? claim.existing
        await this.#recovery.resolve(adopted)
        claim = { ok: false, existing: (await this.#ledger.get(key)) ?? adopted }
      }
      // A settlement sent and named but not confirmed: the chain may say by now that it landed, so the
      // payer collects the call it paid for at once rather than after the next resolver pass.
      else if (!claim.ok && claim.existing.state === 'pending' && claim.existing.transaction) {
        if ((await this.#recovery.resolve(claim.existing)) === 'credited')
          claim = { ok: false, existing: (await this.#ledger.get(key)) ?? claim.existing }
      }
    } catch (error) {
      return this.#ledgerDown(call, error)
    }
    if (!claim.ok && claim.existing.state === 'credited') {
      // Settled on chain after its call gave up: it is owed that call — the same route, request and
      // price — once, and nothing else (a cheap payment must not buy a dearer call).
      const owed = owedCall(claim.existing, call, offer.amount)
      // Spent on another call: its nonce is used, whatever it is still owed.
      if (!owed.ok) return required(owed.reason, 'DUPLICATE_NONCE')
      let redeeming: boolean
      try {
        redeeming = await this.#ledger.transition(key, 'credited', 'redeeming', {
          reason: `redeemed by ${call.requestId}`,
        })
      } catch (error) {
        return this.#ledgerDown(call, error)
      }
      if (redeeming) {
        const admitted: Admitted = {
          key,
          payment: read.payment,
          requirements: {},
          payer: claim.existing.payer,
          credit: claim.existing,
        }
        return { kind: 'paid', ticket: admitted }
      }
    }
    if (!claim.ok) {
      const { transaction } = claim.existing
      const reason = heldBecause(claim.existing)
      const code = heldCode(claim.existing)
      return code === 'PAYMENT_PENDING' ? this.#challenged(call, reason, code, { transaction }) : required(reason, code)
    }

    const requirements = this.#requirements(read.payment, offer, call)
    let verified: VerifyAnswer
    try {
      verified = await this.#facilitator.verify(read.payment, requirements)
    } catch (error) {
      await this.#outbox.transition(key, 'verifying', 'rejected', { reason: 'facilitator unreachable at verify' })
      return this.#unavailable(call, (error as Error).message)
    }
    if (!verified.isValid) {
      await this.#outbox.transition(key, 'verifying', 'rejected', { reason: verified.invalidReason ?? 'invalid' })
      return required(
        `the facilitator refused the payment: ${verified.invalidReason ?? 'invalid'}${verified.invalidMessage ? ` (${verified.invalidMessage})` : ''}`,
        invalidReasonCode(verified.invalidReason, verified.invalidMessage),
      )
    }
    try {
      await this.#ledger.transition(key, 'verifying', 'verified', { payer: verified.payer ?? null })
    } catch (error) {
      // Verifying moved no money: give the payment back (once the ledger answers) so it may be presented again.
      await this.#outbox.transition(key, 'verifying', 'rejected', {
        reason: 'the ledger could not record the verification',
      })
      return this.#ledgerDown(call, error)
    }
    payments.inc({ state: 'verified', network: offer.network })
    const admitted: Admitted = {
      key,
      payment: read.payment,
      requirements,
      payer: verified.payer ?? null,
      ...(evidence ? { evidence } : {}),
    }
    return { kind: 'paid', ticket: admitted }
  }

  /**
   * A call its buyer paid on another rail's escrow (an ACP job): the price must be the route's, and a job
   * buys one call (its ledger key `<rail>:<job>` is claimed once, as an x402 payment's is).
   */
  async #admitEscrow(call: PaidCall, escrow: EscrowPayment): Promise<Admission> {
    const required = (reason: string, code: PaymentErrorCode) => this.#challenged(call, reason, code)
    if (escrow.amount !== call.amount)
      return required(
        `the ${escrow.rail} job ${escrow.reference} holds ${escrow.amount} atomic USDC; ${call.resource} costs ${call.amount}`,
        'INVALID_AMOUNT',
      )
    const key = `${escrow.rail}:${escrow.reference}`
    try {
      const claim = await this.#ledger.claim({
        key,
        network: escrow.rail,
        amount: escrow.amount,
        resource: call.resource,
        requestHash: call.requestHash,
        requestId: call.requestId,
        evidence: null,
      })
      if (!claim.ok)
        return required(
          `the ${escrow.rail} job ${escrow.reference} already bought a call (${claim.existing.state})`,
          'DUPLICATE_NONCE',
        )
      await this.#ledger.transition(key, 'verifying', 'verified', { payer: escrow.payer })
    } catch (error) {
      return this.#ledgerDown(call, error)
    }
    const admitted: Admitted = { key, payer: escrow.payer, escrow }
    return { kind: 'paid', ticket: admitted }
  }

  /** Gives an admitted payment back unsettled: it may be presented again (a credit stays owed). */
  async release(ticket: Ticket, reason: string): Promise<void> {
    const admitted = ticket as Admitted
    payments.inc({
      state: 'released',
      network: (admitted.requirements as { network?: string } | undefined)?.network ?? 'none',
    })
    if (admitted.credit) await this.#outbox.transition(admitted.key, 'redeeming', 'credited', { reason })
    else await this.#outbox.transition(admitted.key, 'verified', 'cancelled', { reason })
  }

  /** Settles an admitted payment: the receipt, or why it did not settle (the result is then withheld). */
  async settle(ticket: Ticket, call: PaidCall, options: SettleOptions = {}): Promise<Settlement> {
    const { key, credit, payment, requirements, escrow } = ticket as Admitted
    if (escrow) {
      // The escrow pays the seller when the buyer's side accepts the delivery; the call is done.
      await this.#outbox.transition(key, 'verified', 'settled', {
        transaction: key,
        reason: `paid by the ${escrow.rail} escrow; delivered to ${call.requestId}`,
      })
      return {
        kind: 'settled',
        receipt: { success: true, transaction: key, network: escrow.rail, payer: escrow.payer },
      }
    }
    if (credit) {
      // Already settled on chain: the receipt says so; nothing is sent to the facilitator.
      const record = () =>
        this.#recordSettled(
          key,
          'redeeming',
          { reason: `settled on chain earlier; result delivered to ${call.requestId}` },
          call,
        )
      const receipt: SettleAnswer = {
        success: true,
        transaction: credit.transaction ?? '',
        network: credit.network,
        ...(credit.payer ? { payer: credit.payer } : {}),
      }
      return this.#recorded({ kind: 'settled', receipt }, record, options)
    }
    if (!payment || !requirements) throw new Error(`ticket ${key} carries no x402 payment to settle`)
    try {
      await this.#ledger.transition(key, 'verified', 'settling')
    } catch (error) {
      // Nothing was sent for settlement: the payment goes back (once the ledger answers), unused.
      await this.#outbox.transition(key, 'verified', 'cancelled', {
        reason: 'the ledger could not record the settlement',
      })
      return this.#ledgerDown(call, error)
    }
    const network = (requirements as { network?: string }).network ?? 'unknown'
    let settled: SettleAnswer
    const settling = performance.now()
    try {
      settled = await this.#facilitator.settle(payment, requirements)
      settlementDuration.observe({ network }, (performance.now() - settling) / 1000)
    } catch (error) {
      payments.inc({ state: 'pending', network })
      // It may have settled: never re-send, reconcile (docs/payments.md).
      await this.#outbox.transition(key, 'settling', 'pending', { reason: (error as Error).message })
      this.#logger.warn(
        { request_id: call.requestId, err: (error as Error).message },
        'settlement outcome unknown: payment left pending',
      )
      const why = error instanceof UpstreamError ? error.reason : 'no answer'
      return this.#challenged(
        call,
        `the settlement's outcome is not known yet (${why}); it will not be sent again and is being read from the chain; the result is withheld: ${PRESENT_AGAIN}`,
        'PAYMENT_PENDING',
        { transaction: null },
      )
    }
    // Unsuccessful, but the transfer may have been sent — a transaction named (`settlement_pending`, a
    // failure seen on chain), or a reason that does not prove otherwise: the chain decides, not the answer.
    if (!settled.success && (settled.transaction || !refusedBeforeSending(settled.errorReason)))
      return this.#settledOnChain(ticket as Admitted, call, settled, network, options)
    if (!settled.success) {
      payments.inc({ state: 'settle_failed', network })
      await this.#outbox.transition(key, 'settling', 'failed', { reason: settled.errorReason ?? 'settlement failed' })
      return this.#challenged(
        call,
        `settlement failed: ${settled.errorReason ?? 'unknown reason'}; nothing was charged and the result is withheld`,
        'SETTLEMENT_FAILED',
      )
    }
    // The money moved: the call delivers its answer even if the ledger must record it later.
    payments.inc({ state: 'settled', network })
    const record = () =>
      this.#recordSettled(key, 'settling', { transaction: settled.transaction, payer: settled.payer ?? null }, call)
    return this.#recorded({ kind: 'settled', receipt: settled }, record, options)
  }

  /**
   * Records a delivered call's payment `settled` from `from`. When another instance took it meanwhile —
   * a `settling` payment older than the bound is adopted as orphaned (`pending`, then `credited` from the
   * chain), a `redeeming` one left too long goes back to `credited` — the answer that went out is the
   * call it paid for: recorded settled from there, or its credit consumed, so it never buys a second
   * answer. Logged when none of these applies.
   */
  async #recordSettled(
    key: string,
    from: 'settling' | 'redeeming',
    fields: { transaction?: string; payer?: string | null; reason?: string },
    call: PaidCall,
  ): Promise<void> {
    if ((await this.#outbox.transition(key, from, 'settled', fields)) !== false) return
    const delivered = `settled; result delivered to ${call.requestId}`
    const fromPending = await this.#outbox.transition(key, 'pending', 'settled', { ...fields, reason: delivered })
    if (fromPending !== false) return
    if (await this.consumeCredit(key, delivered).catch(() => false)) return
    const now = await this.#ledger.get(key).catch(() => undefined)
    this.#logger.warn(
      { request_id: call.requestId, key, from, state: now?.state },
      'a delivered call’s payment could not be recorded settled',
    )
  }

  /** `settled`, its ledger record written now, or left to its `record` (SettleOptions.recordLater). */
  async #recorded(settled: Settled, record: () => Promise<void>, { recordLater }: SettleOptions): Promise<Settled> {
    if (recordLater) return { ...settled, record }
    await record()
    return settled
  }

  /**
   * A settlement the facilitator may have sent without confirming it: recorded `pending` (with its
   * transaction when named), then its fate read on chain for a moment — confirmed → the call's answer
   * goes out with a receipt; failed on chain → nothing was charged; still unknown → the result is
   * withheld and the resolver settles the books (credited: presenting the payment again collects the call).
   */
  async #settledOnChain(
    { key, evidence }: Admitted,
    call: PaidCall,
    answer: SettleAnswer,
    network: string,
    { recordLater }: SettleOptions = {},
  ): Promise<Settlement> {
    const named = answer.transaction || null
    const answered = `${answer.errorReason ?? 'no success'}${answer.errorMessage ? ` (${answer.errorMessage})` : ''}`
    const said = named
      ? `the facilitator sent the settlement ${named} but answered ${answered}`
      : `the facilitator answered ${answered}, which does not say whether the transfer was sent`
    payments.inc({ state: 'pending', network })
    await this.#outbox.transition(key, 'settling', 'pending', {
      transaction: named,
      payer: answer.payer || null,
      reason: said,
    })
    this.#logger.warn(
      { request_id: call.requestId, transaction: named, reason: said },
      'settlement not confirmed: reading the chain',
    )
    const outcome =
      evidence && this.#checker
        ? await this.#checker.confirm(evidence, named, CONFIRM_PENDING_WAIT_MS)
        : ({ state: 'pending', reason: 'no chain reader is configured' } as const)
    if (outcome.state === 'settled') {
      const transaction = outcome.transaction ?? named ?? ''
      const fields = { transaction, reason: `${said}; ${outcome.how}` }
      // With recordLater: `settling` again (confirmed on chain, its answer not kept yet; the time bound
      // restarts), recorded settled once the answer is kept — as a settlement the facilitator confirmed.
      const recorded = await this.#outbox.transition(key, 'pending', recordLater ? 'settling' : 'settled', fields)
      // A resolver took it meanwhile (the periodic one, or the payer presenting it again): its credit is
      // consumed by this answer; a redemption already under way delivers it instead, never both.
      // (The ledger away: the credit stays owed, and this answer is withheld rather than given twice.)
      const consumed = () =>
        this.consumeCredit(key, `settled on chain; result delivered to ${call.requestId}`).catch(() => false)
      if (recorded === false && !(await consumed()))
        return this.#challenged(
          call,
          `this payment settled (${transaction}) and another request presenting it is receiving its answer; the result is withheld here`,
          'DUPLICATE_NONCE',
        )
      payments.inc({ state: 'settled', network })
      const settled: Settled = {
        kind: 'settled',
        receipt: {
          success: true,
          transaction,
          network: answer.network,
          ...(answer.payer ? { payer: answer.payer } : {}),
        },
      }
      // A credit consumed above is recorded settled already.
      if (!recordLater || recorded === false) return settled
      return { ...settled, record: () => this.#recordSettled(key, 'settling', fields, call) }
    }
    if (outcome.state === 'failed') {
      payments.inc({ state: 'settle_failed', network })
      await this.#outbox.transition(key, 'pending', 'failed', { reason: `${said}; ${outcome.reason}` })
      return this.#challenged(
        call,
        `settlement failed on chain (${outcome.reason}); nothing was charged and the result is withheld`,
        'SETTLEMENT_FAILED',
      )
    }
    return this.#challenged(
      call,
      `${said}; it is not confirmed yet and will not be sent again; the result is withheld: ${PRESENT_AGAIN}`,
      'PAYMENT_PENDING',
      { transaction: named },
    )
  }

  /** v2 payments are verified against the offer itself; v1 payments against its v1 form. */
  #requirements(payment: PaymentV1 | PaymentV2, offer: OfferV2, call: PaidCall): object {
    if (payment.x402Version === 2) return offer
    const { amount, ...terms } = offer
    return {
      ...terms,
      network: payment.network,
      maxAmountRequired: amount,
      resource: call.url,
      description: call.description,
      mimeType: 'application/json',
    }
  }

  #ledgerDown(call: PaidCall, error: unknown): Refusal {
    this.#logger.warn({ request_id: call.requestId, err: (error as Error).message }, 'payment ledger unavailable')
    return { kind: 'refusal', code: 'LEDGER_UNAVAILABLE', message: LEDGER_DOWN, retryAfterS: STORE_RETRY_AFTER_S }
  }

  #unavailable(call: PaidCall, detail: string): Refusal {
    this.#logger.warn({ request_id: call.requestId, detail }, 'payment facilitator unavailable')
    return { kind: 'refusal', code: 'FACILITATOR_UNAVAILABLE', retryAfterS: FACILITATOR_RETRY_AFTER_S }
  }

  /** The caller must (re)pay, told why: the challenge to pay this call, and the pending settlement if any. */
  #challenged(call: PaidCall, reason: string, code?: PaymentErrorCode, pending?: PendingSettlement): Challenge {
    return {
      kind: 'challenge',
      reason,
      ...(code ? { code } : {}),
      required: this.challenge(call, reason),
      ...(pending ? { pending } : {}),
    }
  }
}
