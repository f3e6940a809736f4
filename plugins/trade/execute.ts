/**
 * `POST /trade/execute` (docs/trade.md): the signed transaction is checked against the quote before
 * any money is asked for; then the fee is verified and held, the job claimed (one execute per job),
 * the transaction simulated, sent and confirmed; the fee settles only on CONFIRMED.
 */
import { getBase58Decoder, getCompiledTransactionMessageDecoder, getTransactionDecoder, verifySignature, getPublicKeyFromAddress, type Address, type SignatureBytes } from '@solana/kit'
import type { ServiceContext } from '../../src/context.ts'
import { ApiError, errorBody } from '../../src/errors.ts'
import type { PaymentHold } from '../../src/payments/http.ts'
import { CallMeter } from '../../src/sources/upstream.ts'
import { SCHEMA_VERSION } from '../../src/version.ts'
import { blockhashValid, confirm, send, simulate, status as landingOf, type Landing } from './chain.ts'
import { Jobs, type TradeJob } from './job.ts'
import { feeOnRecord, type Fee } from './fee.ts'
import { rejectedAnswer, type TradeAnswer } from './quote.ts'
import type { Rejection } from './schemas.ts'

/** How long a second execute of a job waits for the first one's outcome. */
const WAIT_FOR_OUTCOME_MS = 160_000
/** Grace past the quote's estimated expiry before execute refuses it without asking the chain. */
const EXPIRY_GRACE_MS = 30_000

export interface ExecuteDeps {
  ctx: ServiceContext
  jobs: Jobs
  /** Verifies and holds the fee (the 402/503 answer when it cannot). */
  hold(): Promise<{ ok: false; answer: TradeAnswer & { headers: Record<string, string> } } | { ok: true; hold: PaymentHold }>
  requestId: string
  /** The fee in USDC atomic units (recorded on the job). */
  fee: string
}

export async function executeTrade(deps: ExecuteDeps, body: { job_id: string; signed_transaction_b64: string }): Promise<TradeAnswer> {
  const { jobs, requestId } = deps
  const job = await jobs.get(body.job_id)
  if (!job) return { status: 404, body: errorBody(new ApiError('JOB_NOT_FOUND', { details: { job_id: body.job_id } }), requestId) }
  if (job.status !== 'QUOTED') return outcomeOf(job, deps)
  if (quoteExpired(job)) {
    const expired = (await expireQuote(jobs, job)) ?? (await jobs.get(job.job_id))!
    return outcomeOf(expired, deps)
  }

  // Refused before any charge; the attempt does not consume the quote: the right transaction may follow.
  const refuse = async (code: string, reason: string) => {
    const rejection: Rejection = { code, reason, refundable: true }
    await jobs.move(job, 'QUOTED', { last_attempt: { at: new Date().toISOString(), rejection } }, null)
    return rejectedAnswer({ job_id: job.job_id, status: 'REJECTED_VALIDATION', execution: null, rejection }, requestId)
  }
  const checked = await checkSigned(job, body.signed_transaction_b64)
  if (!checked.ok) return refuse(checked.code, checked.reason)
  // One on-chain transaction is one swap: it is executed, and its fee charged, under one job only.
  const owner = await jobs.claimTransaction(checked.signature, job.job_id)
  if (owner !== job.job_id)
    return refuse('TRANSACTION_OF_ANOTHER_JOB', `this signed transaction is job ${owner}'s (one transaction, one job, one fee): see GET /trade/status/${owner}; nothing was charged`)

  const held = await deps.hold()
  if (!held.ok) return held.answer
  const { hold } = held
  const executing = await jobs.move(
    job,
    'EXECUTING',
    { last_attempt: null, fee_payment: { key: hold.key, amount: deps.fee }, executed_by: deps.ctx.instanceId },
    'fee held; checking and sending the transaction',
  )
  if (!executing) {
    // Another execute of this job won the claim: its outcome is this one's, and this fee is released.
    await hold.cancel('another execute of this job is running')
    return outcomeOf((await jobs.get(job.job_id))!, deps)
  }

  try {
    const landing = await land(deps.ctx, jobs, executing, body.signed_transaction_b64, checked)
    return await finish(deps, landing.job, landing.result, hold)
  } catch (error) {
    // A bug or an unreadable chain before anything was sent: release the job and the fee.
    deps.ctx.logger.error({ request_id: requestId, job_id: job.job_id, err: (error as Error).message }, 'trade execute failed before sending')
    await hold.cancel('the execute failed before sending')
    const current = (await jobs.get(job.job_id))!
    const rejection: Rejection = { code: 'INTERNAL', reason: `the transaction could not be sent (${(error as Error).message}); nothing was charged: execute again`, refundable: true }
    if (current.status === 'EXECUTING' && current.execution === null) await jobs.move(current, 'QUOTED', { last_attempt: { at: new Date().toISOString(), rejection } }, 'released after an internal error')
    return rejectedAnswer({ job_id: job.job_id, status: 'REJECTED_INTERNAL', execution: null, rejection }, requestId)
  }
}

type Result = { kind: 'confirmed'; slot: number } | { kind: 'rejected'; status: 'FAILED'; rejection: Rejection } | { kind: 'unknown'; reason: string }

/** Checks the blockhash, simulates, sends and confirms; the job as it then stands, and the result. */
async function land(ctx: ServiceContext, jobs: Jobs, job: TradeJob, wire: string, checked: Signed): Promise<{ job: TradeJob; result: Result }> {
  const rpc = ctx.sources.solana!.rpc(new CallMeter())
  const failed = (code: string, reason: string, refundable: boolean): Result => ({ kind: 'rejected', status: 'FAILED', rejection: { code, reason, refundable } })
  if (!(await blockhashValid(rpc, checked.blockhash)))
    return { job, result: failed('BLOCKHASH_EXPIRED', 'the transaction\'s blockhash has expired, so it can never land: quote again and sign the new transaction', true) }
  const simulation = await simulate(rpc, wire)
  if (simulation.err !== null)
    return { job, result: failed('SIMULATION_FAILED', `the transaction fails in simulation (${JSON.stringify(simulation.err, bigintSafe)}): ${simulation.logs.slice(-3).join(' | ')}; it was not sent`, true) }

  // Recorded before sending: if this process dies now, the job still names the transaction to look for.
  const sent = await jobs.move(job, 'EXECUTING', { execution: { tx_signature: checked.signature, slot: null } }, 'broadcast')
  if (!sent) throw new Error('the job changed under this execute')
  await send(rpc, wire).catch(() => {})
  const landing: Landing = await confirm(rpc, checked.signature, wire, BigInt(job.quote!.last_valid_block_height!))
  if (landing.kind === 'confirmed') return { job: sent, result: { kind: 'confirmed', slot: landing.slot } }
  if (landing.kind === 'failed')
    return { job: sent, result: failed('TRANSACTION_FAILED', `the transaction landed in slot ${landing.slot} but failed (${JSON.stringify(landing.err, bigintSafe)}): nothing was swapped; the network fee was spent`, false) }
  if (landing.kind === 'expired')
    return { job: sent, result: failed('NOT_CONFIRMED', 'the transaction was sent but did not land before its blockhash expired; it never can now: quote again', true) }
  return { job: sent, result: { kind: 'unknown', reason: landing.reason } }
}

/** Records the outcome, settles or cancels the fee, and answers. */
async function finish(deps: ExecuteDeps, job: TradeJob, result: Result, hold: PaymentHold): Promise<TradeAnswer> {
  const { jobs, requestId } = deps
  if (result.kind === 'confirmed') {
    const settled = await hold.settle()
    const execution = { tx_signature: job.execution!.tx_signature, slot: result.slot }
    // Not settled: refused (nothing charged) or its answer lost (pending, resolved from the chain) — the ledger says which.
    const fee: Fee = settled.ok
      ? { status: 'settled', amount: deps.fee, network: settled.settlement?.network || null, transaction: settled.settlement?.transaction || null, note: null }
      : await feeOnRecord(deps.ctx, { ...job, status: 'CONFIRMED' })
    if (!settled.ok) deps.ctx.logger.warn({ request_id: requestId, job_id: job.job_id, reason: settled.reason, fee: fee.status }, 'trade confirmed but its fee did not settle')
    const done = (await jobs.move(job, 'CONFIRMED', { execution, fee, rejection: null }, `confirmed in slot ${result.slot}`)) ?? (await jobs.get(job.job_id))!
    deps.ctx.logger.info({ request_id: requestId, job_id: job.job_id, tx: execution.tx_signature, slot: result.slot, fee: fee.status }, 'trade confirmed')
    return { status: 200, headers: settled.ok ? settled.headers : {}, body: { schema_version: SCHEMA_VERSION, job_id: done.job_id, status: 'CONFIRMED', execution, rejection: null } }
  }
  if (result.kind === 'unknown') {
    await hold.cancel('the outcome of the trade could not be confirmed')
    const rejection: Rejection = { code: 'CONFIRMATION_UNKNOWN', reason: `the transaction was sent but its outcome could not be read (${result.reason}): poll GET /trade/status/${job.job_id}; no fee was charged`, refundable: false }
    await jobs.move(job, 'EXECUTING', { fee: { status: 'cancelled', amount: deps.fee, network: null, transaction: null, note: rejection.reason } }, 'outcome unknown')
    return rejectedAnswer({ job_id: job.job_id, status: 'EXECUTING', execution: job.execution, rejection }, requestId)
  }
  await hold.cancel(result.rejection.code)
  deps.ctx.logger.info({ request_id: requestId, job_id: job.job_id, status: result.status, code: result.rejection.code }, 'trade not executed')
  const fee = { status: 'cancelled' as const, amount: deps.fee, network: null, transaction: null, note: 'the trade did not confirm' }
  const done = (await jobs.move(job, result.status, { rejection: result.rejection, fee }, result.rejection.code)) ?? (await jobs.get(job.job_id))!
  return rejectedAnswer(done, requestId)
}

/**
 * The answer for a job that is not waiting to be executed: its recorded outcome, without charging
 * (a second execute of a confirmed job answers the first confirmation). One still executing is
 * waited for; one executing in a process that is gone is resolved from the chain.
 */
async function outcomeOf(job: TradeJob, deps: ExecuteDeps): Promise<TradeAnswer> {
  const { jobs, requestId } = deps
  // A pending fee is read again from the ledger (and a credit of a confirmed trade consumed) on the way.
  let current = job.status === 'EXECUTING' ? job : await resolveJob(deps.ctx, jobs, job)
  const waitUntil = Date.now() + WAIT_FOR_OUTCOME_MS
  while (current.status === 'EXECUTING' && Date.now() < waitUntil) {
    const resolved = await resolveJob(deps.ctx, jobs, current)
    if (resolved.status !== 'EXECUTING') {
      current = resolved
      break
    }
    await Bun.sleep(250)
    current = (await jobs.get(job.job_id))!
  }
  if (current.status === 'CONFIRMED')
    return { status: 200, body: { schema_version: SCHEMA_VERSION, job_id: current.job_id, status: 'CONFIRMED', execution: current.execution, rejection: null } }
  if (current.status === 'EXECUTING')
    return { status: 409, body: errorBody(new ApiError('JOB_CONFLICT', { message: 'this job is still executing: poll GET /trade/status/:job_id for its outcome', details: { job_id: current.job_id, job_status: current.status } }), requestId) }
  return rejectedAnswer(current, requestId)
}

/** Marks a quote past its blockhash EXPIRED (nothing was sent; nothing can be now). */
export function expireQuote(jobs: Jobs, job: TradeJob): Promise<TradeJob | undefined> {
  const rejection = { code: 'QUOTE_EXPIRED', reason: 'the quote expired with its blockhash before it was executed: quote again', refundable: true }
  return jobs.move(job, 'EXPIRED', { rejection }, 'the quote\'s blockhash expired')
}

/** Whether a quoted job is past its estimated expiry (with grace: execute asks the chain itself). */
export function quoteExpired(job: TradeJob, nowMs = Date.now()): boolean {
  return job.status === 'QUOTED' && job.quote?.expires_at != null && Date.parse(job.quote.expires_at) + EXPIRY_GRACE_MS < nowMs
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
export async function resolveJob(ctx: ServiceContext, jobs: Jobs, job: TradeJob, nowMs = Date.now()): Promise<TradeJob> {
  if (job.status !== 'EXECUTING') {
    if (job.fee?.status !== 'pending') return job
    const fee = await feeOnRecord(ctx, job)
    return fee.status === 'pending' ? job : ((await jobs.move(job, job.status, { fee }, `fee ${fee.status} (read from the chain)`)) ?? job)
  }
  if (!orphaned(ctx, job, nowMs) || !ctx.sources.solana) return job
  const rpc = ctx.sources.solana.rpc(new CallMeter())
  const resolved = async (to: 'CONFIRMED' | 'FAILED', changes: Partial<TradeJob>) => {
    const fee = await feeOnRecord(ctx, { ...job, ...changes, status: to })
    return (await jobs.move(job, to, { ...changes, fee }, 'resolved after the execute stopped')) ?? job
  }
  try {
    if (!job.execution) {
      const rejection = { code: 'INTERRUPTED', reason: 'the service stopped before the transaction was sent: quote again', refundable: true }
      return await resolved('FAILED', { rejection })
    }
    const landed = await landingOf(rpc, job.execution.tx_signature)
    if (landed?.kind === 'confirmed') return await resolved('CONFIRMED', { execution: { ...job.execution, slot: landed.slot } })
    if (landed?.kind === 'failed') {
      const rejection = { code: 'TRANSACTION_FAILED', reason: `the transaction failed on chain (${JSON.stringify(landed.err, bigintSafe)})`, refundable: false }
      return await resolved('FAILED', { rejection })
    }
    const message = getCompiledTransactionMessageDecoder().decode(getTransactionDecoder().decode(Buffer.from(job.unsigned_transaction_b64!, 'base64')).messageBytes)
    if (!(await blockhashValid(rpc, message.lifetimeToken))) {
      const rejection = { code: 'NOT_CONFIRMED', reason: 'the transaction did not land before its blockhash expired', refundable: true }
      return await resolved('FAILED', { rejection })
    }
  } catch (error) {
    ctx.logger.warn({ job_id: job.job_id, err: (error as Error).message }, 'cannot resolve an orphaned execute yet')
  }
  return job
}

interface Signed {
  ok: true
  /** The transaction's signature (the fee payer's, the user's): its id on chain. */
  signature: string
  blockhash: string
}

/** The signed transaction must be the quoted one byte for byte, with every signature present and valid. */
async function checkSigned(job: TradeJob, b64: string): Promise<Signed | { ok: false; code: string; reason: string }> {
  let signed
  try {
    signed = getTransactionDecoder().decode(Buffer.from(b64, 'base64'))
  } catch {
    return { ok: false, code: 'TRANSACTION_UNREADABLE', reason: 'signed_transaction_b64 is not a base64 Solana transaction' }
  }
  const quoted = getTransactionDecoder().decode(Buffer.from(job.unsigned_transaction_b64!, 'base64'))
  if (!Buffer.from(signed.messageBytes).equals(Buffer.from(quoted.messageBytes)))
    return { ok: false, code: 'TRANSACTION_MISMATCH', reason: 'the signed transaction is not the quoted one (its message differs): sign unsigned_transaction_b64 exactly as answered by the quote' }
  for (const [signer, signature] of Object.entries(signed.signatures)) {
    if (!signature) return { ok: false, code: 'SIGNATURE_MISSING', reason: `the transaction lacks the signature of ${signer}` }
    const key = await getPublicKeyFromAddress(signer as Address)
    if (!(await verifySignature(key, signature as SignatureBytes, signed.messageBytes)))
      return { ok: false, code: 'SIGNATURE_INVALID', reason: `the signature of ${signer} does not verify against the quoted message` }
  }
  const message = getCompiledTransactionMessageDecoder().decode(signed.messageBytes)
  const feePayer = message.staticAccounts[0]!
  return { ok: true, signature: getBase58Decoder().decode(signed.signatures[feePayer]!), blockhash: message.lifetimeToken }
}

function bigintSafe(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value
}
