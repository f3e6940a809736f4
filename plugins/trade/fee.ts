/**
 * The execute fee as it stands on chain. A job's fee is read from the payment ledger, which is
 * resolved from the chain when a settlement's answer is lost (docs/payments.md): status tells the
 * truth about money even when the service stopped mid-settlement.
 */
import type { ServiceContext } from '../../src/context.ts'
import { usdToAtomicUsdc } from '../../src/kernel/manifest.ts'
import type { TradeJob } from './job.ts'
import { manifest } from './manifest.ts'

export type Fee = NonNullable<TradeJob['fee']>

/** The execute fee in USDC atomic units, from the manifest's price. */
export const EXECUTE_FEE = usdToAtomicUsdc((manifest.routes.execute.price as { usd: string }).usd)

/** Where a settlement happened, when it did. */
type Settled = { network?: string; transaction?: string | null }

/** A job's `fee`: its status and note, the settlement's network and transaction when there is one. */
export function feeOf(status: Fee['status'], note: string | null, settled: Settled = {}, amount = EXECUTE_FEE): Fee {
  return { status, amount, network: settled.network || null, transaction: settled.transaction || null, note }
}

/**
 * The job's fee as the ledger records its payment. A credit (the fee settled on chain after its answer
 * was lost) of a job that confirmed is consumed here: the trade it paid for was delivered, so it is
 * charged once and owes nothing more.
 */
export async function feeOnRecord(ctx: ServiceContext, job: TradeJob): Promise<Fee> {
  const amount = job.fee_payment?.amount ?? job.fee?.amount ?? EXECUTE_FEE
  const fee = (status: Fee['status'], note: string | null, settled?: Settled) => feeOf(status, note, settled, amount)
  const key = job.fee_payment?.key
  const { payments } = ctx
  if (!key) return fee('not_settled', 'no fee payment is on record for this execute: nothing was charged')

  let record = await payments.record(key)
  if (
    record?.state === 'credited' &&
    job.status === 'CONFIRMED' &&
    (await payments.consumeCredit(key, `the trade it paid for confirmed (job ${job.job_id})`))
  )
    record = await payments.record(key)
  switch (record?.state) {
    case 'settled':
      return fee('settled', null, record)
    case 'credited':
    case 'redeeming':
      return fee(
        'settled',
        'the fee settled on chain although the trade did not confirm: present the same payment again to be owed one execute',
        record,
      )
    case 'settling':
    case 'pending':
      return fee(
        'pending',
        "the fee's settlement was sent but is not confirmed (the facilitator answered settlement_pending or did not answer, or the service stopped); its outcome is being read from the chain: poll again",
        record,
      )
    case 'cancelled':
      return fee('cancelled', record.reason ?? 'the trade did not confirm: nothing was charged')
    default:
      return fee('not_settled', `${record?.reason ?? 'the fee was never settled'}: nothing was charged`)
  }
}
