/**
 * Jobs brought up to date with time and the chain when read: a quote past its blockhash reads EXPIRED,
 * a job left EXECUTING by an execute that stopped is resolved from its transaction, and a fee whose
 * settlement was pending is read again from the ledger (docs/trade.md, "After a restart").
 */
import { getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit'
import type { ServiceContext } from '../../src/context.ts'
import { bigintSafe } from '../../src/onchain/bigint-json.ts'
import { CallMeter } from '../../src/sources/upstream.ts'
import { blockhashValid, status as landingOf } from './chain.ts'
import { feeOnRecord } from './fee.ts'
import type { Jobs, TradeJob } from './job.ts'
import { rejection } from './rejections.ts'

/** Grace past the quote's estimated expiry before execute refuses it without asking the chain. */
const EXPIRY_GRACE_MS = 30_000

/** Marks a quote past its blockhash EXPIRED (nothing was sent; nothing can be now). */
export function expireQuote(jobs: Jobs, job: TradeJob): Promise<TradeJob | undefined> {
  const expired = rejection('QUOTE_EXPIRED', 'the quote expired with its blockhash before it was executed: quote again')
  return jobs.move(job, 'EXPIRED', { rejection: expired }, "the quote's blockhash expired")
}

/** Whether a quoted job is past its estimated expiry (with grace: execute asks the chain itself). */
export function quoteExpired(job: TradeJob, nowMs = Date.now()): boolean {
  return (
    job.status === 'QUOTED' &&
    job.quote?.expires_at != null &&
    Date.parse(job.quote.expires_at) + EXPIRY_GRACE_MS < nowMs
  )
}

/**
 * How long an EXECUTING job of a shared store (Redis) may go without an update before it is taken for
 * orphaned (its instance gone): longer than an execute's confirmation wait (150 s at most), so another
 * instance's live execute is never taken.
 */
const STALE_MS = 180_000

/**
 * Whether an EXECUTING job was left by an execute that is no longer running. With the embedded store
 * one instance serves it, so a job another run of the service left EXECUTING is orphaned at once;
 * with a shared store it is orphaned once it has gone STALE_MS without an update.
 */
function orphaned(ctx: ServiceContext, job: TradeJob, nowMs: number): boolean {
  if (job.status !== 'EXECUTING') return false
  if (ctx.store.kind === 'sqlite' && job.executed_by && job.executed_by !== ctx.instanceId) return true
  return nowMs - Date.parse(job.updated_at) >= STALE_MS
}

/**
 * Brings a job read from the store up to date with the chain: a job left EXECUTING by an execute that
 * stopped (a restart mid-execute) is resolved from its transaction — confirmed, failed, or unable to
 * land now — and a fee whose settlement was pending is read again from the ledger. The fee is what
 * the ledger says (feeOnRecord): charged once if it settled on chain, nothing otherwise.
 */
export async function resolveJob(
  ctx: ServiceContext,
  jobs: Jobs,
  job: TradeJob,
  nowMs = Date.now(),
): Promise<TradeJob> {
  if (job.status !== 'EXECUTING') {
    if (job.fee?.status !== 'pending') return job
    const fee = await feeOnRecord(ctx, job)
    return fee.status === 'pending'
      ? job
      : ((await jobs.move(job, job.status, { fee }, `fee ${fee.status} (read from the chain)`)) ?? job)
  }
  if (!orphaned(ctx, job, nowMs) || !ctx.sources.solana) return job
  const rpc = ctx.sources.solana.rpc(new CallMeter())
  const resolved = async (to: 'CONFIRMED' | 'FAILED', changes: Partial<TradeJob>) => {
    const fee = await feeOnRecord(ctx, { ...job, ...changes, status: to })
    return (await jobs.move(job, to, { ...changes, fee }, 'resolved after the execute stopped')) ?? job
  }
  try {
    if (!job.execution) {
      return await resolved('FAILED', {
        rejection: rejection('INTERRUPTED', 'the service stopped before the transaction was sent: quote again'),
      })
    }
    const landed = await landingOf(rpc, job.execution.tx_signature)
    if (landed?.kind === 'confirmed')
      return await resolved('CONFIRMED', { execution: { ...job.execution, slot: landed.slot } })
    if (landed?.kind === 'failed') {
      return await resolved('FAILED', {
        rejection: rejection(
          'TRANSACTION_FAILED',
          `the transaction failed on chain (${JSON.stringify(landed.err, bigintSafe)})`,
        ),
      })
    }
    const quoted = job.unsigned_transaction_b64
    const message =
      quoted === null
        ? null
        : getCompiledTransactionMessageDecoder().decode(
            getTransactionDecoder().decode(Buffer.from(quoted, 'base64')).messageBytes,
          )
    if (message && !(await blockhashValid(rpc, message.lifetimeToken))) {
      return await resolved('FAILED', {
        rejection: rejection('NOT_CONFIRMED', 'the transaction did not land before its blockhash expired'),
      })
    }
  } catch (error) {
    ctx.logger.warn({ job_id: job.job_id, err: (error as Error).message }, 'cannot resolve an orphaned execute yet')
  }
  return job
}
