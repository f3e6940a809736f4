/**
 * What the trade services answer, free of HTTP, and where it becomes HTTP (`tradeAnswer`): the routes
 * in index.ts map an outcome to a status, a body and headers — the fee's refusal and receipt through
 * the payment adapter (src/http/payment-adapter.ts), the rest here.
 */
import { ApiError, errorBody } from '../../src/kernel/errors.ts'
import type { SettleAnswer } from '../../src/payments/facilitator.ts'
import type { Challenge, Refusal } from '../../src/payments/payments.ts'
import { SCHEMA_VERSION } from '../../src/kernel/version.ts'
import type { TradeJob } from './job.ts'
import type { QuoteDetails, RiskGate, TradeStatus } from './schemas.ts'

/** A job that did not go ahead, as its 422 shows it. */
export type RefusedJob = Pick<TradeJob, 'job_id' | 'status' | 'execution' | 'rejection'> &
  Partial<Pick<TradeJob, 'quote' | 'risk_gate'>>

export type TradeOutcome =
  /** A quote built: the job is QUOTED. */
  | { kind: 'quoted'; job_id: string; quote: QuoteDetails; risk_gate: RiskGate; unsigned_transaction_b64: string }
  /**
   * The swap confirmed (now, or earlier: an execute of a done job answers it again), with the fee's
   * receipt when this execute settled it.
   */
  | { kind: 'confirmed'; job: Pick<TradeJob, 'job_id' | 'execution'>; receipt?: SettleAnswer | null }
  /** The trade did not go ahead: REJECTED_*, EXPIRED or FAILED, with the rejection. */
  | { kind: 'refused'; job: RefusedJob }
  | { kind: 'job_not_found'; job_id: string }
  /** The job id belongs to a trade that cannot be quoted again or is still executing. */
  | { kind: 'job_conflict'; job_id: string; job_status?: TradeStatus; message?: string }
  /** An existing job quoted again without proof of its wallet (`reason`: what was missing). */
  | { kind: 'not_owner'; job_id: string; reason: string }
  /** The fee could not be taken: the challenge to pay it, or why no payment can be taken now. */
  | { kind: 'payment'; refusal: Challenge | Refusal }

/**
 * An outcome other than the fee's refusal as HTTP: 200, 422 TRADE_REJECTED, 404 JOB_NOT_FOUND, 409
 * JOB_CONFLICT, 403 JOB_OWNER_PROOF_REQUIRED (the fee's refusal and receipt are the payment adapter's).
 */
export function tradeAnswer(
  outcome: Exclude<TradeOutcome, { kind: 'payment' }>,
  requestId: string,
): { status: number; body: unknown; headers?: Record<string, string> } {
  switch (outcome.kind) {
    case 'quoted': {
      const { kind: _kind, ...quoted } = outcome
      return { status: 200, body: { schema_version: SCHEMA_VERSION, ...quoted, status: 'QUOTED', rejection: null } }
    }
    case 'confirmed':
      return {
        status: 200,
        body: {
          schema_version: SCHEMA_VERSION,
          job_id: outcome.job.job_id,
          status: 'CONFIRMED',
          execution: outcome.job.execution,
          rejection: null,
        },
      }
    case 'refused': {
      const { job_id, status, execution, rejection } = outcome.job
      const extra = {
        ...(outcome.job.quote ? { quote: outcome.job.quote } : {}),
        ...(outcome.job.risk_gate ? { risk_gate: outcome.job.risk_gate } : {}),
      }
      const message = `${status}: ${rejection?.reason ?? 'the trade did not go ahead'}`
      return {
        status: 422,
        body: errorBody(
          new ApiError('TRADE_REJECTED', { message, details: { job_id, status, execution, rejection, ...extra } }),
          requestId,
        ),
      }
    }
    case 'job_not_found':
      return {
        status: 404,
        body: errorBody(new ApiError('JOB_NOT_FOUND', { details: { job_id: outcome.job_id } }), requestId),
      }
    case 'job_conflict': {
      const details = { job_id: outcome.job_id, ...(outcome.job_status ? { job_status: outcome.job_status } : {}) }
      return {
        status: 409,
        body: errorBody(new ApiError('JOB_CONFLICT', { message: outcome.message, details }), requestId),
      }
    }
    case 'not_owner':
      return {
        status: 403,
        body: errorBody(
          new ApiError('JOB_OWNER_PROOF_REQUIRED', { details: { job_id: outcome.job_id, reason: outcome.reason } }),
          requestId,
        ),
      }
  }
}
