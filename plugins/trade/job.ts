import { createHash } from 'node:crypto'
import { tradeJobs } from '../../src/kernel/metrics.ts'
import { encodeBase58 } from '../../src/onchain/base58.ts'
import type { JobStore } from '../../src/store/jobs.ts'
import { SCHEMA_VERSION } from '../../src/kernel/version.ts'
import {
  REJECTED_STATUSES,
  type JobView,
  type QuoteDetails,
  type Rejection,
  type RiskGate,
  type TradeStatus,
} from './schemas.ts'

/** A trade job as stored: what the status route shows, plus the transaction the quote built. */
export interface TradeJob extends Omit<JobView, 'schema_version'> {
  /** The unsigned transaction answered by the quote; execute compares the signed one's message to it. */
  unsigned_transaction_b64: string | null
  /** The execute fee's payment once held: its ledger key (null when payments are waived) and amount. */
  fee_payment?: { key: string | null; amount: string } | null
  /** The service instance (ServiceContext.instanceId) that took the job to EXECUTING. */
  executed_by?: string | null
}

export type TradeRequest = TradeJob['request']

/** Statuses a job can be quoted again from (nothing was broadcast). */
export const REQUOTABLE: readonly TradeStatus[] = ['QUOTED', 'EXPIRED', ...REJECTED_STATUSES]

/** The job's public view: everything but the stored transaction (the caller has it from the quote) and the bookkeeping. */
export function jobView(job: TradeJob): JobView {
  const { unsigned_transaction_b64: _transaction, fee_payment: _payment, executed_by: _executor, ...view } = job
  return { schema_version: SCHEMA_VERSION, ...view }
}

const iso = (ms: number) => new Date(ms).toISOString()

/**
 * The job's own tracking account: a public key derived from the job id (sha256), which the aggregator
 * adds read-only to the swap it builds. Two jobs quoting the same swap at the same moment thus get
 * different transactions — one signed transaction is one job's, and one fee's (docs/trade.md).
 */
export function trackingAccountOf(jobId: string): string {
  return encodeBase58(createHash('sha256').update(`solsentry:trade-job:${jobId}`).digest())
}

/** A job that was read moments ago is gone from the store: jobs are never deleted, so the store is broken. */
export class JobMissingError extends Error {
  constructor(readonly jobId: string) {
    super(`trade job ${jobId} vanished from the store`)
    this.name = 'JobMissingError'
  }
}

/** Trade jobs over the store: every change appends to the job's history, every move is guarded by status. */
export class Jobs {
  readonly #store: JobStore

  constructor(store: JobStore) {
    this.#store = store
  }

  async get(id: string): Promise<TradeJob | undefined> {
    return (await this.#store.get<TradeJob>(id))?.job
  }

  /** A job known to exist (read before, never deleted), as it stands now; JobMissingError if the store lost it. */
  async current(id: string): Promise<TradeJob> {
    const job = await this.get(id)
    if (!job) throw new JobMissingError(id)
    return job
  }

  /**
   * Records a quote's outcome (QUOTED or REJECTED_*) under `id`: a new job when `owner` is null, or a
   * fresh quote of one never broadcast whose wallet the caller proved to hold (`owner`, the job's
   * user_public_key; docs/trade.md "Job ownership"). Undefined when the id belongs to a job executing
   * or executed, or to a wallet not proven (checked again here: a quote takes seconds, and another
   * quote may have created the job meanwhile — a caller who found no job proved nothing).
   */
  async quoted(
    id: string,
    request: TradeRequest,
    outcome: {
      status: TradeStatus
      quote: QuoteDetails | null
      risk_gate: RiskGate | null
      unsigned_transaction_b64: string | null
      rejection: Rejection | null
      note: string | null
    },
    owner: string | null,
    nowMs = Date.now(),
  ): Promise<TradeJob | undefined> {
    const previous = await this.get(id)
    if (
      previous &&
      (!REQUOTABLE.includes(previous.status) ||
        owner === null ||
        previous.request.user_public_key !== owner ||
        request.user_public_key !== owner)
    )
      return undefined
    const at = iso(nowMs)
    const job: TradeJob = {
      job_id: id,
      status: outcome.status,
      created_at: previous?.created_at ?? at,
      updated_at: at,
      request,
      quote: outcome.quote,
      risk_gate: outcome.risk_gate,
      unsigned_transaction_b64: outcome.unsigned_transaction_b64,
      execution: null,
      rejection: outcome.rejection,
      fee: null,
      last_attempt: null,
      history: [...(previous?.history ?? []), { status: outcome.status, at, note: outcome.note }],
    }
    const stored = previous
      ? await this.#store.transition(id, [previous.status], job.status, job, nowMs)
      : await this.#store.create(id, job.status, job, nowMs)
    if (!stored) return undefined
    tradeJobs.inc({ status: job.status })
    return job
  }

  /** Binds the transaction `signature` to `jobId` unless another job owns it; the owner's id (JobStore.claimTransaction). */
  claimTransaction(signature: string, jobId: string): Promise<string> {
    return this.#store.claimTransaction(signature, jobId)
  }

  /** Moves `job` from its current status to `to` with `changes`; the stored job, or undefined when another move won. */
  async move(
    job: TradeJob,
    to: TradeStatus,
    changes: Partial<TradeJob> = {},
    note: string | null = null,
    nowMs = Date.now(),
  ): Promise<TradeJob | undefined> {
    const at = iso(nowMs)
    const history = to === job.status && note === null ? job.history : [...job.history, { status: to, at, note }]
    const next: TradeJob = { ...job, ...changes, status: to, updated_at: at, history }
    if (!(await this.#store.transition(job.job_id, [job.status], to, next, nowMs))) return undefined
    tradeJobs.inc({ status: to })
    return next
  }
}
