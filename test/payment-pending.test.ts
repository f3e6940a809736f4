import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { paymentKey } from '../src/payments/payment-key.ts'
import { readPayment } from '../src/payments/payment-header.ts'
import { SettlementChecker } from '../src/payments/settlement-check.ts'
import { HttpJsonSource } from '../src/sources/http-json.ts'
import { SolanaSource } from '../src/sources/solana-rpc.ts'
import { CallMeter } from '../src/sources/upstream.ts'
import { paidCall, payFor, payingRails, sandboxGate, type PayingRail } from './support/gate.ts'
import { runPaid } from '../src/payments/http.ts'
import { eventually } from './support/eventually.ts'

// A settlement whose answer is lost (the facilitator slower than the service waits, or unreachable)
// leaves the payment `pending`; the gate then asks the chain itself what happened.
const sandbox = await startSandbox(ephemeralSandboxOptions())
const { gate, store, close } = await sandboxGate(sandbox, {
  facilitator: { settleTimeoutMs: 300 },
  checker: new SettlementChecker({
    solana: new SolanaSource({ url: sandbox.file.urls.rpc }).rpc(new CallMeter()),
    evm: new HttpJsonSource({ name: 'base_rpc', baseUrl: sandbox.evm.url }),
  }),
})
afterAll(async () => {
  await close()
  await sandbox.stop()
})
afterEach(() => sandbox.faults.clear())

const RAILS = await payingRails(sandbox)
const call = paidCall
const ok = async () => ({ status: 200, body: { grade: 'A' } })

/** A payment on `rail` and its ledger key. */
async function payWith(rail: PayingRail): Promise<{ header: string; key: string }> {
  const header = await payFor(gate, rail)
  const read = readPayment(new Headers({ 'x-payment': header }))
  if (read.kind !== 'payment') throw new Error('unreadable payment')
  const network = read.payment.x402Version === 2 ? read.payment.accepted.network : read.payment.network
  return { header, key: paymentKey(read.payment, network)! }
}

describe.each(RAILS)('a lost settlement answer on $name', (rail) => {
  test('the facilitator settled after the service stopped waiting: pending, then found on chain; the withheld call is owed and delivered once, charged once', async () => {
    const { header, key } = await payWith(rail)
    const before = await rail.treasury()
    sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 700 })
    const answer = await runPaid(gate, call({ 'x-payment': header }), ok)
    expect(answer.status).toBe(402)
    expect((answer.body as { message: string }).message).toContain('not known yet')
    expect((await store.ledger.get(key))?.state).toBe('pending')

    // The slow facilitator settles meanwhile (waited for, not assumed: the machine may be busy).
    await eventually('the settlement on chain', rail.treasury, (balance) => balance !== before, { timeoutMs: 10_000 })
    expect(await rail.treasury()).toBe(before + 20_000n)
    expect(await gate.resolvePending()).toMatchObject({ credited: 1 })
    // Found with the settlement's transaction (Solana: the payment transaction; EVM: the AuthorizationUsed log's).
    const credited = (await store.ledger.get(key))!
    expect(credited).toMatchObject({ state: 'credited', reason: expect.stringContaining('resolved on chain') })
    expect(credited.transaction).toMatch(rail.name === 'solana' ? /^[1-9A-HJ-NP-Za-km-z]{64,88}$/ : /^0x[0-9a-f]{64}$/)

    // The caller presents the same payment again: a failed call keeps the credit...
    expect((await runPaid(gate, call({ 'x-payment': header }), async () => ({ status: 500, body: {} }))).status).toBe(
      500,
    )
    expect((await store.ledger.get(key))?.state).toBe('credited')
    // ...a successful one delivers the result it paid for, with a receipt, and charges nothing more.
    const redeemed = await runPaid(gate, call({ 'x-payment': header }), ok)
    expect(redeemed.status).toBe(200)
    expect(JSON.parse(Buffer.from(redeemed.headers['payment-response']!, 'base64').toString())).toMatchObject({
      success: true,
      transaction: credited.transaction,
    })
    expect((await store.ledger.get(key))?.state).toBe('settled')
    expect(await rail.treasury()).toBe(before + 20_000n)
    // A third time it is used up.
    expect((await runPaid(gate, call({ 'x-payment': header }), ok)).status).toBe(402)
    expect(await rail.treasury()).toBe(before + 20_000n)
  })

  test('the settlement never reached the facilitator: pending while it could still land, failed once it never can', async () => {
    const { header, key } = await payWith(rail)
    const before = await rail.treasury()
    sandbox.faults.set('facilitator', '/settle', { kind: 'down' })
    expect((await runPaid(gate, call({ 'x-payment': header }), ok)).status).toBe(402)
    expect((await store.ledger.get(key))?.state).toBe('pending')

    expect(await gate.resolvePending()).toMatchObject({ credited: 0, failed: 0 })
    expect((await store.ledger.get(key))?.state).toBe('pending')

    // Past the point of no return: the EIP-3009 deadline (validBefore), or the Solana blockhash's life.
    let later = Date.now()
    if (rail.name === 'solana') for (let block = 0; block < 160; block++) sandbox.world.chain.produceBlock()
    else later += 3_600_000
    expect(await gate.resolvePending(later)).toMatchObject({ failed: 1 })
    expect(await store.ledger.get(key)).toMatchObject({
      state: 'failed',
      reason: expect.stringContaining('can never settle'),
    })
    expect(await rail.treasury()).toBe(before)
  })
})
