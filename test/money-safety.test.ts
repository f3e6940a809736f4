import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { wrapFetchWithPayment } from '@x402/fetch'
import { demoPayer } from '../sandbox/demo-client.ts'
import pino from 'pino'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { createApp } from '../src/app.ts'
import { loadConfig } from '../src/settings.ts'
import { createContext } from '../src/context.ts'
import { startServer } from '../src/http/server.ts'
import { usdcOf } from './support/x402.ts'
import { eventually } from './support/eventually.ts'
import { describeWithV1, v1Payer } from './support/v1-client.ts'

// Regression tests of money defects found by adversarial testing (docs/payments.md, "Invariants"): the
// whole service on the sandbox over HTTP, a real facilitator, balances read from the chain.
const sandbox = await startSandbox(ephemeralSandboxOptions())
const settings = {
  ...sandbox.serviceSettings,
  PORT: '0',
  DATA_DIR: ':memory:',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_SCANNER_BURST: '1000',
}
// Settlements are waited for 1 s, so a slower facilitator's answer is lost (the payment goes pending).
const ctx = createContext(loadConfig({ ...settings, FACILITATOR_SETTLE_TIMEOUT_MS: '1000' }), {
  logger: pino({ level: 'silent' }),
})
const gate = ctx.payments
await gate.start()
const running = startServer(createApp(ctx), ctx)
afterAll(async () => {
  await running.shutdown('test over')
  await sandbox.stop()
})
afterEach(() => sandbox.faults.clear())

const { x402: offers, urls } = sandbox.file
/** The official v2 client paying as the demo buyer. */
const payingV2 = wrapFetchWithPayment(fetch, (await demoPayer(sandbox.file, 'solana')).client) as typeof fetch
const mintOf = (name: string) => sandbox.file.scenarios.find((scenario) => scenario.name === name)!.mint
const treasury = () => usdcOf(sandbox, offers.solana.pay_to)
const post = (path: string, body: unknown, headers: Record<string, string> = {}, fetcher: typeof fetch = fetch) =>
  fetcher(`${running.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

describeWithV1('a credit redeems only the call it paid for', () => {
  test('a quick-scan payment credited after a lost settlement answer buys that quick scan once, never a deep dive or another token', async () => {
    const v1 = await v1Payer(sandbox)
    const quickBody = { token_address: mintOf('blue-chip') }
    const before = await treasury()
    // The facilitator settles but answers after the service stopped waiting: the result is withheld.
    sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 2_500 })
    const lost = await post('/scan/quick', quickBody, {}, v1.fetch)
    expect(lost.status).toBe(402)
    expect(((await lost.json()) as { message: string }).message).toContain('not known yet')
    await eventually('the settlement on chain', treasury, (balance) => balance !== before, { timeoutMs: 10_000 })
    expect(await treasury()).toBe(before + 20_000n)
    sandbox.faults.clear()
    expect(await gate.resolvePending()).toMatchObject({ credited: 1 })
    const payment = v1.sent.at(-1)!

    // The same 0.02 USD payment presented on the 0.50 USD deep dive: refused, nothing runs, nothing moves.
    const dearer = await post('/scan/deep', quickBody, { 'x-payment': payment })
    expect(dearer.status).toBe(402)
    const refusal = (await dearer.json()) as { code: string; message: string }
    expect(refusal.code).toBe('PAYMENT_REQUIRED')
    expect(refusal.message).toContain('owed one call of POST /scan/quick')
    // The right route for another token is another request: refused too.
    expect(
      (await post('/scan/quick', { token_address: mintOf('serial-rugger') }, { 'x-payment': payment })).status,
    ).toBe(402)
    expect(await treasury()).toBe(before + 20_000n)

    // The request it paid for: answered once, free.
    const owed = await post('/scan/quick', quickBody, { 'x-payment': payment })
    expect(owed.status).toBe(200)
    expect(((await owed.json()) as { token_address: string }).token_address).toBe(quickBody.token_address)
    expect((await post('/scan/quick', quickBody, { 'x-payment': payment })).status).toBe(402)
    expect(await treasury()).toBe(before + 20_000n)
  })
})

// Any client will do: the official v2 one, so these run wherever the tests do.
describe('a facilitator that does not answer is an outage, found fast', () => {
  test.each([
    ['/scan/quick', 5_000],
    ['/market/intel', 10_000],
    ['/scan/deep', 30_000],
  ])(
    "%s: a hung /verify answers 503 FACILITATOR_UNAVAILABLE inside the route's deadline (%p ms), asking once",
    async (path, deadlineMs) => {
      // A facilitator that accepts the connection and never answers (as one stopped with SIGSTOP).
      sandbox.faults.set('facilitator', '/verify', { kind: 'slow', delayMs: 60_000 })
      const asked = sandbox.faults.countOf('facilitator:/verify')
      const started = performance.now()
      const response = await post(path, { token_address: mintOf('blue-chip') }, {}, payingV2)
      const took = performance.now() - started
      expect(response.status).toBe(503)
      expect(response.headers.get('retry-after')).toBe('5')
      expect(await response.json()).toMatchObject({ error: true, code: 'FACILITATOR_UNAVAILABLE' })
      // The route's own deadline (the spec's target), not a performance figure: past it the caller has given up.
      expect(took).toBeLessThan(deadlineMs)
      expect(sandbox.faults.countOf('facilitator:/verify') - asked).toBe(1)
    },
  )

  test('a facilitator answering 404 on /verify (a wrong FACILITATOR_URL) is an outage (503), not the payment refused (402)', async () => {
    // A real peer that lists the sandbox's kinds but has no /verify.
    const supported = await (await fetch(`${urls.facilitator}/supported`)).json()
    const wrong = Bun.serve({
      port: 0,
      fetch: (request) =>
        new URL(request.url).pathname === '/supported'
          ? Response.json(supported)
          : new Response('Not Found', { status: 404 }),
    })
    const other = createContext(loadConfig({ ...settings, FACILITATOR_URL: `http://127.0.0.1:${wrong.port}` }), {
      logger: pino({ level: 'silent' }),
    })
    await other.payments.start()
    const server = startServer(createApp(other), other)
    try {
      const before = await treasury()
      const response = await payingV2(`${server.url}/scan/quick`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token_address: mintOf('blue-chip') }),
      })
      expect(response.status).toBe(503)
      expect(await response.json()).toMatchObject({ code: 'FACILITATOR_UNAVAILABLE' })
      expect(await treasury()).toBe(before)
    } finally {
      await server.shutdown('test over')
      await wrong.stop(true)
    }
  })
})

describeWithV1('money that moved is never lost (issue 27), over HTTP with the v1 client', () => {
  const quickBody = () => ({ token_address: mintOf('blue-chip') })

  test("the v1 scheme's RPC fails its status check after sending (it answers transaction_failed, naming no transaction): withheld, found on chain, collected once", async () => {
    const v1 = await v1Payer(sandbox)
    const before = await treasury()
    sandbox.faults.set('facilitator-rpc', 'getSignatureStatuses', { kind: 'server_error' })
    const withheld = await post('/scan/quick', quickBody(), {}, v1.fetch)
    sandbox.faults.clear()
    // @x402/svm's ExactSvmSchemeV1 sent the transfer, then answered a failure with no transaction.
    expect(withheld.status).toBe(402)
    expect(((await withheld.json()) as { message: string }).message).toContain(
      'which does not say whether the transfer was sent',
    )
    expect(await treasury()).toBe(before + 20_000n)
    expect(await gate.resolvePending()).toMatchObject({ credited: 1, failed: 0 })
    const payment = v1.sent.at(-1)!
    const collected = await post('/scan/quick', quickBody(), { 'x-payment': payment })
    expect(collected.status).toBe(200)
    const receipt = JSON.parse(Buffer.from(collected.headers.get('payment-response')!, 'base64').toString())
    expect(receipt).toMatchObject({ success: true, transaction: expect.any(String) })
    // Used: presented again, refused, and nothing more moves.
    expect((await post('/scan/quick', quickBody(), { 'x-payment': payment })).status).toBe(402)
    expect(await treasury()).toBe(before + 20_000n)
  })

  test('a payment without a memo, left pending, then its payer buried under 500 dust transfers: found, and collected once', async () => {
    const v1 = await v1Payer(sandbox)
    const before = await treasury()
    sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 2_500 })
    expect((await post('/scan/quick', quickBody(), {}, v1.fetch)).status).toBe(402)
    await eventually('the settlement on chain', treasury, (balance) => balance !== before, { timeoutMs: 10_000 })
    sandbox.faults.clear()
    const flood = await fetch(urls.rpc, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'requestDustFlood',
        params: [sandbox.file.buyer.address, 500],
      }),
    })
    expect(await flood.json()).toMatchObject({ result: { count: 500 } })
    // Its blockhash expired: not found would now read "never can", so it has to be found.
    for (let block = 0; block < 160; block++) sandbox.world.chain.produceBlock()
    expect(await gate.resolvePending()).toMatchObject({ credited: 1, failed: 0 })
    expect((await post('/scan/quick', quickBody(), { 'x-payment': v1.sent.at(-1)! })).status).toBe(200)
    expect((await post('/scan/quick', quickBody(), { 'x-payment': v1.sent.at(-1)! })).status).toBe(402)
    expect(await treasury()).toBe(before + 20_000n)
  })
})
