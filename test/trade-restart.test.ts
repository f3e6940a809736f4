import { describe, expect, test } from 'bun:test'
import { getBase64EncodedWireTransaction, getTransactionDecoder, partiallySignTransaction } from '@solana/kit'
import { wrapFetchWithPayment } from '@x402/fetch'
import { demoPayer } from '../sandbox/demo-client.ts'
import { restartableService } from './support/launch.ts'
import { eventually } from './support/eventually.ts'
import { usdcOf } from './support/x402.ts'

// The service as a process on the sandbox, killed (SIGKILL) while a trade's fee is settling, then restarted:
// the job's status must say what the chain says of the money.
const { sandbox, service, payments: ledger } = await restartableService('trade-restart')
const { x402: offers } = sandbox.file
const treasury = () => sandbox.evm.usdcBalance(offers.base.pay_to as `0x${string}`)
const buyer = await sandbox.world.signer('demo-buyer')
const payingFetch = wrapFetchWithPayment(fetch, (await demoPayer(sandbox.file, 'base')).client)
const post = (url: string, body: unknown, fetcher: (url: string, init: RequestInit) => Promise<Response> = fetch) =>
  fetcher(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

/** Waits until the service at `url` offers `rail` (the facilitator answers /supported in the background). */
const railOffered = (url: string, rail: string) =>
  eventually(
    `the ${rail} rail offered`,
    async () =>
      (
        (await (await fetch(`${url}/trade/currencies`)).json()) as {
          currencies: { chain: string; accepted: boolean }[]
        }
      ).currencies,
    (currencies) => currencies.some((entry) => entry.chain === rail && entry.accepted),
  )

/** A quoted swap of `lamports` of SOL for the blue-chip token, signed by the buyer. */
async function signedSwap(url: string, lamports: string) {
  const mint = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
  const quoted = (await (
    await post(`${url}/trade/quote`, {
      input_mint: 'So11111111111111111111111111111111111111112',
      output_mint: mint,
      amount_in: lamports,
      user_public_key: buyer.address,
    })
  ).json()) as { job_id: string; unsigned_transaction_b64: string }
  const transaction = getTransactionDecoder().decode(Buffer.from(quoted.unsigned_transaction_b64, 'base64'))
  const signed = getBase64EncodedWireTransaction(await partiallySignTransaction([buyer.keyPair], transaction))
  return { job_id: quoted.job_id, signed }
}

test('killed while the execute fee settles: after the restart the job reads CONFIRMED with its fee charged once, as on chain', async () => {
  const first = await service()
  let second: Awaited<ReturnType<typeof service>> | undefined
  try {
    await railOffered(first.url, 'base')
    const quoted = await signedSwap(first.url, '100000000')
    const { signed } = quoted
    const before = await treasury()

    // The facilitator takes 3 s to settle: the service is killed while it waits for the answer.
    sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 3_000 })
    const inFlight = post(
      `${first.url}/trade/execute`,
      { job_id: quoted.job_id, signed_transaction_b64: signed },
      payingFetch,
    ).catch(() => undefined)
    await eventually('the fee settling', ledger, (rows) => rows.some((row) => row.state === 'settling'))
    first.child.kill('SIGKILL')
    await first.child.exited
    await inFlight
    // The facilitator settled after all: the money moved on chain.
    await eventually('the fee on chain', treasury, (balance) => balance === before + 150_000n)
    sandbox.faults.clear()

    second = await service()
    type Job = {
      status: string
      fee: { status: string; amount: string; network: string | null; transaction: string | null } | null
      history: { status: string }[]
    }
    const statusOf = async () => (await (await fetch(`${second!.url}/trade/status/${quoted.job_id}`)).json()) as Job
    const job = await eventually(
      'the job resolved with its fee',
      statusOf,
      (read) => read.status === 'CONFIRMED' && read.fee?.status === 'settled',
    )
    expect(job.fee).toMatchObject({
      status: 'settled',
      amount: '150000',
      network: 'eip155:31337',
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    })
    // The credit the lost answer left was consumed by the trade it paid for: charged once, owed nothing.
    expect(ledger()).toEqual([expect.objectContaining({ state: 'settled' })])
    expect(await treasury()).toBe(before + 150_000n)
    // Asked again, and executed again: the same truth, nothing more charged, nothing asked for.
    expect((await statusOf()).fee).toEqual(job.fee)
    const again = await post(`${second.url}/trade/execute`, { job_id: quoted.job_id, signed_transaction_b64: signed })
    expect(again.status).toBe(200)
    expect(await again.json()).toMatchObject({ status: 'CONFIRMED' })
    expect(await treasury()).toBe(before + 150_000n)
  } finally {
    first.child.kill('SIGKILL')
    second?.child.kill('SIGTERM')
    await second?.child.exited
  }
}, 60_000)

// The fee's facilitator sent the settlement but its RPC failed its status check, so it answered
// `settlement_pending` with the transaction: the money moved, so the fee reads settled, charged once.
describe.each([
  { rail: 'solana', status: 'getSignatureStatuses', treasury: () => usdcOf(sandbox, offers.solana.pay_to) },
  { rail: 'base', status: 'eth_getTransactionReceipt', treasury },
] as const)(
  'a fee whose settlement the facilitator could not confirm ($rail)',
  ({ rail, status, treasury: balance }) => {
    test('CONFIRMED with its fee settled, as on chain; charged once', async () => {
      const running = await service()
      try {
        await railOffered(running.url, rail)
        const { job_id, signed } = await signedSwap(running.url, '10000000')
        const before = await balance()
        const paying = wrapFetchWithPayment(fetch, (await demoPayer(sandbox.file, rail)).client)

        sandbox.faults.set('facilitator-rpc', status, { kind: 'server_error' })
        const executed = await post(`${running.url}/trade/execute`, { job_id, signed_transaction_b64: signed }, paying)
        sandbox.faults.clear()
        expect(executed.status).toBe(200)
        expect(await executed.json()).toMatchObject({ status: 'CONFIRMED' })
        expect(await balance()).toBe(before + 150_000n)
        const job = (await (await fetch(`${running.url}/trade/status/${job_id}`)).json()) as {
          fee: { status: string; amount: string; transaction: string | null }
        }
        expect(job.fee).toMatchObject({ status: 'settled', amount: '150000', transaction: expect.any(String) })
        expect(ledger().filter((row) => row.reason?.includes('settlement_pending'))).toContainEqual(
          expect.objectContaining({ state: 'settled', tx: job.fee.transaction }),
        )
      } finally {
        sandbox.faults.clear()
        running.child.kill('SIGTERM')
        await running.child.exited
      }
    }, 60_000)
  },
)
