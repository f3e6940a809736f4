import { afterAll, describe, expect, test } from 'bun:test'
import pino from 'pino'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { runPaid } from '../src/http/payment-adapter.ts'
import { AnswerKeeper, RUNNING_CLAIM_MS } from '../src/payments/answer-replay.ts'
import { FacilitatorClient } from '../src/payments/facilitator.ts'
import { PaymentGate } from '../src/payments/gate.ts'
import { paymentRails } from '../src/payments/rails.ts'
import { SettlementChecker } from '../src/payments/settlement-check.ts'
import { loadConfig } from '../src/settings.ts'
import { HttpJsonSource } from '../src/sources/http-json.ts'
import { SolanaSource } from '../src/sources/solana-rpc.ts'
import { CallMeter } from '../src/sources/upstream.ts'
import type { PaymentLedger } from '../src/store/ledger.ts'
import { openSqliteStore } from '../src/store/sqlite.ts'
import { paidCall, payFor, payingRails } from './support/gate.ts'
import { ledgerKeyOf } from './support/x402.ts'

// What a call leaves when its instance dies mid-way, with the ledger and the kept answers shared
// (found by `npm run bench -- cluster`: an instance killed while it settled a payment). The payment may
// have moved, so it is never sent again; once older than any settlement takes it is read from the
// chain, and the payer presenting it again collects the call it paid for, charged once.
const sandbox = await startSandbox(ephemeralSandboxOptions())
const store = openSqliteStore(':memory:')
afterAll(async () => {
  await store.close()
  await sandbox.stop()
})
const RAILS = await payingRails(sandbox)
const ok = async () => ({ status: 200, body: { grade: 'A' } })
/** How long a settlement may take here: the settle timeout plus the slack, shortened for the test. */
const SETTLING_BOUND_MS = 1_500

function gate(ledger: PaymentLedger) {
  return new PaymentGate({
    rails: paymentRails(loadConfig(sandbox.serviceSettings)),
    ledger,
    facilitator: new FacilitatorClient({ url: sandbox.file.urls.facilitator }),
    logger: pino({ level: 'silent' }),
    sharedLedger: true,
    checker: new SettlementChecker({
      solana: new SolanaSource({ url: sandbox.file.urls.rpc }).rpc(new CallMeter()),
      evm: new HttpJsonSource({ name: 'base_rpc', baseUrl: sandbox.evm.url }),
    }),
    settlingBoundMs: SETTLING_BOUND_MS,
  })
}

/**
 * An instance that dies right after the facilitator settled its call's payment: its ledger takes
 * nothing after `settling` (the outcome is never recorded) and its answer reaches nobody.
 */
function dyingLedger(ledger: PaymentLedger): PaymentLedger {
  return {
    ...ledger,
    transition: (key, from, to, fields, nowMs) =>
      from === 'settling'
        ? Promise.reject(new Error('the instance died'))
        : ledger.transition(key, from, to, fields, nowMs),
  }
}

const survivor = gate(store.ledger)
const dying = gate(dyingLedger(store.ledger))
await Promise.all([survivor.start(), dying.start()])
afterAll(async () => {
  await survivor.stop()
  await dying.stop().catch(() => undefined)
})

describe.each(RAILS)('a payment left settling by an instance that died ($name)', (rail) => {
  test('presented again: pending while a settlement could still be under way, then found on chain and answered once, charged once', async () => {
    const header = await payFor(survivor, rail)
    const key = ledgerKeyOf(header)
    const before = await rail.treasury()
    // The call settles; the instance dies before recording it, and its answer is lost.
    await runPaid(dying, paidCall({ 'x-payment': header }), ok)
    expect(await rail.treasury()).toBe(before + 20_000n)
    expect((await store.ledger.get(key))?.state).toBe('settling')

    // Another instance, at once: a settlement may still be under way, so not "sign a new one" — present it again.
    const early = await runPaid(survivor, paidCall({ 'x-payment': header }), ok)
    expect(early.status).toBe(402)
    expect(early.body).toMatchObject({
      message: expect.stringContaining('being settled by another request'),
      settlement: { state: 'pending' },
    })
    expect((await store.ledger.get(key))?.state).toBe('settling')

    // Older than any settlement takes: read from the chain, and the call it paid for delivered with a receipt.
    await Bun.sleep(SETTLING_BOUND_MS + 100)
    const collected = await runPaid(survivor, paidCall({ 'x-payment': header }), ok)
    expect(collected.status).toBe(200)
    expect(JSON.parse(Buffer.from(collected.headers['payment-response']!, 'base64').toString())).toMatchObject({
      success: true,
    })
    expect(await store.ledger.get(key)).toMatchObject({ state: 'settled' })
    expect((await runPaid(survivor, paidCall({ 'x-payment': header }), ok)).status).toBe(402)
    expect(await rail.treasury()).toBe(before + 20_000n)
  })
})

test("the periodic pass takes a settlement left longer than any takes for orphaned: pending, then credited from the chain (a trade fee's case: nobody presents it)", async () => {
  const rail = RAILS[0]!
  const header = await payFor(survivor, rail)
  const key = ledgerKeyOf(header)
  await runPaid(dying, paidCall({ 'x-payment': header }), ok)
  expect(await survivor.releaseStale()).toBe(0)
  expect((await store.ledger.get(key))?.state).toBe('settling')
  expect(await survivor.releaseStale(Date.now() + SETTLING_BOUND_MS)).toBe(0)
  expect(await store.ledger.get(key)).toMatchObject({ state: 'pending', reason: expect.stringContaining('the chain') })
  expect(await survivor.resolvePending()).toMatchObject({ credited: 1 })
})

describe('a payment identifier held by a run that never answered', () => {
  const v2 = (id: string) =>
    Buffer.from(
      JSON.stringify({
        x402Version: 2,
        accepted: { scheme: 'exact', network: 'solana:test', amount: '20000', asset: 'USDC', payTo: 'treasury' },
        payload: { transaction: 'signed' },
        extensions: { 'payment-identifier': { info: { id } } },
      }),
    ).toString('base64')
  const call = (id: string) => ({
    headers: new Headers({ 'payment-signature': v2(id) }),
    route: 'POST /scan/quick',
    requestSha256: 'one request',
    resourceUrl: 'http://127.0.0.1/scan/quick',
  })

  test('is free again after RUNNING_CLAIM_MS (not the 24 h an answer is kept); a finished answer stays kept', async () => {
    const answers = openSqliteStore(':memory:').answers
    const keeper = new AnswerKeeper(answers)
    const died = await keeper.before(call('run-that-died-0001'))
    expect(died).toEqual({ kind: 'run', key: 'pid:POST /scan/quick:run-that-died-0001' })
    const later = Date.now() + RUNNING_CLAIM_MS + 1_000
    expect(await answers.claim('pid:POST /scan/quick:run-that-died-0001', 'retry', RUNNING_CLAIM_MS, later)).toEqual({
      claimed: true,
    })

    const done = await keeper.before(call('run-that-answered-1'))
    if (done.kind !== 'run' || !done.key) throw new Error('expected a run')
    await keeper.kept(done.key, call('run-that-answered-1'), { status: 200, headers: {}, body_b64: 'e30=' }, null)
    expect(await answers.claim(done.key, 'retry', RUNNING_CLAIM_MS, later)).toMatchObject({
      claimed: false,
      answer: { status: 200 },
    })
  })
})
