import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import pino from 'pino'
import type { PaymentRequired } from '@x402/core/types'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { loadConfig } from '../src/config.ts'
import { FacilitatorClient } from '../src/payments/facilitator.ts'
import { PaymentGate, type PaidCall } from '../src/payments/gate.ts'
import { paymentKey } from '../src/payments/payment-key.ts'
import { readPayment } from '../src/payments/payment-header.ts'
import { paymentRails } from '../src/payments/rails.ts'
import { SettlementChecker } from '../src/payments/settlement-check.ts'
import { HttpJsonSource } from '../src/sources/http-json.ts'
import { SolanaSource } from '../src/sources/solana-rpc.ts'
import { CallMeter } from '../src/sources/upstream.ts'
import { openSqliteStore } from '../src/store/index.ts'
import { sandboxEvmPayer, sandboxPayer, usdcOf } from './support/x402.ts'

// A settlement whose answer is lost (the facilitator slower than the service waits, or unreachable)
// leaves the payment `pending`; the gate then asks the chain itself what happened.
const sandbox = await startSandbox(ephemeralSandboxOptions())
const store = openSqliteStore(':memory:')
const gate = new PaymentGate({
  rails: paymentRails(loadConfig(sandbox.serviceSettings)),
  ledger: store.ledger,
  facilitator: new FacilitatorClient({ url: sandbox.file.urls.facilitator, timeoutMs: 1_000, settleTimeoutMs: 300 }),
  logger: pino({ level: 'silent' }),
  checker: new SettlementChecker({
    solana: new SolanaSource({ url: sandbox.file.urls.rpc }).rpc(new CallMeter()),
    evm: new HttpJsonSource({ name: 'base_rpc', baseUrl: sandbox.evm.url }),
  }),
})
await gate.start()
afterAll(async () => {
  gate.stop()
  await store.close()
  await sandbox.stop()
})
afterEach(() => sandbox.faults.clear())

const { x402: offers } = sandbox.file
const solana = await sandboxPayer(sandbox)
const evm = sandboxEvmPayer(sandbox)
const RAILS = [
  { name: 'solana', client: solana.client, treasury: () => usdcOf(sandbox, offers.solana.pay_to) },
  { name: 'base (anvil)', client: evm.client, treasury: () => sandbox.evm.usdcBalance(offers.base.pay_to as `0x${string}`) },
]

let calls = 0
const call = (headers: Record<string, string> = {}): PaidCall => ({
  headers: new Headers(headers),
  url: 'http://127.0.0.1:8402/scan/quick',
  resource: 'POST /scan/quick',
  description: 'quick scan',
  amount: '20000',
  requestId: `req-${++calls}`,
})
const ok = async () => ({ status: 200, body: { grade: 'A' } })

async function payWith(client: (typeof RAILS)[number]['client']): Promise<{ header: string; key: string }> {
  const challenge = gate.challenge(call(), 'payment required')
  const required = JSON.parse(Buffer.from(challenge.headers['payment-required']!, 'base64').toString()) as PaymentRequired
  const header = Buffer.from(JSON.stringify(await client.createPaymentPayload(required))).toString('base64')
  const read = readPayment(new Headers({ 'x-payment': header }))
  if (read.kind !== 'payment') throw new Error('unreadable payment')
  const network = read.payment.x402Version === 2 ? read.payment.accepted.network : read.payment.network
  return { header, key: paymentKey(read.payment, network)! }
}

describe.each(RAILS)('a lost settlement answer on $name', (rail) => {
  test('the facilitator settled after the service stopped waiting: pending, then found on chain; the withheld call is owed and delivered once, charged once', async () => {
    const { header, key } = await payWith(rail.client)
    const before = await rail.treasury()
    sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 700 })
    const answer = await gate.run(call({ 'x-payment': header }), ok)
    expect(answer.status).toBe(402)
    expect((answer.body as { message: string }).message).toContain('not known yet')
    expect((await store.ledger.get(key))?.state).toBe('pending')

    await Bun.sleep(1_000) // the slow facilitator settles meanwhile
    expect(await rail.treasury()).toBe(before + 20_000n)
    expect(await gate.resolvePending()).toMatchObject({ settled: 1 })
    expect(await store.ledger.get(key)).toMatchObject({ state: 'credited', reason: expect.stringContaining('resolved on chain') })

    // The caller presents the same payment again: a failed call keeps the credit...
    expect((await gate.run(call({ 'x-payment': header }), async () => ({ status: 500, body: {} }))).status).toBe(500)
    expect((await store.ledger.get(key))?.state).toBe('credited')
    // ...a successful one delivers the result it paid for, with a receipt, and charges nothing more.
    const redeemed = await gate.run(call({ 'x-payment': header }), ok)
    expect(redeemed.status).toBe(200)
    expect(JSON.parse(Buffer.from(redeemed.headers['payment-response']!, 'base64').toString())).toMatchObject({ success: true })
    expect((await store.ledger.get(key))?.state).toBe('settled')
    expect(await rail.treasury()).toBe(before + 20_000n)
    // A third time it is used up.
    expect((await gate.run(call({ 'x-payment': header }), ok)).status).toBe(402)
    expect(await rail.treasury()).toBe(before + 20_000n)
  })

  test('the settlement never reached the facilitator: pending while it could still land, failed once it never can', async () => {
    const { header, key } = await payWith(rail.client)
    const before = await rail.treasury()
    sandbox.faults.set('facilitator', '/settle', { kind: 'down' })
    expect((await gate.run(call({ 'x-payment': header }), ok)).status).toBe(402)
    expect((await store.ledger.get(key))?.state).toBe('pending')

    expect(await gate.resolvePending()).toMatchObject({ settled: 0, failed: 0 })
    expect((await store.ledger.get(key))?.state).toBe('pending')

    // Past the point of no return: the EIP-3009 deadline (validBefore), or the Solana blockhash's life.
    let later = Date.now()
    if (rail.name === 'solana') for (let block = 0; block < 160; block++) sandbox.world.chain.produceBlock()
    else later += 3_600_000
    expect(await gate.resolvePending(later)).toMatchObject({ failed: 1 })
    expect(await store.ledger.get(key)).toMatchObject({ state: 'failed', reason: expect.stringContaining('can never settle') })
    expect(await rail.treasury()).toBe(before)
  })
})
