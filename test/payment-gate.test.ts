import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import pino from 'pino'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { loadConfig } from '../src/settings.ts'
import { FacilitatorClient } from '../src/payments/facilitator.ts'
import { eventually } from './support/eventually.ts'
import { STALE_OPEN_MS } from '../src/payments/recovery.ts'
import { PaymentGate } from '../src/payments/gate.ts'
import { paymentRails } from '../src/payments/rails.ts'
import { paidCall, payFor, payingRails, sandboxGate, type PayingRail } from './support/gate.ts'
import { describeWithRedis, startRedis } from './support/redis.ts'
import { paymentAnswer, runPaid } from '../src/http/payment-adapter.ts'
import { holdCall } from '../src/payments/hold.ts'

const sandbox = await startSandbox(ephemeralSandboxOptions())
const { gate, close } = await sandboxGate(sandbox)
afterAll(async () => {
  await close()
  await sandbox.stop()
})
afterEach(() => sandbox.faults.clear())

const { x402: offers } = sandbox.file
const RAILS = await payingRails(sandbox)
const call = paidCall
let runs = 0
const ok = async () => {
  runs++
  return { status: 200, body: { grade: 'A' } }
}
const pay = (amount = '20000', rail: PayingRail = RAILS[0]!) => payFor(gate, rail, amount)
const treasury = RAILS[0]!.treasury

describe('payment gate (sandbox facilitator, official v2 client)', () => {
  test('without payment: 402, the v2 challenge in payment-required and the v1 offers in an error body; nothing runs', async () => {
    const before = runs
    const answer = await runPaid(gate, call(), ok)
    expect(answer.status).toBe(402)
    expect(runs).toBe(before)
    const header = JSON.parse(Buffer.from(answer.headers['payment-required']!, 'base64').toString())
    expect(header).toMatchObject({
      x402Version: 2,
      accepts: [
        {
          scheme: 'exact',
          network: 'eip155:31337',
          amount: '20000',
          asset: offers.base.asset,
          payTo: offers.base.pay_to,
          extra: { name: 'USD Coin', version: '2' },
        },
        {
          scheme: 'exact',
          network: offers.solana.network,
          amount: '20000',
          asset: offers.solana.asset,
          payTo: offers.solana.pay_to,
          extra: { feePayer: offers.solana.fee_payer },
        },
      ],
    })
    // v1 has no name for a local EVM chain: the body offers Solana only.
    expect(answer.body).toMatchObject({
      error: true,
      code: 'PAYMENT_REQUIRED',
      x402Version: 1,
      accepts: [{ network: 'solana-devnet', maxAmountRequired: '20000', payTo: offers.solana.pay_to }],
    })
    expect((answer.body as { accepts: unknown[] }).accepts).toHaveLength(1)
  })
})

describe.each(RAILS)('payment gate on $name', (rail) => {
  const { treasury } = rail

  test('paid: the handler runs, the price moves once, and both receipt headers carry the settlement', async () => {
    const payment = await pay('20000', rail)
    const before = await treasury()
    const answer = await runPaid(gate, call({ 'payment-signature': payment }), ok)
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ grade: 'A' })
    const receipt = JSON.parse(Buffer.from(answer.headers['payment-response']!, 'base64').toString())
    expect(receipt).toMatchObject({ success: true, payer: rail.payer })
    expect(answer.headers['x-payment-response']).toBe(answer.headers['payment-response']!)
    expect(await treasury()).toBe(before + 20_000n)

    // The same payment again: refused before the handler, nothing settled twice.
    const runsBefore = runs
    const replay = await runPaid(gate, call({ 'x-payment': payment }), ok)
    expect(replay.status).toBe(402)
    expect((replay.body as { message: string }).message).toContain('already used')
    expect(runs).toBe(runsBefore)
    expect(await treasury()).toBe(before + 20_000n)
  })

  test('ten concurrent copies of one payment: one handler run, one settlement', async () => {
    const payment = await pay('20000', rail)
    const before = await treasury()
    const runsBefore = runs
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => runPaid(gate, call({ 'x-payment': payment }), ok)),
    )
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    expect(answers.filter((answer) => answer.status === 402)).toHaveLength(9)
    expect(runs - runsBefore).toBe(1)
    expect(await treasury()).toBe(before + 20_000n)
  })

  test('a handler that fails (throws or answers non-2xx): nothing is settled, and the payment can be used again', async () => {
    const payment = await pay('20000', rail)
    const before = await treasury()
    await expect(
      runPaid(gate, call({ 'x-payment': payment }), async () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom')
    const failed = await runPaid(gate, call({ 'x-payment': payment }), async () => ({
      status: 500,
      body: { error: true },
    }))
    expect(failed.status).toBe(500)
    expect(await treasury()).toBe(before)
    // Never charged, so the caller's retry with the same payment goes through.
    expect((await runPaid(gate, call({ 'x-payment': payment }), ok)).status).toBe(200)
    expect(await treasury()).toBe(before + 20_000n)
  })

  test('a payment for another amount is refused with the price, before any work', async () => {
    const runsBefore = runs
    const answer = await runPaid(gate, call({ 'x-payment': await pay('2000', rail) }), ok)
    expect(answer.status).toBe(402)
    expect((answer.body as { message: string }).message).toContain('this call costs 20000')
    expect(runs).toBe(runsBefore)
  })
})

describe('payment gate: bad headers, an unreachable facilitator', () => {
  test('a malformed payment header gets a 402 that says what is wrong', async () => {
    for (const value of ['%%%', Buffer.from('hello').toString('base64'), 'A'.repeat(20_000)]) {
      const answer = await runPaid(gate, call({ 'x-payment': value }), ok)
      expect(answer.status).toBe(402)
      expect((answer.body as { message: string }).message).not.toBe('')
    }
  })

  test('a facilitator that is down: 503 FACILITATOR_UNAVAILABLE with Retry-After, no work, nothing charged', async () => {
    const payment = await pay()
    const before = await treasury()
    const runsBefore = runs
    sandbox.faults.set('facilitator', '/verify', { kind: 'down' })
    const answer = await runPaid(gate, call({ 'x-payment': payment }), ok)
    expect(answer.status).toBe(503)
    expect(answer.headers['retry-after']).toBe('5')
    expect(answer.body).toMatchObject({ error: true, code: 'FACILITATOR_UNAVAILABLE' })
    expect(runs).toBe(runsBefore)
    sandbox.faults.clear()
    // Once it is back, the same payment works.
    expect((await runPaid(gate, call({ 'x-payment': payment }), ok)).status).toBe(200)
    expect(await treasury()).toBe(before + 20_000n)
  })
})

describe('a facilitator that goes down and comes back', () => {
  test("paid calls are taken again within seconds of its return, not after the breaker's cooldown", async () => {
    sandbox.faults.set('facilitator', '/', { kind: 'down' })
    // Failed verifications open the facilitator's breaker: then calls are refused without asking it.
    for (let i = 0; i < 3; i++) expect((await runPaid(gate, call({ 'x-payment': await pay() }), ok)).status).toBe(503)
    const refused = performance.now()
    const fast = await runPaid(gate, call({ 'x-payment': await pay() }), ok)
    expect(fast.status).toBe(503)
    sandbox.faults.clear()
    const payment = await pay()
    const served = await eventually(
      'a paid call taken again',
      () => runPaid(gate, call({ 'x-payment': payment }), ok),
      (answer) => answer.status === 200,
      { timeoutMs: 8_000, intervalMs: 200 },
    )
    expect(served.status).toBe(200)
    // The breaker's cooldown is 10 s; the probe (every 2 s) closes it well before.
    expect(performance.now() - refused).toBeLessThan(6_000)
  })
})

describe('deferred mode (trade execute): verify now, settle or cancel later', () => {
  test('a held payment is not charged until settled, cannot be used meanwhile, and settles once', async () => {
    const payment = await pay('150000')
    const before = await treasury()
    const held = await holdCall(gate, { ...call({ 'x-payment': payment }), amount: '150000' })
    if (held.kind !== 'held') throw new Error(`not held: ${JSON.stringify(held)}`)
    expect(held.hold.payer).toBe(RAILS[0]!.payer)
    expect(await treasury()).toBe(before)
    // While held, the same payment is refused elsewhere.
    const elsewhere = await runPaid(gate, { ...call({ 'x-payment': payment }), amount: '150000' }, ok)
    expect((elsewhere.body as { message: string }).message).toContain('being used by another request (verified)')
    const settled = await held.hold.settle()
    expect(settled.kind).toBe('settled')
    expect(await treasury()).toBe(before + 150_000n)
    await expect(held.hold.settle()).rejects.toThrow('already settled or cancelled')
  })

  test('a cancelled hold charges nothing and releases the payment', async () => {
    const payment = await pay('150000')
    const before = await treasury()
    const held = await holdCall(gate, { ...call({ 'x-payment': payment }), amount: '150000' })
    if (held.kind !== 'held') throw new Error('not held')
    await held.hold.cancel('the trade did not confirm')
    expect(await treasury()).toBe(before)
    const again = await holdCall(gate, { ...call({ 'x-payment': payment }), amount: '150000' })
    expect(again.kind).toBe('held')
    if (again.kind === 'held') await again.hold.cancel('test over')
  })

  test('without payment, hold answers the challenge', async () => {
    const held = await holdCall(gate, call())
    expect(held.kind).toBe('challenge')
    expect(held.kind !== 'held' && paymentAnswer(held, 'req').status).toBe(402)
  })
})

describeWithRedis('two instances sharing a Redis ledger', () => {
  test('the same payment sent to both at once runs once and settles once', async () => {
    const { redisLedger } = await import('../src/store/ledger-redis.ts')
    const { redisClient } = await import('../src/store/redis.ts')
    const redis = await startRedis()
    // Two instances: a connection each.
    const clients = [redisClient(redis.url), redisClient(redis.url)]
    const gates = clients.map(
      (client) =>
        new PaymentGate({
          rails: paymentRails(loadConfig(sandbox.serviceSettings)),
          ledger: redisLedger(client),
          facilitator: new FacilitatorClient({ url: sandbox.file.urls.facilitator }),
          logger: pino({ level: 'silent' }),
          sharedLedger: true,
        }),
    )
    try {
      await Promise.all(gates.map((instance) => instance.start()))
      const payment = await pay()
      const before = await treasury()
      const runsBefore = runs
      const answers = await Promise.all(
        gates.flatMap((instance) => [
          runPaid(instance, call({ 'x-payment': payment }), ok),
          runPaid(instance, call({ 'x-payment': payment }), ok),
        ]),
      )
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 402, 402, 402])
      expect(runs - runsBefore).toBe(1)
      expect(await treasury()).toBe(before + 20_000n)
      // A shared ledger releases nothing at start-up: the other instance may be mid-call.
      expect(await gates[0]!.reconcile()).toEqual({ released: 0, pending: 0 })

      // An instance dies holding a verified payment: the other releases it once it is older than any
      // call, and its payer's same payment then runs once, charged once.
      const held = await pay()
      const admitted = await gates[0]!.admit(call({ 'x-payment': held }))
      expect(admitted.kind).toBe('paid')
      expect((await runPaid(gates[1]!, call({ 'x-payment': held }), ok)).status).toBe(402)
      expect(await gates[1]!.releaseStale()).toBe(0)
      expect(await gates[1]!.releaseStale(Date.now() + STALE_OPEN_MS + 1_000)).toBe(1)
      const released = await treasury()
      expect((await runPaid(gates[1]!, call({ 'x-payment': held }), ok)).status).toBe(200)
      expect(await treasury()).toBe(released + 20_000n)
    } finally {
      for (const instance of gates) instance.stop()
      for (const client of clients) client.close()
      await redis.stop()
    }
  })
})
