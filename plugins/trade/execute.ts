import { setTimeout as sleep } from 'node:timers/promises'
/**
 * `POST /trade/execute` (docs/trade.md): the signed transaction is checked against the quote before
 * any money is asked for; then the fee is verified and held, the job claimed (one execute per job),
 * the transaction simulated, sent and confirmed; the fee settles only on CONFIRMED. Answers an outcome
 * (outcome.ts), not HTTP.
 */
import type { ServiceContext } from '../../src/context.ts'
import type { Held, PaymentHold } from '../../src/payments/hold.ts'
import type { Challenge, Refusal } from '../../src/payments/payments.ts'
import { CallMeter } from '../../src/sources/upstream.ts'
import { blockhashValid, confirm, send, simulate, type Landing } from './chain.ts'
import { EXECUTE_FEE, feeOf, feeOnRecord, type Fee } from './fee.ts'
import type { Jobs, TradeJob } from './job.ts'
import type { TradeOutcome } from './outcome.ts'
import { bigintSafe } from '../../src/onchain/bigint-json.ts'
import { expireQuote, quoteExpired, resolveJob } from './job-recovery.ts'
import { rejection, type RejectionCode } from './rejections.ts'
import type { Rejection } from './schemas.ts'
import { checkSigned, type Signed } from './signed.ts'

/** How long a second execute of a job waits for the first one's outcome. */
const WAIT_FOR_OUTCOME_MS = 160_000

export interface ExecuteDeps {
  ctx: ServiceContext
  jobs: Jobs
  /** Verifies and holds the fee (src/payments/hold.ts), or answers why not: the challenge to pay, or a refusal. */
  hold(): Promise<Held | Challenge | Refusal>
  requestId: string
}

export async function executeTrade(
  deps: ExecuteDeps,
  body: { job_id: string; signed_transaction_b64: string },
): Promise<TradeOutcome> {
  const { jobs, requestId } = deps
  const job = await jobs.get(body.job_id)
  if (!job) return { kind: 'job_not_found', job_id: body.job_id }
  if (job.status !== 'QUOTED') return outcomeOf(job, deps)
  if (quoteExpired(job)) return outcomeOf((await expireQuote(jobs, job)) ?? (await jobs.current(job.job_id)), deps)

  // Refused before any charge; the attempt does not consume the quote: the right transaction may follow.
  const refuse = async (code: RejectionCode, reason: string): Promise<TradeOutcome> => {
    const refused = rejection(code, reason)
    await jobs.move(job, 'QUOTED', { last_attempt: { at: new Date().toISOString(), rejection: refused } }, null)
    return {
      kind: 'refused',
      job: { job_id: job.job_id, status: 'REJECTED_VALIDATION', execution: null, rejection: refused },
    }
  }
  const checked = await checkSigned(job, body.signed_transaction_b64)
  if (!checked.ok) return refuse(checked.code, checked.reason)
  // One on-chain transaction is one swap: it is executed, and its fee charged, under one job only.
  const owner = await jobs.claimTransaction(checked.signature, job.job_id)
  if (owner !== job.job_id)
    return refuse(
      'TRANSACTION_OF_ANOTHER_JOB',
      `this signed transaction is job ${owner}'s (one transaction, one job, one fee): see GET /trade/status/${owner}; nothing was charged`,
    )

  const held = await deps.hold()
  if (held.kind !== 'held') return { kind: 'payment', refusal: held }
  const { hold } = held
  let executing: Awaited<ReturnType<Jobs['move']>>
  try {
    executing = await jobs.move(
      job,
      'EXECUTING',
      { last_attempt: null, fee_payment: { key: hold.key, amount: EXECUTE_FEE }, executed_by: deps.ctx.instanceId },
      'fee held; checking and sending the transaction',
    )
  } catch (error) {
    // The job store failed as the fee was held: nothing was sent, so the fee is released now rather
    // than left verified until a restart reconciles it.
    await hold.cancel('the job could not be claimed for execution')
    throw error
  }
  if (!executing) {
    // Another execute of this job won the claim: its outcome is this one's, and this fee is released.
    await hold.cancel('another execute of this job is running')
    return outcomeOf(await jobs.current(job.job_id), deps)
  }

  try {
    const landing = await land(deps.ctx, jobs, executing, body.signed_transaction_b64, checked)
    return await finish(deps, landing.job, landing.result, hold)
  } catch (error) {
    // A bug or an unreadable chain before anything was sent: release the job and the fee.
    deps.ctx.logger.error(
      { request_id: requestId, job_id: job.job_id, err: (error as Error).message },
      'trade execute failed',
    )
    // Failed after its fee was settled (recording the confirmation): the money is on chain and the job
    // says so once it is read again; never cancelled, never charged twice.
    if (hold.concluded)
      return {
        kind: 'job_conflict',
        job_id: job.job_id,
        message: `the trade's outcome could not be recorded (${(error as Error).message}): poll GET /trade/status/${job.job_id}`,
      }
    await hold.cancel('the execute failed before sending')
    const current = await jobs.current(job.job_id)
    const refused = rejection(
      'INTERNAL',
      `the transaction could not be sent (${(error as Error).message}); nothing was charged: execute again`,
    )
    if (current.status === 'EXECUTING' && current.execution === null)
      await jobs.move(
        current,
        'QUOTED',
        { last_attempt: { at: new Date().toISOString(), rejection: refused } },
        'released after an internal error',
      )
    return {
      kind: 'refused',
      job: { job_id: job.job_id, status: 'REJECTED_INTERNAL', execution: null, rejection: refused },
    }
  }
}

type Result =
  | { kind: 'confirmed'; slot: number }
  | { kind: 'failed'; rejection: Rejection }
  | { kind: 'unknown'; reason: string }

/** Checks the blockhash, simulates, sends and confirms; the job as it then stands, and the result. */
async function land(
  ctx: ServiceContext,
  jobs: Jobs,
  job: TradeJob,
  wire: string,
  checked: Signed,
): Promise<{ job: TradeJob; result: Result }> {
  if (!ctx.sources.solana) throw new Error('no Solana RPC is configured')
  const rpc = ctx.sources.solana.rpc(new CallMeter())
  const failed = (code: RejectionCode, reason: string): Result => ({
    kind: 'failed',
    rejection: rejection(code, reason),
  })
  if (!(await blockhashValid(rpc, checked.blockhash)))
    return {
      job,
      result: failed(
        'BLOCKHASH_EXPIRED',
        "the transaction's blockhash has expired, so it can never land: quote again and sign the new transaction",
      ),
    }
  const simulation = await simulate(rpc, wire)
  if (simulation.err !== null)
    return {
      job,
      result: failed(
        'SIMULATION_FAILED',
        `the transaction fails in simulation (${JSON.stringify(simulation.err, bigintSafe)}): ${simulation.logs.slice(-3).join(' | ')}; it was not sent`,
      ),
    }

  // Recorded before sending: if this process dies now, the job still names the transaction to look for.
  const sent = await jobs.move(
    job,
    'EXECUTING',
    { execution: { tx_signature: checked.signature, slot: null } },
    'broadcast',
  )
  if (!sent) throw new Error('the job changed under this execute')
  const lastValid = job.quote?.last_valid_block_height
  if (lastValid == null) throw new Error('the quoted transaction has no last valid block height')
  await send(rpc, wire).catch(() => {})
  const landing: Landing = await confirm(rpc, checked.signature, wire, BigInt(lastValid))
  if (landing.kind === 'confirmed') return { job: sent, result: { kind: 'confirmed', slot: landing.slot } }
  if (landing.kind === 'failed')
    return {
      job: sent,
      result: failed(
        'TRANSACTION_FAILED',
        `the transaction landed in slot ${landing.slot} but failed (${JSON.stringify(landing.err, bigintSafe)}): nothing was swapped; the network fee was spent`,
      ),
    }
  if (landing.kind === 'expired')
    return {
      job: sent,
      result: failed(
        'NOT_CONFIRMED',
        'the transaction was sent but did not land before its blockhash expired; it never can now: quote again',
      ),
    }
  return { job: sent, result: { kind: 'unknown', reason: landing.reason } }
}

/** Records the outcome, settles or cancels the fee, and answers. */
async function finish(deps: ExecuteDeps, job: TradeJob, result: Result, hold: PaymentHold): Promise<TradeOutcome> {
  const { jobs, requestId } = deps
  const signature = job.execution?.tx_signature
  if (result.kind === 'confirmed' && signature) {
    const settled = await hold.settle()
    const execution = { tx_signature: signature, slot: result.slot }
    // Not settled: refused (nothing charged) or its answer lost (pending, resolved from the chain) — the ledger says which.
    const fee: Fee =
      settled.kind === 'settled'
        ? feeOf('settled', null, settled.receipt ?? {})
        : await feeOnRecord(deps.ctx, { ...job, status: 'CONFIRMED' })
    if (settled.kind !== 'settled')
      deps.ctx.logger.warn(
        {
          request_id: requestId,
          job_id: job.job_id,
          reason: settled.kind === 'challenge' ? settled.reason : (settled.message ?? settled.code),
          fee: fee.status,
        },
        'trade confirmed but its fee did not settle',
      )
    const done =
      (await jobs.move(job, 'CONFIRMED', { execution, fee, rejection: null }, `confirmed in slot ${result.slot}`)) ??
      (await jobs.current(job.job_id))
    deps.ctx.logger.info(
      { request_id: requestId, job_id: job.job_id, tx: execution.tx_signature, slot: result.slot, fee: fee.status },
      'trade confirmed',
    )
    const receipt = settled.kind === 'settled' ? settled.receipt : null
    return { kind: 'confirmed', job: { job_id: done.job_id, execution }, receipt }
  }
  if (result.kind !== 'failed') {
    await hold.cancel('the outcome of the trade could not be confirmed')
    const reason = result.kind === 'unknown' ? result.reason : 'no signature was recorded'
    const unknown = rejection(
      'CONFIRMATION_UNKNOWN',
      `the transaction was sent but its outcome could not be read (${reason}): poll GET /trade/status/${job.job_id}; no fee was charged`,
    )
    await jobs.move(job, 'EXECUTING', { fee: feeOf('cancelled', unknown.reason) }, 'outcome unknown')
    return {
      kind: 'refused',
      job: { job_id: job.job_id, status: 'EXECUTING', execution: job.execution, rejection: unknown },
    }
  }
  await hold.cancel(result.rejection.code)
  deps.ctx.logger.info(
    { request_id: requestId, job_id: job.job_id, status: 'FAILED', code: result.rejection.code },
    'trade not executed',
  )
  const fee = feeOf('cancelled', 'the trade did not confirm')
  const done =
    (await jobs.move(job, 'FAILED', { rejection: result.rejection, fee }, result.rejection.code)) ??
    (await jobs.current(job.job_id))
  return { kind: 'refused', job: done }
}

/**
 * The answer for a job that is not waiting to be executed: its recorded outcome, without charging
 * (a second execute of a confirmed job answers the first confirmation). One still executing is
 * waited for; one executing in a process that is gone is resolved from the chain.
 */
async function outcomeOf(job: TradeJob, deps: ExecuteDeps): Promise<TradeOutcome> {
  const { jobs } = deps
  // A pending fee is read again from the ledger (and a credit of a confirmed trade consumed) on the way.
  let current = job.status === 'EXECUTING' ? job : await resolveJob(deps.ctx, jobs, job)
  const waitUntil = Date.now() + WAIT_FOR_OUTCOME_MS
  while (current.status === 'EXECUTING' && Date.now() < waitUntil) {
    const resolved = await resolveJob(deps.ctx, jobs, current)
    if (resolved.status !== 'EXECUTING') {
      current = resolved
      break
    }
    await sleep(250)
    current = await jobs.current(job.job_id)
  }
  if (current.status === 'CONFIRMED') return { kind: 'confirmed', job: current }
  if (current.status === 'EXECUTING')
    return {
      kind: 'job_conflict',
      job_id: current.job_id,
      job_status: current.status,
      message: 'this job is still executing: poll GET /trade/status/:job_id for its outcome',
    }
  return { kind: 'refused', job: current }
}
