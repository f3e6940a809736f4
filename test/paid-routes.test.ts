import { describe, expect, test } from 'bun:test'
import pino from 'pino'
import { wrapFetchWithPayment } from '@x402/fetch'
import { createSigner, wrapFetchWithPayment as wrapFetchWithPaymentV1 } from 'x402-fetch'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { base58Encode } from '../sandbox/chain/base58.ts'
import { createApp } from '../src/app.ts'
import { loadConfig } from '../src/core/config.ts'
import { closeContext, createContext } from '../src/context.ts'
import { startServer } from '../src/core/server.ts'
import { demoPayer } from '../sandbox/demo-client.ts'
import type { PaymentGate } from '../src/payments/gate.ts'
import { liveService, sandboxContext } from './support/live.ts'
import { ledgerKeyOf, paymentHeader, usdcOf } from './support/x402.ts'
import { type Sent, send } from './support/app.ts'
import { address } from '@solana/kit'
import { encodeBase58 } from '../src/onchain/base58.ts'
import { TOKEN_PROGRAM_ADDRESS } from '../src/onchain/programs.ts'
import { findMetadataAddress } from '../src/onchain/metaplex-metadata.ts'
import type { ErrorCode } from '../src/core/errors.ts'
import { type RegisteredRoute, routeErrors } from '../src/core/manifest.ts'
import { eventually } from './support/eventually.ts'

// The whole service on the sandbox, as `npm start` runs it, over HTTP on loopback. One client address
// makes every call here: the scanner limit is set out of its way (429s have their own test).
const { sandbox, running, service, ctx, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })

const { x402: offers, urls } = sandbox.file
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

  test('the v1 client (x402-fetch 1.2.0, SVM signer) pays the market intel from the 402 body', async () => {
    const secret = base58Encode(
      Uint8Array.from(JSON.parse(readFileSync(sandbox.file.buyer.keypair_path, 'utf8')) as number[]),
    )
    const signer = await createSigner('solana-devnet', secret)
    const v1Fetch = wrapFetchWithPaymentV1(fetch, signer, 1_000_000n, undefined, { svmConfig: { rpcUrl: urls.rpc } })
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
    const child = Bun.spawn(
      [
        process.execPath,
        join(import.meta.dir, '..', 'sandbox/pay.ts'),
        '/scan/deep',
        mint,
        '--service',
        running.url,
        '--world',
        sandbox.worldFilePath,
      ],
      {
        stdout: 'pipe',
        stderr: 'pipe',
      },
    )
    const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()])
    expect(await child.exited).toBe(0)
    expect(err).toContain('HTTP 200')
    expect(err).toContain('"success":true')
    expect(JSON.parse(out)).toMatchObject({ schema_version: '2.0', token_address: mint })
    expect(await usdcOf(sandbox, offers.solana.pay_to)).toBe(payToBefore + 500_000n)
  })

  test('npm run pay -- --rail base pays on anvil with the EVM demo buyer', async () => {
    const payTo = offers.base.pay_to as `0x${string}`
    const payToBefore = await sandbox.evm.usdcBalance(payTo)
    const child = Bun.spawn(
      [
        process.execPath,
        join(import.meta.dir, '..', 'sandbox/pay.ts'),
        '/market/intel',
        mint,
        '--rail',
        'base',
        '--service',
        running.url,
        '--world',
        sandbox.worldFilePath,
      ],
      {
        stdout: 'pipe',
        stderr: 'pipe',
      },
    )
    const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()])
    expect(await child.exited).toBe(0)
    expect(err).toContain(`paid by ${sandbox.file.evm_buyer.address} on eip155:31337`)
    expect(JSON.parse(out)).toMatchObject({ schema_version: '2.0', signal: 'BULLISH' })
    expect(await sandbox.evm.usdcBalance(payTo)).toBe(payToBefore + 200_000n)
  })

  test('free routes never ask for payment', async () => {
    for (const path of ['/health', '/openapi.json', '/.well-known/x402', '/llm.txt'])
      expect((await fetch(`${running.url}${path}`)).status).toBe(200)
  })
})

/** The answer of one in-process call (the front door, as over HTTP). */
const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
  send(service, 'POST', path, { json, headers })

/**
 * A paid call refused after its payment was admitted: the 402 challenge first (the check reads nothing
 * before payment), then the demo buyer's payment, the refusal, and the payment released, never settled.
 */
async function refusedWhenPaid(path: string, body: unknown): Promise<Sent> {
  const challenged = await post(path, body)
  expect(challenged.status).toBe(402)
  const header = await paymentHeader(client, challenged.headers.get('payment-required')!)
  const refused = await post(path, body, { 'payment-signature': header })
  expect(refused.headers.get('payment-response')).toBeNull()
  expect(await ctx.store.ledger.get(ledgerKeyOf(header))).toMatchObject({ state: 'cancelled' })
  return refused
}

const { buyer, usdc_mint: usdc } = sandbox.file
const buyerUsdcAccount = await sandbox.world.ata(usdc, buyer.address)
const [metadata] = await findMetadataAddress(address(mint))

describe('issue 28, part 1: what is no token is refused on every token-scoped route, and never charged', () => {
  // Each is refused with its status and code, and a message saying what the address is.
  const NOT_TOKENS = [
    {
      what: 'a wallet (the demo buyer)',
      address: buyer.address,
      status: 422,
      code: 'NOT_A_TOKEN_MINT',
      says: 'is a wallet',
    },
    {
      what: 'an address with no account',
      address: encodeBase58(crypto.getRandomValues(new Uint8Array(32))),
      status: 404,
      code: 'TOKEN_NOT_FOUND',
      says: 'no account exists',
    },
    {
      what: "a token account (the buyer's USDC): its mint named",
      address: buyerUsdcAccount,
      status: 422,
      code: 'NOT_A_TOKEN_MINT',
      says: `is a token account of mint ${usdc}`,
    },
    {
      what: 'a program (SPL Token)',
      address: TOKEN_PROGRAM_ADDRESS,
      status: 422,
      code: 'NOT_A_TOKEN_MINT',
      says: 'is the SPL Token program',
    },
    {
      what: "another program's account (a token's metadata): its program named",
      address: metadata,
      status: 422,
      code: 'NOT_A_TOKEN_MINT',
      says: 'an account of the Metaplex Token Metadata program',
    },
  ]
  const tokenRoutes = service.registry
    .routes()
    .filter((route) => Object.values(route.accounts ?? {}).includes('token_mint'))
  /** A valid body of `route` with `field` holding `address` (the quote's other members filled in). */
  const bodyOf = (route: RegisteredRoute, field: string, address: string) =>
    route.path === '/trade/quote'
      ? { input_mint: usdc, output_mint: mint, amount_in: '1000000', user_public_key: buyer.address, [field]: address }
      : { [field]: address }
  const treasury = () => usdcOf(sandbox, offers.solana.pay_to)

  test('every token-scoped route declares the mint it is given (served on the sandbox, its refusals in /openapi.json and /llm.txt)', async () => {
    expect(tokenRoutes.map((route) => route.key).sort()).toEqual(
      [
        'POST /scan/quick',
        'POST /market/intel',
        'POST /scan/deep',
        'POST /exit/check',
        'POST /exit/cross-check',
        'POST /news/pulse',
        'POST /news/brief',
        'POST /news/pulse_plus',
        'POST /news/report',
        'POST /trade/quote',
        'POST /launch/radar',
        'POST /graduation/radar',
        'POST /graduation/momentum',
        'POST /scan/smart-money',
        'POST /signal/radar',
        'POST /scan/trending',
      ].sort(),
    )
    // A route taking a token under a name of these, and not declaring it, would answer a wallet as a token.
    const undeclared = service.registry.routes().flatMap((route) =>
      Object.keys((route.body as { properties?: object } | undefined)?.properties ?? {})
        .filter((member) => /^(token_address|\w+_mint|symbol)$/.test(member) && !route.accounts?.[member])
        .map((member) => `${route.key} ${member}`),
    )
    expect(undeclared).toEqual([])
    // /openapi.json and /llm.txt list the refusals of each.
    const openapi = (await send(service, 'GET', '/openapi.json')).json
    const llm = (await send(service, 'GET', '/llm.txt')).text
    for (const route of [...tokenRoutes, service.registry.route('POST', '/wallet/intel')!]) {
      const responses = openapi.paths[route.path].post.responses
      const codes =
        route.path === '/wallet/intel' ? ['422 NOT_A_WALLET'] : ['404 TOKEN_NOT_FOUND', '422 NOT_A_TOKEN_MINT']
      for (const entry of codes) {
        const [status, code] = entry.split(' ') as [string, ErrorCode]
        expect(routeErrors(route)).toContain(code)
        expect(JSON.stringify(responses[status])).toContain(code)
      }
      const errorsLine = llm
        .slice(llm.indexOf(`### ${route.key} (`))
        .split('\n')
        .find((line) => line.startsWith('Errors:'))
      for (const entry of codes) expect(errorsLine).toContain(entry)
    }
  })

  for (const route of tokenRoutes)
    test(`${route.key}: a wallet, no account, a token account, a program, a program's account — each refused${route.price === 'free' ? '' : ', its payment released'}`, async () => {
      const before = [await treasury(), await usdcOf(sandbox, buyer.address)]
      for (const field of Object.keys(route.accounts!))
        for (const { address, status, code, says } of NOT_TOKENS) {
          const body = bodyOf(route, field, address)
          const refused =
            route.price === 'free' ? await post(route.path, body) : await refusedWhenPaid(route.path, body)
          expect(`${refused.status} ${refused.json?.code}`).toBe(`${status} ${code}`)
          expect(refused.json.message).toContain(address)
          expect(refused.json.message).toContain(says)
          expect(refused.json).toMatchObject({ error: true, field })
          // A token account's refusal names the mint to send instead, and the wallet holding it.
          if (address === buyerUsdcAccount) expect(refused.json).toMatchObject({ mint: usdc, wallet: buyer.address })
        }
      // Nothing moved on chain: the treasury and the buyer hold what they held.
      expect([await treasury(), await usdcOf(sandbox, buyer.address)]).toEqual(before)
    })

  test('POST /wallet/intel refuses a mint, a token account and a program the other way round (422 NOT_A_WALLET), never charged', async () => {
    const before = await treasury()
    const cases = [
      { address: mintOf('dead-token'), says: 'is a token mint, not a wallet: scan it with POST /scan/quick' },
      { address: NOT_TOKENS[2]!.address, says: `its wallet is ${buyer.address}` },
      { address: TOKEN_PROGRAM_ADDRESS, says: 'is the SPL Token program, not a wallet' },
    ]
    for (const { address, says } of cases) {
      const refused = await refusedWhenPaid('/wallet/intel', { wallet_address: address })
      expect(refused.status).toBe(422)
      expect(refused.json).toMatchObject({ error: true, code: 'NOT_A_WALLET', field: 'wallet_address' })
      expect(refused.json.message).toContain(says)
    }
    expect(await treasury()).toBe(before)
  })

  test("a paid quick scan reads the mint's account once: the check and the mint fact share the read", async () => {
    const token = mintOf('locked-lp')
    const reads: unknown[] = []
    const realFetch = globalThis.fetch
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      if (String(input) === sandbox.file.urls.rpc && typeof init?.body === 'string') {
        const calls = [JSON.parse(init.body)].flat() as { method: string; params: unknown[] }[]
        reads.push(...calls.filter((call) => call.method === 'getAccountInfo' && call.params[0] === token))
      }
      return realFetch(input, init)
    }) as typeof fetch
    try {
      const challenged = await post('/scan/quick', { token_address: token })
      expect(reads).toHaveLength(0)
      const header = await paymentHeader(client, challenged.headers.get('payment-required')!)
      const paid = await post('/scan/quick', { token_address: token }, { 'payment-signature': header })
      expect(paid.status).toBe(200)
      expect(paid.json).toMatchObject({ token_address: token, missing_fields: [] })
      expect(reads).toHaveLength(1)
    } finally {
      globalThis.fetch = realFetch
    }
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
    await (late.payments as PaymentGate).start(100)
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
