import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { HttpJsonSource, type Authorizer } from '../sources/http-json.ts'
import { CallMeter, UpstreamError } from '../sources/upstream.ts'
import { failureDetail } from '../sources/health-probes.ts'
import type { ProbeResult } from '../kernel/health.ts'
import type { PaymentV1, PaymentV2 } from './payment-header.ts'

const VerifyAnswer = Type.Object({
  isValid: Type.Boolean(),
  invalidReason: Type.Optional(Type.String()),
  invalidMessage: Type.Optional(Type.String()),
  payer: Type.Optional(Type.String()),
})
const SettleAnswer = Type.Object({
  success: Type.Boolean(),
  errorReason: Type.Optional(Type.String()),
  errorMessage: Type.Optional(Type.String()),
  payer: Type.Optional(Type.String()),
  transaction: Type.String(),
  network: Type.String(),
})
const SupportedAnswer = Type.Object({
  kinds: Type.Array(
    Type.Object({
      x402Version: Type.Number(),
      scheme: Type.String(),
      network: Type.String(),
      extra: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
  ),
})

export type VerifyAnswer = Static<typeof VerifyAnswer>
export type SettleAnswer = Static<typeof SettleAnswer>
export type SupportedAnswer = Static<typeof SupportedAnswer>

export interface FacilitatorOptions {
  url: string
  /** Sent with every request, for a hosted facilitator that wants a key. */
  headers?: Record<string, string>
  /** Headers signed for each request (Coinbase CDP's per-request JWT: `cdpAuthorizer`). */
  authorize?: Authorizer
  /**
   * How long a verify may take in all, retries included: a facilitator that does not answer within it
   * is an outage (503), leaving the paid route the rest of its deadline. @default 2000
   */
  verifyBudgetMs?: number
  /** Per attempt of `/supported` and `/verify` (a verify is also bounded by its budget). @default 2000 */
  timeoutMs?: number
  /** How long a settlement may take: the facilitator waits for confirmation (up to 30 s). @default 40000 */
  settleTimeoutMs?: number
}

/**
 * An x402 facilitator over HTTP (`GET /supported`, `POST /verify`, `POST /settle`), through the same
 * upstream core as the data sources: timeouts, a breaker, counting. `/supported` and `/verify` are
 * retried on 429/5xx/network errors (they move nothing); `/settle` never is — a settlement that timed
 * out may have happened, so it is reconciled, not re-sent (FACTS.md §x402).
 *
 * A facilitator that cannot be reached throws `UpstreamError` (the service then answers 503 and does no
 * work); a payment it refuses is an answer (`isValid: false`, `success: false`), even when sent with a
 * 4xx status.
 */
export class FacilitatorClient {
  readonly #judge: HttpJsonSource
  readonly #settle: HttpJsonSource
  /** `/supported` asked while the judging calls' breaker is open: its own breaker, one attempt. */
  readonly #probe: HttpJsonSource
  readonly #verifyBudgetMs: number

  constructor(options: FacilitatorOptions) {
    const common = { baseUrl: options.url, headers: options.headers, authorize: options.authorize }
    this.#verifyBudgetMs = options.verifyBudgetMs ?? DEFAULT_VERIFY_BUDGET_MS
    this.#judge = new HttpJsonSource({
      ...common,
      name: 'facilitator',
      timeoutMs: options.timeoutMs ?? DEFAULT_VERIFY_BUDGET_MS,
      retries: 2,
    })
    this.#probe = new HttpJsonSource({
      ...common,
      name: 'facilitator',
      timeoutMs: PROBE_TIMEOUT_MS,
      retries: 0,
      breakerThreshold: Number.POSITIVE_INFINITY,
    })
    this.#settle = new HttpJsonSource({
      ...common,
      name: 'facilitator',
      timeoutMs: options.settleTimeoutMs ?? 40_000,
      retries: 0,
      breakerThreshold: Number.POSITIVE_INFINITY,
    })
  }

  /**
   * While the judging calls' breaker is not closed (the facilitator failed them), asks `/supported`
   * once: when it answers, the breaker is closed, so paid calls are taken again at once rather than
   * after the breaker's cooldown. True when it closed the breaker.
   */
  async recover(): Promise<boolean> {
    if (this.#judge.upstream.breaker === 'closed') return false
    try {
      await this.probe()
    } catch {
      return false
    }
    return true
  }

  /**
   * `/supported` asked once (one attempt, its own breaker): the health probe's call and the doctor's.
   * When it answers, the judging calls' breaker is closed.
   */
  async probe(): Promise<SupportedAnswer> {
    const answer = await this.#probe.get('/supported', SupportedAnswer, new CallMeter(), 0)
    this.#judge.upstream.reset()
    return answer
  }

  /** What live traffic (verify, settle) says of the facilitator, for the health board. */
  observed() {
    return this.#judge.upstream.observed()
  }

  supported(meter = new CallMeter()): Promise<SupportedAnswer> {
    return this.#judge.get('/supported', SupportedAnswer, meter, 0)
  }

  async verify(payment: PaymentV1 | PaymentV2, requirements: object, meter = new CallMeter()): Promise<VerifyAnswer> {
    const budget = AbortSignal.timeout(this.#verifyBudgetMs)
    return refusalAsAnswer(
      this.#judge.post('/verify', body(payment, requirements), VerifyAnswer, meter, budget),
      VerifyAnswer,
      (detail) => ({ isValid: false, invalidReason: detail }),
    )
  }

  async settle(payment: PaymentV1 | PaymentV2, requirements: object, meter = new CallMeter()): Promise<SettleAnswer> {
    return refusalAsAnswer(
      this.#settle.post('/settle', body(payment, requirements), SettleAnswer, meter),
      SettleAnswer,
      (detail) => ({
        success: false,
        errorReason: detail,
        transaction: '',
        network: 'network' in requirements ? String(requirements.network) : '',
      }),
    )
  }
}

const body = (payment: PaymentV1 | PaymentV2, requirements: object) => ({
  x402Version: payment.x402Version,
  paymentPayload: payment,
  paymentRequirements: requirements,
})

/** A health probe's wait: a facilitator that answers `/supported` answers it at once. */
const PROBE_TIMEOUT_MS = 1_000

/**
 * Verify's budget: a healthy facilitator verifies in well under a second (a signature check and a
 * simulation); past two seconds it is taken for down, so a paid quick scan still answers inside 5 s.
 */
const DEFAULT_VERIFY_BUDGET_MS = 2_000

/**
 * Statuses with which a facilitator refuses the payment itself (a bad request about it). Any other 4xx
 * without a verdict in its body — 404 (a wrong FACILITATOR_URL), 401/403 (our key refused), 405 — says
 * the facilitator cannot judge, which is an outage: the caller's payment is not at fault.
 */
const REFUSAL_STATUSES = new Set([400, 402, 409, 422])

/**
 * A 4xx refusal is the facilitator's verdict: its body if it has the answer's shape, else its error
 * text when the status is one of a refused payment (REFUSAL_STATUSES). Anything else throws.
 */
async function refusalAsAnswer<T>(
  call: Promise<T>,
  shape: typeof VerifyAnswer | typeof SettleAnswer,
  fallback: (detail: string) => T,
): Promise<T> {
  try {
    return await call
  } catch (error) {
    if (!(error instanceof UpstreamError) || error.reason !== 'rejected') throw error
    const refusal = error.body as Record<string, unknown> | undefined
    if (Value.Check(shape, refusal)) return refusal as T
    if (error.status === undefined || !REFUSAL_STATUSES.has(error.status)) throw error
    return fallback(typeof refusal?.error === 'string' ? refusal.error : error.message)
  }
}

/**
 * Settle refusals the official schemes (@x402/svm, @x402/evm 2.27) give from their verification,
 * before anything is sent: malformed or mismatched payloads, bad signatures, simulation failures,
 * insufficient balance. Every other unsuccessful answer may follow a transfer that was sent, so the
 * chain decides, not the answer: `*_transaction_failed` and v1's `transaction_failed` are also answered,
 * with no transaction, when sending threw or confirmation failed after the send (ExactSvmSchemeV1.settle);
 * `invalid_exact_evm_nonce_already_used` means the authorization was used — perhaps by this very
 * settlement; `duplicate_settlement`, `settlement_pending` and unknown reasons say nothing either way.
 */
export function refusedBeforeSending(reason: string | undefined): boolean {
  if (!reason) return false
  if (VERIFY_REFUSALS.has(reason)) return true
  return (
    reason.startsWith('invalid_exact_') &&
    !reason.endsWith('_transaction_failed') &&
    reason !== 'invalid_exact_evm_nonce_already_used'
  )
}

/** Verification refusals of the official packages outside the `invalid_exact_` family. */
const VERIFY_REFUSALS: ReadonlySet<string> = new Set([
  'asset_not_deployed_contract',
  'unsupported_payload_type',
  'extension_echo_mismatch',
])

/**
 * The facilitator's health probe: `/supported`, and whether it serves `networks` (the rails offered).
 * Down when it does not answer; degraded when it refuses (a key it does not accept: 401/403) or serves
 * one of the rails' networks not; ok otherwise.
 */
export async function probeFacilitator(
  facilitator: FacilitatorClient,
  rails: readonly { network: string; v1Network?: string | null }[],
): Promise<ProbeResult> {
  let answer: SupportedAnswer
  try {
    answer = await facilitator.probe()
  } catch (error) {
    const status = error instanceof UpstreamError ? error.status : undefined
    if (status === 401 || status === 403)
      return { state: 'degraded', detail: `/supported refused the credentials (HTTP ${status})` }
    return {
      state: error instanceof UpstreamError && error.reason === 'rejected' ? 'degraded' : 'down',
      detail: failureDetail(error),
    }
  }
  const served = new Set(answer.kinds.filter((kind) => kind.scheme === 'exact').map((kind) => kind.network))
  // A facilitator lists a network by its CAIP-2 id (x402 v2), its v1 name, or both.
  const missing = rails.filter((rail) => !served.has(rail.network) && !(rail.v1Network && served.has(rail.v1Network)))
  if (missing.length > 0)
    return {
      state: 'degraded',
      detail: `/supported does not list ${missing.map((rail) => rail.network).join(', ')} (exact)`,
    }
  return {
    state: 'ok',
    detail: `/supported lists ${rails.map((rail) => rail.network).join(', ') || 'no rail'} (exact)`,
  }
}
