import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { getBase64EncodedWireTransaction, getTransactionDecoder, partiallySignTransaction } from '@solana/kit'
import { wrapFetchWithPayment } from '@x402/fetch'
import pino from 'pino'
import { evmAccount, Solsentry, SolsentryError } from '../client/index.ts'
import { demoPayer } from '../sandbox/demo-client.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions, type SandboxRail, sandboxRails, withRails } from '../sandbox/options.ts'
import { createApp } from '../src/app.ts'
import { closeContext, createContext } from '../src/context.ts'
import { startServer } from '../src/http/server.ts'
import { ConfigError } from '../src/kernel/config.ts'
import { loadConfig } from '../src/settings.ts'
import { paymentHeader, usdcOf } from './support/x402.ts'

// A seller on one chain: the whole service on the sandbox with only PAY_TO_SOLANA (the Base settings
// unset), and another with only PAY_TO_BASE (Base on anvil), side by side on one sandbox, over HTTP on
// loopback. Each offers, advertises and takes its own rail only; a payment on the other is refused.

const sandbox = await startSandbox(ephemeralSandboxOptions())
const { x402: offers } = sandbox.file
const mint = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
const SOL = 'So11111111111111111111111111111111111111112'

/** The service taking payment on `rails` only, as `SANDBOX_RAILS` makes `npm start` run it. */
async function serviceOn(rails: SandboxRail[]) {
  const settings = withRails(sandbox.serviceSettings, rails)
  const ctx = createContext(
    loadConfig({ ...settings, PORT: '0', DATA_DIR: ':memory:', LOG_LEVEL: 'silent', RATE_LIMIT_SCANNER_BURST: '1000' }),
    { logger: pino({ level: 'silent' }) },
  )
  await ctx.payments.start()
  return startServer(createApp(ctx), ctx)
}
const solanaOnly = await serviceOn(['solana'])
const baseOnly = await serviceOn(['base'])
afterAll(async () => {
  await solanaOnly.shutdown('test over')
  await baseOnly.shutdown('test over')
  await sandbox.stop()
})

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any
const post = (
  url: string,
  path: string,
  body: unknown,
  fetcher: (input: string, init: RequestInit) => Promise<Response> = fetch,
  headers = {},
) =>
  fetcher(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
const challengeOf = (response: Response): Json =>
  JSON.parse(Buffer.from(response.headers.get('payment-required')!, 'base64').toString())
const networksOf = (accepts: { network: string }[]) => accepts.map((offer) => offer.network)

/** The offer the other service would make on `rail`: what a payer who ignored this service's challenge signs. */
function foreignOffer(rail: SandboxRail) {
  const [name, version] = offers.base.asset_domain.split(',')
  const terms =
    rail === 'base'
      ? { network: offers.base.network, asset: offers.base.asset, payTo: offers.base.pay_to, extra: { name, version } }
      : {
          network: offers.solana.network,
          asset: offers.solana.asset,
          payTo: offers.solana.pay_to,
          extra: { feePayer: offers.solana.fee_payer },
        }
  const required = {
    x402Version: 2,
    resource: { url: '/scan/quick', description: 'quick scan', mimeType: 'application/json' },
    accepts: [{ scheme: 'exact', amount: '20000', maxTimeoutSeconds: 120, ...terms }],
  }
  return Buffer.from(JSON.stringify(required)).toString('base64')
}

/**
 * The rails a text says payment is taken on: the agent cards, /llms.txt, /llm.txt ("x402 … on Solana")
 * and the MCP tool ("x402, Solana"); every occurrence, which must agree.
 */
function payingOn(text: string): string {
  const named = [...text.matchAll(/x402(?: \(HTTP 402\))?(?: on|,) ([A-Za-z ]+?)[.):]/g)].map((match) => match[1]!)
  expect(named.length).toBeGreaterThan(0)
  expect(new Set(named).size).toBe(1)
  return named[0]!
}

/** What the free discovery routes say about payment, read as a client reads them. */
async function advertised(url: string) {
  const openapi = (await (await fetch(`${url}/openapi.json`)).json()) as Json
  const info = openapi.paths['/scan/quick'].post['x-payment-info']
  const currencies = (await (await fetch(`${url}/trade/currencies`)).json()) as Json
  const card = (await (await fetch(`${url}/.well-known/agent.json`)).json()) as Json
  const a2a = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as Json
  const llms = await (await fetch(`${url}/llms.txt`)).text()
  const llm = await (await fetch(`${url}/llm.txt`)).text()
  const page = await (await fetch(`${url}/`)).text()
  const pageConfig = JSON.parse(/<script type="application\/json" id="config">(.*?)<\/script>/s.exec(page)![1]!)
  const mcp = new Client({ name: 'solsentry-test', version: '1.0.0' })
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)))
  const { tools } = await mcp.listTools()
  const quickTool = tools.find((tool) => tool._meta?.['solsentry/route'] === 'POST /scan/quick')!
  const unpaid = (await mcp.callTool({ name: quickTool.name, arguments: { token_address: mint } })) as Json
  await mcp.close()
  return {
    networks: info.networks,
    payees: info.protocols[0].x402.accepts.map((offer: Json) => offer.payTo),
    currencies: currencies.currencies,
    texts: [card.description, a2a.description, llms, llm, quickTool.description],
    pageConfig,
    mcpNetworks: networksOf(unpaid.structuredContent.accepts),
  }
}

async function quote(url: string, buyer: string): Promise<Json> {
  const response = await post(url, '/trade/quote', {
    input_mint: SOL,
    output_mint: mint,
    amount_in: '100000000',
    user_public_key: buyer,
  })
  expect(response.status).toBe(200)
  return response.json()
}

/** Signs the quoted transaction locally, as the caller's wallet does. */
async function signed(unsigned: string): Promise<string> {
  const buyer = await sandbox.world.signer('demo-buyer')
  const transaction = getTransactionDecoder().decode(Buffer.from(unsigned, 'base64'))
  return getBase64EncodedWireTransaction(await partiallySignTransaction([buyer.keyPair], transaction))
}

describe('only PAY_TO_SOLANA: a Solana-only seller', () => {
  const url = solanaOnly.url

  test('a paid call answers 402 offering Solana only, in the header and in the v1 body', async () => {
    const response = await post(url, '/scan/quick', { token_address: mint })
    expect(response.status).toBe(402)
    expect(networksOf(challengeOf(response).accepts)).toEqual([offers.solana.network])
    expect(challengeOf(response).accepts[0]).toMatchObject({ amount: '20000', payTo: offers.solana.pay_to })
    const body = (await response.json()) as Json
    expect(networksOf(body.accepts)).toEqual(['solana-devnet'])
  })

  test('the official x402 client pays a quick scan on Solana: it settles, the balances move on chain', async () => {
    const { client, payer } = await demoPayer(sandbox.file, 'solana')
    const before = [await usdcOf(sandbox, payer), await usdcOf(sandbox, offers.solana.pay_to)]
    const response = await post(url, '/scan/quick', { token_address: mint }, wrapFetchWithPayment(fetch, client))
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ token_address: mint, structural_risk_grade: 'A' })
    const receipt = JSON.parse(Buffer.from(response.headers.get('payment-response')!, 'base64').toString())
    expect(receipt).toMatchObject({ success: true, network: offers.solana.network, payer })
    expect(await usdcOf(sandbox, payer)).toBe(before[0]! - 20_000n)
    expect(await usdcOf(sandbox, offers.solana.pay_to)).toBe(before[1]! + 20_000n)
  })

  test('a payment on Base is refused with a 402 naming the rail offered; nothing moves on anvil', async () => {
    const evm = await demoPayer(sandbox.file, 'base')
    const payer = evm.payer as `0x${string}`
    const before = [await sandbox.evm.usdcBalance(payer), sandbox.faults.countOf('facilitator:/verify')]
    const response = await post(url, '/scan/quick', { token_address: mint }, fetch, {
      'payment-signature': await paymentHeader(evm.client, foreignOffer('base')),
    })
    expect(response.status).toBe(402)
    const body = (await response.json()) as Json
    const reason = `network "${offers.base.network}" is not offered for this call (offered: ${offers.solana.network})`
    expect(body).toMatchObject({ error: true, code: 'PAYMENT_REQUIRED', message: reason })
    expect(challengeOf(response).error).toBe(reason)
    expect(networksOf(challengeOf(response).accepts)).toEqual([offers.solana.network])
    expect([await sandbox.evm.usdcBalance(payer), sandbox.faults.countOf('facilitator:/verify')]).toEqual(before)
  })

  test('the SDK with an EVM wallet only says the service takes Solana, and pays nothing', async () => {
    const evm = evmAccount(sandbox.file.evm_buyer.private_key)
    const before = await sandbox.evm.usdcBalance(evm.address)
    const refused = await new Solsentry({ url, wallet: { evm } }).quickScan(mint).catch((error) => error)
    expect(refused).toBeInstanceOf(SolsentryError)
    expect(refused).toMatchObject({
      code: 'PAYMENT_FAILED',
      message: `this service takes payment on ${offers.solana.network} only, which this wallet cannot pay: give it a Solana keypair (wallet.solana; the CLI: --keypair)`,
    })
    expect(await sandbox.evm.usdcBalance(evm.address)).toBe(before)
  })

  test('discovery, /trade/currencies, MCP and the web page offer Solana only', async () => {
    const seen = await advertised(url)
    expect(seen.networks).toEqual([offers.solana.network])
    expect(seen.payees).toEqual([offers.solana.pay_to])
    expect(seen.mcpNetworks).toEqual([offers.solana.network])
    expect(seen.currencies).toEqual([
      {
        currency: 'USDC',
        decimals: 6,
        chain: 'solana',
        network: offers.solana.network,
        asset: offers.solana.asset,
        pay_to: offers.solana.pay_to,
        accepted: true,
      },
    ])
    expect(seen.texts.map(payingOn)).toEqual(['Solana', 'Solana', 'Solana', 'Solana', 'Solana'])
    expect(seen.pageConfig).toMatchObject({ rails: ['solana'], demoWallet: { network: 'solana' } })
  })

  test("a trade's fee is asked and paid on Solana: CONFIRMED, the fee on the Solana payee", async () => {
    const { client, payer } = await demoPayer(sandbox.file, 'solana')
    const quoted = await quote(url, payer)
    const body = { job_id: quoted.job_id, signed_transaction_b64: await signed(quoted.unsigned_transaction_b64) }
    const unpaid = await post(url, '/trade/execute', body)
    expect(unpaid.status).toBe(402)
    expect(challengeOf(unpaid).accepts.map((offer: Json) => [offer.network, offer.amount])).toEqual([
      [offers.solana.network, '150000'],
    ])
    const before = await usdcOf(sandbox, offers.solana.pay_to)
    const executed = await post(url, '/trade/execute', body, wrapFetchWithPayment(fetch, client))
    expect(executed.status).toBe(200)
    expect(await executed.json()).toMatchObject({ status: 'CONFIRMED' })
    expect(await usdcOf(sandbox, offers.solana.pay_to)).toBe(before + 150_000n)
  })
})

describe('only PAY_TO_BASE: a Base-only seller (anvil)', () => {
  const url = baseOnly.url

  test('a paid call answers 402 offering Base only (anvil has no x402 v1 name: the v1 body offers none)', async () => {
    const response = await post(url, '/scan/quick', { token_address: mint })
    expect(response.status).toBe(402)
    expect(networksOf(challengeOf(response).accepts)).toEqual([offers.base.network])
    expect(challengeOf(response).accepts[0]).toMatchObject({ amount: '20000', payTo: offers.base.pay_to })
    expect(((await response.json()) as Json).accepts).toEqual([])
  })

  test('the official x402 client pays a quick scan on Base (EIP-3009 on anvil): the balances move on chain', async () => {
    const { client, payer } = await demoPayer(sandbox.file, 'base')
    const [buyer, payTo] = [payer as `0x${string}`, offers.base.pay_to as `0x${string}`]
    const before = [await sandbox.evm.usdcBalance(buyer), await sandbox.evm.usdcBalance(payTo)]
    const response = await post(url, '/scan/quick', { token_address: mint }, wrapFetchWithPayment(fetch, client))
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ token_address: mint, structural_risk_grade: 'A' })
    const receipt = JSON.parse(Buffer.from(response.headers.get('payment-response')!, 'base64').toString())
    expect(receipt).toMatchObject({ success: true, network: offers.base.network, payer })
    expect(await sandbox.evm.usdcBalance(buyer)).toBe(before[0]! - 20_000n)
    expect(await sandbox.evm.usdcBalance(payTo)).toBe(before[1]! + 20_000n)
  })

  test('a payment on Solana is refused with a 402 naming the rail offered; nothing moves on the Solana chain', async () => {
    const { client, payer } = await demoPayer(sandbox.file, 'solana')
    const before = [await usdcOf(sandbox, payer), sandbox.faults.countOf('facilitator:/verify')]
    const response = await post(url, '/scan/quick', { token_address: mint }, fetch, {
      'payment-signature': await paymentHeader(client, foreignOffer('solana')),
    })
    expect(response.status).toBe(402)
    const reason = `network "${offers.solana.network}" is not offered for this call (offered: ${offers.base.network})`
    expect(await response.json()).toMatchObject({ error: true, code: 'PAYMENT_REQUIRED', message: reason })
    expect(challengeOf(response).error).toBe(reason)
    expect([await usdcOf(sandbox, payer), sandbox.faults.countOf('facilitator:/verify')]).toEqual(before)
  })

  test('discovery, /trade/currencies, MCP and the web page offer Base only; the demo wallet (Solana) is not offered', async () => {
    const seen = await advertised(url)
    expect(seen.networks).toEqual([offers.base.network])
    expect(seen.payees).toEqual([offers.base.pay_to])
    expect(seen.mcpNetworks).toEqual([offers.base.network])
    expect(seen.currencies.map((entry: Json) => [entry.chain, entry.network, entry.pay_to, entry.accepted])).toEqual([
      ['base', offers.base.network, offers.base.pay_to, true],
    ])
    expect(seen.texts.map(payingOn)).toEqual(['Base', 'Base', 'Base', 'Base', 'Base'])
    expect(seen.pageConfig).toMatchObject({ rails: ['base'], demoWallet: null })
    const challenge = challengeOf(await post(url, '/scan/quick', { token_address: mint }))
    const demo = await post(url, '/demo/pay', { x402Version: 2, requirements: challenge.accepts[0] })
    expect(demo.status).toBe(404)
    expect(((await demo.json()) as Json).message).toContain('PAY_TO_SOLANA is not set')
  })

  test("a trade's fee is asked on Base only", async () => {
    const buyer = await sandbox.world.signer('demo-buyer')
    const quoted = await quote(url, buyer.address)
    const unpaid = await post(url, '/trade/execute', {
      job_id: quoted.job_id,
      signed_transaction_b64: await signed(quoted.unsigned_transaction_b64),
    })
    expect(unpaid.status).toBe(402)
    expect(challengeOf(unpaid).accepts.map((offer: Json) => [offer.network, offer.amount])).toEqual([
      [offers.base.network, '150000'],
    ])
  })
})

test('the one rail configured is one the facilitator does not settle: the log says so, paid calls answer 503', async () => {
  const logs: { msg: string; detail?: string }[] = []
  const ctx = createContext(
    loadConfig({
      ...withRails(sandbox.serviceSettings, ['base']),
      // A chain the sandbox facilitator does not settle (it lists anvil's and x402 v1's named chains).
      BASE_PAYMENT_NETWORK: 'eip155:999999',
      DATA_DIR: ':memory:',
    }),
    { logger: pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) }) },
  )
  await ctx.payments.start()
  try {
    const response = await createApp(ctx).handle(
      new Request('http://localhost/scan/quick', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token_address: mint }),
      }),
    )
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ code: 'FACILITATOR_UNAVAILABLE' })
    expect(logs.map((line) => line.msg)).toContain(
      'the facilitator does not settle eip155:999999: the base rail is not offered',
    )
    expect(logs.find((line) => line.msg === 'payment facilitator unavailable')?.detail).toBe(
      'the facilitator settles none of the configured rails (eip155:999999)',
    )
  } finally {
    await closeContext(ctx)
  }
})

describe('neither payee: a configuration error naming both', () => {
  const MESSAGE = 'PAY_TO_SOLANA or PAY_TO_BASE: set at least one, the address that receives USDC on that chain'

  test('the settings are refused with one line', () => {
    expect(() => loadConfig(withRails(sandbox.serviceSettings, []))).toThrow(ConfigError)
    expect(() => loadConfig(withRails(sandbox.serviceSettings, []))).toThrow(MESSAGE)
  })

  test.each([
    ['a facilitator', { FACILITATOR_URL: 'http://127.0.0.1:9' }],
    [
      'the mainnet profile',
      {
        SOLSENTRY_PROFILE: 'mainnet',
        PUBLIC_URL: 'https://solsentry.example',
        FACILITATOR_URL: 'https://facilitator.example',
      },
    ],
  ])('with %s, the process exits 78 with that one line', async (_, env) => {
    const child = Bun.spawn([process.execPath, join(import.meta.dir, '..', 'src/main.ts')], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: ':memory:', ...env },
      stderr: 'pipe',
      stdout: 'pipe',
    })
    expect(await child.exited).toBe(78)
    const stderr = await new Response(child.stderr).text()
    expect(stderr).toStartWith(`solsentry: configuration error: ${MESSAGE}`)
    expect(stderr.trimEnd().split('\n')).toHaveLength(1)
  })

  test('SANDBOX_RAILS (npm start) reads solana, base or both, and refuses anything else', () => {
    expect(sandboxRails(undefined)).toEqual(['base', 'solana'])
    expect(sandboxRails('both')).toEqual(['base', 'solana'])
    expect(sandboxRails('Solana')).toEqual(['solana'])
    expect(sandboxRails('solana, base')).toEqual(['base', 'solana'])
    expect(() => sandboxRails('sol')).toThrow('SANDBOX_RAILS: must be solana, base or both (got "sol")')
  })
})
