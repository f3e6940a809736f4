import { describe, expect, test } from 'bun:test'
import pino from 'pino'
import { wrapFetchWithPayment } from '@x402/fetch'
import { createApp } from '../src/app.ts'
import { loadConfig } from '../src/settings.ts'
import { closeContext, createContext } from '../src/context.ts'
import { startServer } from '../src/http/server.ts'
import { demoPayer } from '../sandbox/demo-client.ts'
import { liveService, sandboxContext } from './support/live.ts'
import { usdcOf } from './support/x402.ts'
import { runSandboxScript } from './support/run.ts'
import { eventually } from './support/eventually.ts'
import { testWithV1, v1Payer } from './support/v1-client.ts'

// The whole service on the sandbox, as `npm start` runs it, over HTTP on loopback. (What is no token is
// refused on every token-scoped route, never charged: test/common-sense.test.ts.)
const { sandbox, running } = await liveService()
/** Where the demo scripts pay: this file's service, on its sandbox. */
const on = { service: running.url, worldFile: sandbox.worldFilePath }

const { x402: offers } = sandbox.file
const mint = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
// The official v2 client paying as the demo buyer, as `npm run pay` does.
const { client, payer } = await demoPayer(sandbox.file, 'solana')
const payingFetch = wrapFetchWithPayment(fetch, client)

const scan = (fetcher: typeof fetch, body: unknown = { token_address: mint }) =>
  fetcher(`${running.url}/scan/quick`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

describe('paid routes over HTTP (the service on the sandbox, the official v1 and v2 clients)', () => {
  test('without payment: 402 with both forms of the challenge', async () => {
    const response = await scan(fetch)
    expect(response.status).toBe(402)
    expect(response.headers.get('payment-required')).toBeTruthy()
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toMatchObject({
      error: true,
      code: 'PAYMENT_REQUIRED',
      x402Version: 1,
      accepts: [{ network: 'solana-devnet', maxAmountRequired: '20000' }],
    })
    const header = JSON.parse(Buffer.from(response.headers.get('payment-required')!, 'base64').toString())
    expect(header.accepts.map((offer: { network: string }) => offer.network)).toEqual([
      'eip155:31337',
      offers.solana.network,
    ])
  })

  test('an invalid body gets its 400 and no challenge: nobody pays for a bad request', async () => {
    const response = await scan(fetch, { token_address: 'BONK' })
    expect(response.status).toBe(400)
    expect(response.headers.get('payment-required')).toBeNull()
    expect(await response.json()).toMatchObject({ error: true, code: 'INVALID_ADDRESS' })
  })

  test('@x402/fetch pays the quick scan: 200 with the scan and receipts; the price moved from buyer to payTo', async () => {
    const [buyerBefore, payToBefore] = await Promise.all([
      usdcOf(sandbox, payer),
      usdcOf(sandbox, offers.solana.pay_to),
    ])
    const response = await payingFetch(`${running.url}/scan/quick`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token_address: mint }),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toMatchObject({
      schema_version: '2.0',
      token_address: mint,
      structural_risk_grade: 'A',
    })
    const receipt = JSON.parse(Buffer.from(response.headers.get('payment-response')!, 'base64').toString())
    expect(receipt).toMatchObject({ success: true, network: offers.solana.network, payer })
    expect(response.headers.get('x-payment-response')).toBe(response.headers.get('payment-response'))
    expect(await usdcOf(sandbox, payer)).toBe(buyerBefore - 20_000n)
    expect(await usdcOf(sandbox, offers.solana.pay_to)).toBe(payToBefore + 20_000n)
  })

  test('@x402/fetch pays with an EVM signer on anvil (EIP-3009): the price moved from buyer to payTo in the test USDC', async () => {
    const evm = await demoPayer(sandbox.file, 'base')
    const evmFetch = wrapFetchWithPayment(fetch, evm.client)
    const [buyerBefore, payToBefore] = await Promise.all([
      sandbox.evm.usdcBalance(evm.payer as `0x${string}`),
      sandbox.evm.usdcBalance(offers.base.pay_to as `0x${string}`),
    ])
    const response = await evmFetch(`${running.url}/scan/quick`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token_address: mint }),
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ schema_version: '2.0', token_address: mint })
    const receipt = JSON.parse(Buffer.from(response.headers.get('payment-response')!, 'base64').toString())
    expect(receipt).toMatchObject({ success: true, network: 'eip155:31337', payer: evm.payer })
    expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await sandbox.evm.usdcBalance(evm.payer as `0x${string}`)).toBe(buyerBefore - 20_000n)
    expect(await sandbox.evm.usdcBalance(offers.base.pay_to as `0x${string}`)).toBe(payToBefore + 20_000n)
  })

  testWithV1('the v1 client (x402-fetch 1.2.0, SVM signer) pays the market intel from the 402 body', async () => {
    const { fetch: v1Fetch } = await v1Payer(sandbox)
    const payToBefore = await usdcOf(sandbox, offers.solana.pay_to)
    const response = await v1Fetch(`${running.url}/market/intel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token_address: mint }),
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ schema_version: '2.0', data_quality: 'FULL', signal: 'BULLISH' })
    expect(JSON.parse(Buffer.from(response.headers.get('x-payment-response')!, 'base64').toString())).toMatchObject({
      success: true,
    })
    expect(await usdcOf(sandbox, offers.solana.pay_to)).toBe(payToBefore + 200_000n)
  })

  test('npm run pay (the demo client) pays a deep dive as the demo buyer', async () => {
    const payToBefore = await usdcOf(sandbox, offers.solana.pay_to)
    const { stdout: out, stderr: err, code } = await runSandboxScript('pay.ts', ['/scan/deep', mint], on)
    expect(code).toBe(0)
    expect(err).toContain('HTTP 200')
    expect(err).toContain('"success":true')
    expect(JSON.parse(out)).toMatchObject({ schema_version: '2.0', token_address: mint })
    expect(await usdcOf(sandbox, offers.solana.pay_to)).toBe(payToBefore + 500_000n)
  })

  test('npm run pay -- --rail base pays on anvil with the EVM demo buyer', async () => {
    const payTo = offers.base.pay_to as `0x${string}`
    const payToBefore = await sandbox.evm.usdcBalance(payTo)
    const {
      stdout: out,
      stderr: err,
      code,
    } = await runSandboxScript('pay.ts', ['/market/intel', mint, '--rail', 'base'], on)
    expect(code).toBe(0)
    expect(err).toContain(`paid by ${sandbox.file.evm_buyer.address} on eip155:31337`)
    expect(JSON.parse(out)).toMatchObject({ schema_version: '2.0', signal: 'BULLISH' })
    expect(await sandbox.evm.usdcBalance(payTo)).toBe(payToBefore + 200_000n)
  })

  test('free routes never ask for payment', async () => {
    for (const path of ['/health', '/openapi.json', '/.well-known/x402', '/llm.txt'])
      expect((await fetch(`${running.url}${path}`)).status).toBe(200)
  })
})

test('without a facilitator configured, a paid route answers 503 and does no work', async () => {
  const bare = createContext(loadConfig({ DATA_DIR: ':memory:', LOG_LEVEL: 'silent' }), {
    logger: pino({ level: 'silent' }),
  })
  const response = await createApp(bare).handle(
    new Request('http://localhost/scan/quick', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token_address: mint }),
    }),
  )
  expect(response.status).toBe(503)
  expect(await response.json()).toMatchObject({ error: true, code: 'FACILITATOR_UNAVAILABLE' })
  await closeContext(bare)
})

test('a facilitator unreachable at boot: free routes serve, paid routes answer 503 until it answers, then 402', async () => {
  sandbox.faults.set('facilitator', '/supported', { kind: 'down' })
  const late = sandboxContext(sandbox, { RATE_LIMIT_SCANNER_BURST: '1000' })
  const server = startServer(createApp(late), late)
  try {
    await late.payments.start(100)
    expect((await fetch(`${server.url}/health`)).status).toBe(200)
    const early = await fetch(`${server.url}/scan/quick`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token_address: mint }),
    })
    expect(early.status).toBe(503)
    expect(await early.json()).toMatchObject({ error: true, code: 'FACILITATOR_UNAVAILABLE' })
    sandbox.faults.clear()
    // The background retry (100 ms, doubling) reaches it: waited for, not assumed.
    const ask = () =>
      fetch(`${server.url}/scan/quick`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token_address: mint }),
      })
    const ready = await eventually('the facilitator reached', ask, (answer) => answer.status !== 503, {
      timeoutMs: 10_000,
    })
    expect(ready.status).toBe(402)
  } finally {
    sandbox.faults.clear()
    await server.shutdown('test over')
  }
})
