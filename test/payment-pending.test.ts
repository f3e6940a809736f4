import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import type { PaymentGate } from '../src/payments/gate.ts'
import { SettlementChecker } from '../src/payments/settlement-check.ts'
import { HttpJsonSource } from '../src/sources/http-json.ts'
import { SolanaSource } from '../src/sources/solana-rpc.ts'
import { CallMeter } from '../src/sources/upstream.ts'
import { paidCall, payFor, payingRails, sandboxGate, type PayingRail } from './support/gate.ts'
import { runPaid } from '../src/http/payment-adapter.ts'
import { eventually } from './support/eventually.ts'
import { ledgerKeyOf } from './support/x402.ts'

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

/** A payment on `rail` for `on`'s challenge, and its ledger key. */
async function payWith(rail: PayingRail, on: PaymentGate = gate): Promise<{ header: string; key: string }> {
  const header = await payFor(on, rail)
  return { header, key: ledgerKeyOf(header) }
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

// A facilitator that sent the transfer but could not confirm it answers `settlement_pending` with the
// transaction (the official schemes do, when their RPC fails them or their confirmation times out):
// the money moved, so the chain decides, never the answer. This gate waits for settlements as the
// service does (40 s), so the facilitator's own answer arrives.
const patient = await sandboxGate(sandbox, {
  checker: new SettlementChecker({
    solana: new SolanaSource({ url: sandbox.file.urls.rpc }).rpc(new CallMeter()),
    evm: new HttpJsonSource({ name: 'base_rpc', baseUrl: sandbox.evm.url }),
  }),
})
afterAll(() => patient.close())

/** The facilitator's read of its settlement's outcome, per rail (what a failing provider refuses it). */
const STATUS_READ = { solana: 'getSignatureStatuses', 'base (anvil)': 'eth_getTransactionReceipt' } as const

describe.each(RAILS)('"settlement pending" on $name: the transfer was sent', (rail) => {
  const receiptOf = (headers: Record<string, string>) =>
    JSON.parse(Buffer.from(headers['payment-response']!, 'base64').toString()) as Record<string, unknown>

  test("the facilitator's RPC fails its status check: the service reads the chain, delivers the answer, charges once", async () => {
    const { header, key } = await payWith(rail, patient.gate)
    const before = await rail.treasury()
    sandbox.faults.set('facilitator-rpc', STATUS_READ[rail.name as keyof typeof STATUS_READ], { kind: 'server_error' })
    const answer = await runPaid(patient.gate, call({ 'x-payment': header }), ok)
    expect(answer.status).toBe(200)
    const record = (await patient.store.ledger.get(key))!
    expect(record).toMatchObject({ state: 'settled', reason: expect.stringContaining('settlement_pending') })
    expect(receiptOf(answer.headers)).toMatchObject({ success: true, transaction: record.transaction })
    expect(await rail.treasury()).toBe(before + 20_000n)
    // Used: presented again, refused, and nothing more moves.
    const again = await runPaid(patient.gate, call({ 'x-payment': header }), ok)
    expect(again.status).toBe(402)
    expect((again.body as { message: string }).message).toContain('already used')
    expect(await rail.treasury()).toBe(before + 20_000n)
  })

  test('the facilitator settles and answers settlement_pending (its confirmation timed out): answered, charged once', async () => {
    const { header, key } = await payWith(rail, patient.gate)
    const before = await rail.treasury()
    sandbox.faults.set('facilitator', '/settle', { kind: 'settlement_pending' })
    const answer = await runPaid(patient.gate, call({ 'x-payment': header }), ok)
    expect(answer.status).toBe(200)
    expect(await patient.store.ledger.get(key)).toMatchObject({ state: 'settled' })
    expect(await rail.treasury()).toBe(before + 20_000n)
  })
})

test('"settlement pending" on solana while the chain cannot be read here either: withheld, then collected by presenting the payment again, charged once', async () => {
  const rail = RAILS.find((paying) => paying.name === 'solana')!
  const { header, key } = await payWith(rail, patient.gate)
  const before = await rail.treasury()
  // Every status read fails, the facilitator's and the service's: nobody can confirm the transfer it sent.
  sandbox.faults.set('rpc', 'getSignatureStatuses', { kind: 'server_error' })
  const withheld = await runPaid(patient.gate, call({ 'x-payment': header }), ok)
  expect(withheld.status).toBe(402)
  expect((withheld.body as { message: string }).message).toContain(
    'present the same payment with the same request again',
  )
  // Said in machine terms too: what is pending, and when to present the payment again.
  expect(withheld.body).toMatchObject({
    settlement: { state: 'pending', transaction: expect.any(String) },
    retry_after_s: 10,
  })
  expect(withheld.headers['retry-after']).toBe('10')
  const pending = (await patient.store.ledger.get(key))!
  expect(pending).toMatchObject({
    state: 'pending',
    transaction: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/),
  })
  // The money moved although nobody could confirm it.
  expect(await rail.treasury()).toBe(before + 20_000n)
  sandbox.faults.clear()
  // The chain answers again: the same payment with the same request collects the answer (the status
  // reader's breaker may still be cooling down: asked until it answers).
  const collected = await eventually(
    'the withheld answer collected',
    () => runPaid(patient.gate, call({ 'x-payment': header }), ok),
    (answer) => answer.status === 200,
    { timeoutMs: 20_000, intervalMs: 1_000 },
  )
  expect(JSON.parse(Buffer.from(collected.headers['payment-response']!, 'base64').toString())).toMatchObject({
    success: true,
    transaction: pending.transaction,
  })
  expect((await patient.store.ledger.get(key))?.state).toBe('settled')
  expect(await rail.treasury()).toBe(before + 20_000n)
  expect((await runPaid(patient.gate, call({ 'x-payment': header }), ok)).status).toBe(402)
})

describe('a payer buried under dust: the on-chain check reads the whole window, not a fixed count', () => {
  const rail = RAILS.find((paying) => paying.name === 'solana')!
  const flood = async (count: number) => {
    const response = await fetch(sandbox.file.urls.rpc, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'requestDustFlood', params: [rail.payer, count] }),
    })
    expect(((await response.json()) as { result: { count: number } }).result.count).toBe(count)
  }

  test('settled, then 500 dust transfers to the payer: still found and credited', async () => {
    const { header, key } = await payWith(rail)
    const before = await rail.treasury()
    sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 700 })
    expect((await runPaid(gate, call({ 'x-payment': header }), ok)).status).toBe(402)
    await eventually('the settlement on chain', rail.treasury, (balance) => balance !== before, { timeoutMs: 10_000 })
    await flood(500)
    // Past its blockhash's life too: "not found" would now read as "never can", so it must be found.
    for (let block = 0; block < 160; block++) sandbox.world.chain.produceBlock()
    expect(await gate.resolvePending()).toMatchObject({ credited: 1, failed: 0 })
    expect(await store.ledger.get(key)).toMatchObject({ state: 'credited' })
    expect((await runPaid(gate, call({ 'x-payment': header }), ok)).status).toBe(200)
    expect(await rail.treasury()).toBe(before + 20_000n)
  })

  test('more history than one check may read: it resumes where it stopped, and finds it', async () => {
    // A checker allowed one page per check: 2 100 newer transactions take three checks.
    const slow = await sandboxGate(sandbox, {
      facilitator: { settleTimeoutMs: 300 },
      checker: new SettlementChecker({
        solana: new SolanaSource({ url: sandbox.file.urls.rpc }).rpc(new CallMeter()),
        searchBudgetMs: 0,
      }),
    })
    try {
      const { header, key } = await payWith(rail, slow.gate)
      const before = await rail.treasury()
      sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 700 })
      expect((await runPaid(slow.gate, call({ 'x-payment': header }), ok)).status).toBe(402)
      await eventually('the settlement on chain', rail.treasury, (balance) => balance !== before, { timeoutMs: 10_000 })
      await flood(2_100)
      for (let block = 0; block < 160; block++) sandbox.world.chain.produceBlock()
      const passes = [
        await slow.gate.resolvePending(),
        await slow.gate.resolvePending(),
        await slow.gate.resolvePending(),
      ]
      expect(passes).toEqual([
        { credited: 0, failed: 0, pending: 1 },
        { credited: 0, failed: 0, pending: 1 },
        { credited: 1, failed: 0, pending: 0 },
      ])
      expect((await slow.store.ledger.get(key))?.state).toBe('credited')
    } finally {
      await slow.close()
    }
  })
})

describe('settlements whose call is gone, or whose answer races a resolver', () => {
  const rail = RAILS.find((paying) => paying.name === 'solana')!

  test('a payment left settling longer than any settlement takes (its instance died) goes pending, never released', async () => {
    const { header, key } = await payWith(rail, patient.gate)
    const admitted = await patient.gate.admit(call({ 'x-payment': header }))
    expect(admitted.kind).toBe('paid')
    // The instance sent it for settlement and died before recording the outcome.
    expect(await patient.store.ledger.transition(key, 'verified', 'settling')).toBe(true)
    expect(await patient.gate.releaseStale()).toBe(0)
    expect((await patient.store.ledger.get(key))?.state).toBe('settling')
    await patient.gate.releaseStale(Date.now() + 11 * 60_000)
    expect(await patient.store.ledger.get(key)).toMatchObject({
      state: 'pending',
      reason: expect.stringContaining('read from the chain'),
    })
  })

  test('confirmed on chain after a resolver credited it meanwhile: answered once, the credit consumed', async () => {
    // A status reader whose breaker never opens, so it reads the chain again as soon as it answers.
    const racing = await sandboxGate(sandbox, {
      checker: new SettlementChecker({
        solana: new SolanaSource({ url: sandbox.file.urls.rpc, breakerThreshold: Number.POSITIVE_INFINITY }).rpc(
          new CallMeter(),
        ),
      }),
    })
    try {
      const { header, key } = await payWith(rail, racing.gate)
      const before = await rail.treasury()
      // Nobody can read a status: the facilitator answers settlement_pending, the call keeps asking.
      sandbox.faults.set('rpc', 'getSignatureStatuses', { kind: 'server_error' })
      const answering = runPaid(racing.gate, call({ 'x-payment': header }), ok)
      await eventually(
        'the payment pending',
        () => racing.store.ledger.get(key),
        (record) => record?.state === 'pending',
      )
      // Meanwhile the resolver finds it in the payer's history and credits it.
      expect(await racing.gate.resolvePending()).toMatchObject({ credited: 1 })
      sandbox.faults.clear()
      const answered = await answering
      expect(answered.status).toBe(200)
      expect((await racing.store.ledger.get(key))?.state).toBe('settled')
      // Not owed a second answer.
      expect((await runPaid(racing.gate, call({ 'x-payment': header }), ok)).status).toBe(402)
      expect(await rail.treasury()).toBe(before + 20_000n)
    } finally {
      await racing.close()
    }
  })
})
