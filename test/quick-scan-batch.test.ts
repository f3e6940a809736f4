import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Solsentry, SolsentryError, solanaKeypairFile } from '../client/index.ts'
import { priced } from '../plugins/web/page.ts'
import { runToEnd } from './support/run.ts'
import { testWithV1, v1Payer } from './support/v1-client.ts'
import { demoPayer } from '../sandbox/demo-client.ts'
import { send } from './support/app.ts'
import { scanRequest, waivedService } from './support/service.ts'
import { liveService } from './support/live.ts'
import { ledgerKeyOf, paymentHeader, usdcOf } from './support/x402.ts'

// POST /scan/quick/batch over the whole service on the sandbox, real payments on both rails (issue 34 §6):
// a price per mint counted from the valid request before the challenge, a payment matched against that
// request's amount, items answered as the single route answers them, wallet mode capped by max_usd.

const { sandbox, service, ctx, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })
const { buyer, x402: offers } = sandbox.file
const solana = await demoPayer(sandbox.file, 'solana')
const base = await demoPayer(sandbox.file, 'base')
const PATH = '/scan/quick/batch'
const UNIT = 15_000n

const post = (json: unknown, headers: Record<string, string> = {}) => send(service, 'POST', PATH, { json, headers })
/** The amount (atomic USDC) a 402 asks, per rail. */
function asked(headers: Headers): Record<string, string> {
  const required = JSON.parse(Buffer.from(headers.get('payment-required')!, 'base64').toString()) as {
    accepts: { network: string; amount: string }[]
  }
  return Object.fromEntries(required.accepts.map((offer) => [offer.network, offer.amount]))
}

const blueChip = mintOf('blue-chip')
const locked = mintOf('locked-lp')

/** A wallet holding `count` fresh tokens (and one emptied account, and an NFT), for the wallet mode. */
async function walletHolding(name: string, count: number): Promise<{ wallet: string; mints: string[] }> {
  const { world } = sandbox
  const authority = await world.wallet(`batch-authority:${name}`, 5)
  const holder = await world.wallet(`batch-holder:${name}`, 1)
  const mints: string[] = []
  for (let index = 0; index < count; index++) {
    const mint = await world.createMint(
      {
        key: `batch:${name}:${index}`,
        name: `Batch ${index}`,
        symbol: `B${index}`,
        decimals: 6,
        mintAuthority: authority,
      },
      authority,
    )
    await world.mintTo(mint, holder.address, 1_000_000n, authority)
    mints.push(mint)
  }
  // An account of a further token, at zero: not a holding.
  const empty = await world.createMint(
    { key: `batch:${name}:empty`, name: 'Empty', symbol: 'E', decimals: 6, mintAuthority: authority },
    authority,
  )
  await world.mintTo(empty, holder.address, 0n, authority)
  // And an NFT (one unit, no decimals): a collectible, not a holding to grade.
  const nft = await world.createMint(
    { key: `batch:${name}:nft`, name: 'Art', symbol: 'ART', decimals: 0, mintAuthority: authority },
    authority,
  )
  await world.mintTo(nft, holder.address, 1n, authority)
  return { wallet: holder.address, mints: mints.sort() }
}

/** 50 distinct mints: the scenarios' and fresh bare ones. */
const scenarioMints = sandbox.file.scenarios.map((scenario) => scenario.mint)
const fiftyMints = [...scenarioMints, ...(await walletHolding('fifty', 50 - scenarioMints.length)).mints]

testWithV1(
  'with the v1 client (x402-fetch, X-PAYMENT): a payment signed for 2 mints is refused for 50 and buys its own 2',
  async () => {
    const { fetch: paying } = await v1Payer(sandbox)
    // The v1 client's paid retry is kept, not sent: the payment is then presented by hand.
    const realFetch = globalThis.fetch
    let signed: string | undefined
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const payment = new Headers(init?.headers).get('x-payment')
      if (payment) {
        signed = payment
        return new Response('{}', { status: 418 })
      }
      return realFetch(input, init)
    }) as typeof fetch
    const two = { token_addresses: [blueChip, locked] }
    try {
      await paying(`${running.url}${PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(two),
      })
    } finally {
      globalThis.fetch = realFetch
    }
    expect(signed).toBeDefined()
    const before = await usdcOf(sandbox, buyer.address)
    const refused = await post({ token_addresses: fiftyMints }, { 'x-payment': signed! })
    expect(refused.status).toBe(402)
    expect(await usdcOf(sandbox, buyer.address)).toBe(before)
    const paid = await post(two, { 'x-payment': signed! })
    expect(paid.status).toBe(200)
    expect(await usdcOf(sandbox, buyer.address)).toBe(before - 2n * UNIT)
  },
)

describe('discovery and docs say the price per mint', () => {
  const get = async (path: string) => (await send(service, 'GET', path)).text
  test('/.well-known/x402, /openapi.json x-payment-info, /llm.txt, the route page, the agent card', async () => {
    const manifest = JSON.parse(await get('/.well-known/x402'))
    expect(manifest.discovery.find((entry: { resource: string }) => entry.resource === `POST ${PATH}`)).toMatchObject({
      price: '0.015 USD per mint (1–50)',
      price_usd: '0.015',
      per_unit: { unit: 'mint', min_units: 1, max_units: 50 },
    })
    const openapi = JSON.parse(await get('/openapi.json'))
    const info = openapi.paths[PATH].post['x-payment-info']
    expect(info).toMatchObject({
      price: { mode: 'dynamic', currency: 'USD', min: '0.015', max: '0.75' },
      per_unit: { amount: '0.015', unit: 'mint', min_units: 1, max_units: 50 },
      price_usd: '0.75',
      amount: '750000',
    })
    expect(info.protocols[0].x402.accepts.every((offer: object) => !('amount' in offer))).toBe(true)
    // A fixed price is unchanged.
    expect(openapi.paths['/scan/quick'].post['x-payment-info'].price).toEqual({
      mode: 'fixed',
      currency: 'USD',
      amount: '0.02',
    })
    expect(await get('/llm.txt')).toContain(`### POST ${PATH} (0.015 USD per mint (1–50)`)
    expect(await get('/docs/routes/scan-quick-batch.md')).toContain(`# POST ${PATH} — 0.015 USD per mint (1–50)`)
    // The page's price labels (plugins/web/page.ts): a price per unit says its unit.
    expect(await get('/')).toContain(`"POST ${PATH}":"0.015 per mint"`)
    expect(priced('Scan them all', { [`POST ${PATH}`]: '0.015 per mint' }, `POST ${PATH}`)).toBe(
      'Scan them all · 0.015 USD per mint',
    )
    expect(priced('Quick scan', { 'POST /scan/quick': '0.02' }, 'POST /scan/quick')).toBe('Quick scan · 0.02 USD')
    const card = JSON.parse(await get('/.well-known/agent.json'))
    expect(card.skills.find((skill: { id: string }) => skill.id === 'sol_quick_scan_batch').description).toContain(
      `POST ${PATH} (0.015 USD per mint (1–50))`,
    )
  })
})

describe('an invalid request is refused before any challenge (400/422, never a 402)', () => {
  for (const [what, body, code] of [
    ['an empty body', {}, 'INVALID_REQUEST'],
    ['no mints', { token_addresses: [] }, 'INVALID_REQUEST'],
    ['51 mints', { token_addresses: Array.from({ length: 51 }, () => blueChip) }, 'INVALID_REQUEST'],
    ['an item that is no address', { token_addresses: [blueChip, 'not-an-address'] }, 'INVALID_REQUEST'],
    [
      'mints and a wallet',
      { token_addresses: [blueChip], wallet_address: buyer.address, max_usd: 1 },
      'INVALID_REQUEST',
    ],
    ['max_usd with mints', { token_addresses: [blueChip], max_usd: 1 }, 'INVALID_REQUEST'],
    ['a wallet without max_usd', { wallet_address: buyer.address }, 'INVALID_REQUEST'],
    ['max_usd below one mint', { wallet_address: buyer.address, max_usd: 0.01 }, 'INVALID_REQUEST'],
    ['a wallet address that is a mint', { wallet_address: blueChip, max_usd: 1 }, 'NOT_A_WALLET'],
  ] as const)
    test(what, async () => {
      const answer = await post(body)
      expect(answer.status).not.toBe(402)
      expect(answer.headers.get('payment-required')).toBeNull()
      expect((answer.json as { code: string }).code).toBe(code)
    })
})

test('a service on a paced RPC plan takes fewer mints per batch: more is refused before any challenge, saying how many', async () => {
  const paced = waivedService({ ...sandbox.serviceSettings, SOLANA_RPC_PROVIDER: 'keyed' })
  expect((await paced.handle(scanRequest(PATH, { token_addresses: fiftyMints.slice(0, 5) }))).status).toBe(200)
  const response = await paced.handle(scanRequest(PATH, { token_addresses: fiftyMints.slice(0, 6) }))
  expect(response.status).toBe(400)
  const body = (await response.json()) as { code: string; message: string; max_mints: number }
  expect(body).toMatchObject({ code: 'INVALID_REQUEST', max_mints: 5 })
  expect(body.message).toContain('at most 5 mints per batch')
})

describe('the challenge asks unit × the mints the request buys', () => {
  test('two mints: 0.03 USD on every rail; a duplicate is counted once', async () => {
    const two = await post({ token_addresses: [blueChip, locked] })
    expect(two.status).toBe(402)
    expect(asked(two.headers)).toEqual({ [offers.solana.network]: '30000', [offers.base.network]: '30000' })
    const again = await post({ token_addresses: [blueChip, locked, blueChip] })
    expect(asked(again.headers)[offers.solana.network]).toBe('30000')
  })

  test('an address that is no token is not counted (it is answered as an item error, free)', async () => {
    const answer = await post({ token_addresses: [blueChip, buyer.address] })
    expect(asked(answer.headers)[offers.solana.network]).toBe(UNIT.toString())
  })
})

describe('a payment for 2 mints never buys 50', () => {
  for (const [rail, payer] of [
    ['solana', solana],
    ['base', base],
  ] as const)
    test(`on ${rail}: refused with a new challenge, nothing moved`, async () => {
      const small = await post({ token_addresses: [blueChip, locked] })
      const header = await paymentHeader(
        payer.client,
        // The challenge for 2 mints, kept to this rail's offer.
        small.headers.get('payment-required')!,
      )
      const large = { token_addresses: fiftyMints }
      const before =
        rail === 'solana'
          ? await usdcOf(sandbox, buyer.address)
          : await sandbox.evm.usdcBalance(base.payer as `0x${string}`)
      const refused = await post(large, { 'payment-signature': header })
      expect(refused.status).toBe(402)
      expect(asked(refused.headers)[offers[rail].network]).toBe('750000')
      expect(JSON.stringify(refused.json)).toContain('this call costs 750000')
      expect(await ctx.store.ledger.get(ledgerKeyOf(header))).toBeUndefined()
      const after =
        rail === 'solana'
          ? await usdcOf(sandbox, buyer.address)
          : await sandbox.evm.usdcBalance(base.payer as `0x${string}`)
      expect(after).toBe(before)
    })
})

/** The single route's answer for `mint`, payment waived (the same sandbox). */
const waived = waivedService({ ...sandbox.serviceSettings, RATE_LIMIT_SCANNER_BURST: '100000' })
async function single(mint: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await waived.handle(scanRequest('/scan/quick', { token_address: mint }))
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

describe('a paid batch answers each mint as the single route, settles once for the mints that are tokens', () => {
  for (const [rail, payer] of [
    ['solana', solana],
    ['base', base],
  ] as const)
    test(`on ${rail}`, async () => {
      const body = { token_addresses: [blueChip, buyer.address, locked, blueChip] }
      const challenged = await post(body)
      const header = await paymentHeader(payer.client, challenged.headers.get('payment-required')!)
      const balance = () =>
        rail === 'solana' ? usdcOf(sandbox, buyer.address) : sandbox.evm.usdcBalance(base.payer as `0x${string}`)
      const before = await balance()
      const paid = await post(body, { 'payment-signature': header })
      expect(paid.status).toBe(200)
      expect(paid.headers.get('payment-response')).not.toBeNull()
      expect(await balance()).toBe(before - 2n * UNIT)
      expect(await ctx.store.ledger.get(ledgerKeyOf(header))).toMatchObject({ state: 'settled', amount: '30000' })
      const answer = paid.json as any
      expect(answer).toMatchObject({
        requested: 3,
        answered: 2,
        duplicates_ignored: 1,
        charged: { units: 2, unit_price_usd: '0.015', total_usd: '0.03' },
      })
      expect(answer.results.map((item: any) => [item.token_address, item.ok])).toEqual([
        [blueChip, true],
        [buyer.address, false],
        [locked, true],
      ])
      // The wallet is refused as the single route refuses it, and was not charged.
      const refused = await single(buyer.address)
      expect(answer.results[1].error).toMatchObject({
        code: (refused.body as { code: string }).code,
        message: (refused.body as { message: string }).message,
        charged: false,
      })
      for (const item of [answer.results[0], answer.results[2]]) {
        const alone = await single(item.token_address)
        expect(alone.status).toBe(200)
        expect(item.scan).toEqual(alone.body)
      }
      // Presented again, the payment buys nothing more.
      const again = await post(body, { 'payment-signature': header })
      expect(again.status).toBe(402)
      expect(await balance()).toBe(before - 2n * UNIT)
    })
})

test('a batch item and a single /scan/quick of the same mint at once cost the upstreams one scan: their reads are shared', async () => {
  const calls = () =>
    [...sandbox.faults.requests.entries()].filter(([key]) => key.includes(':')).reduce((sum, [, n]) => sum + n, 0)
  const fresh = () => waivedService({ ...sandbox.serviceSettings, RATE_LIMIT_SCANNER_BURST: '100000' })
  const mint = mintOf('serial-rugger')
  sandbox.faults.latencyMs = 50
  try {
    let before = calls()
    await (await fresh().handle(scanRequest('/scan/quick', { token_address: mint }))).arrayBuffer()
    const alone = calls() - before
    before = calls()
    const app = fresh()
    await Promise.all([
      app.handle(scanRequest('/scan/quick', { token_address: mint })).then((response) => response.arrayBuffer()),
      app.handle(scanRequest(PATH, { token_addresses: [mint] })).then((response) => response.arrayBuffer()),
    ])
    expect(alone).toBeGreaterThan(0)
    expect(calls() - before).toBe(alone)
  } finally {
    sandbox.faults.latencyMs = 0
  }
})

describe('wallet mode: every token held, capped by max_usd', () => {
  test('three holdings, max_usd 0.03: two scanned (by mint address), one left out, 0.03 USD', async () => {
    const { wallet, mints } = await walletHolding('three', 3)
    const body = { wallet_address: wallet, max_usd: 0.03 }
    const challenged = await post(body)
    expect(challenged.status).toBe(402)
    expect(asked(challenged.headers)[offers.solana.network]).toBe('30000')
    const header = await paymentHeader(solana.client, challenged.headers.get('payment-required')!)
    const before = await usdcOf(sandbox, buyer.address)
    const paid = await post(body, { 'payment-signature': header })
    expect(paid.status).toBe(200)
    expect(await usdcOf(sandbox, buyer.address)).toBe(before - 30_000n)
    const answer = paid.json as any
    expect(answer.wallet).toEqual({
      wallet_address: wallet,
      max_usd: 0.03,
      holdings: 3,
      scanned: mints.slice(0, 2),
      left_out: mints.slice(2),
    })
    expect(answer.results.map((item: any) => item.token_address)).toEqual(mints.slice(0, 2))
    expect(answer.results.every((item: any) => item.ok && item.scan.token_address === item.token_address)).toBe(true)
  })

  test('a wallet that holds nothing is answered at once, free: no challenge, nothing scanned', async () => {
    const empty = await sandbox.world.wallet('batch-holder:nothing', 1)
    const answer = await post({ wallet_address: empty.address, max_usd: 1 })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('payment-response')).toBeNull()
    expect(answer.json).toMatchObject({
      results: [],
      answered: 0,
      charged: { units: 0, total_usd: '0.00' },
      wallet: { holdings: 0, scanned: [], left_out: [] },
    })
  })
})

describe('on every access path: MCP, the SDK, the CLI', () => {
  test('MCP: the tool says its price per mint; unpaid, the PaymentRequired of that request; paid, the batch', async () => {
    const mcp = new Client({ name: 'batch-test', version: '1.0.0' })
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`)))
    afterAll(() => mcp.close())
    const { tools } = await mcp.listTools()
    const tool = tools.find((entry) => entry.name === 'sol_quick_scan_batch')!
    expect(tool.description).toContain('Costs 0.015 USD per mint (1–50)')
    const args = { token_addresses: [blueChip, locked] }
    const unpaid = (await mcp.callTool({ name: tool.name, arguments: args })) as any
    expect(unpaid.isError).toBe(true)
    expect(unpaid.structuredContent.accepts.map((offer: { amount: string }) => offer.amount)).toEqual([
      '30000',
      '30000',
    ])
    const before = await usdcOf(sandbox, buyer.address)
    const payment = await solana.client.createPaymentPayload(unpaid.structuredContent)
    const paid = (await mcp.callTool({ name: tool.name, arguments: args, _meta: { 'x402/payment': payment } })) as any
    expect(paid.isError).toBeFalsy()
    expect(paid.structuredContent).toMatchObject({ answered: 2, charged: { units: 2, total_usd: '0.03' } })
    expect(paid._meta['x402/payment-response']).toMatchObject({ success: true })
    expect(await usdcOf(sandbox, buyer.address)).toBe(before - 30_000n)
  })

  test('SDK: quickScanBatch pays the request’s price, and never more than the mints it names', async () => {
    const wallet = { solana: await solanaKeypairFile(sandbox.file.buyer.keypair_path) }
    const sdk = new Solsentry({ url: running.url, wallet, solanaRpcUrl: sandbox.file.urls.rpc })
    const before = await usdcOf(sandbox, buyer.address)
    const answer = await sdk.quickScanBatch({ token_addresses: [blueChip, locked, blueChip] })
    expect(answer.charged).toEqual({ units: 2, unit_price_usd: '0.015', total_usd: '0.03' })
    expect(await usdcOf(sandbox, buyer.address)).toBe(before - 30_000n)
    expect(sdk.spentUsd).toBe('0.030000')
    // A wallet's cap is the call's cap: max_usd 0.015 buys one token, and pays 0.015 at most.
    const { wallet: holder } = await walletHolding('sdk', 2)
    const capped = await sdk.quickScanBatch({ wallet_address: holder, max_usd: 0.015 })
    expect(capped.wallet).toMatchObject({ holdings: 2 })
    expect(capped.wallet!.scanned.length).toBe(1)
    expect(sdk.spentUsd).toBe('0.045000')
    // --max-usd below the request's price: refused before paying.
    const low = new Solsentry({ url: running.url, wallet, solanaRpcUrl: sandbox.file.urls.rpc, maxPerCallUsd: '0.02' })
    const refused = await low.quickScanBatch({ token_addresses: [blueChip, locked] }).catch((error) => error)
    expect(refused).toBeInstanceOf(SolsentryError)
    expect((refused as SolsentryError).code).toBe('SPEND_LIMIT')
    expect(low.spentUsd).toBe('0.000000')
  })

  const cli = join(import.meta.dir, '..', 'client', 'cli.ts')
  const run = (args: string[]) =>
    runToEnd([process.execPath, cli, ...args], {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: '/nonexistent',
      SOLSENTRY_URL: running.url,
      SOLSENTRY_KEYPAIR: sandbox.file.buyer.keypair_path,
      SOLSENTRY_SOLANA_RPC: sandbox.file.urls.rpc,
    })

  test('CLI: solsentry batch <mint…> prints one line per mint and what it cost', async () => {
    const before = await usdcOf(sandbox, buyer.address)
    const { stdout, stderr, code } = await run(['batch', blueChip, locked, buyer.address])
    expect(stderr).not.toContain('error')
    expect(code).toBe(0)
    expect(stdout).toContain('2 of 3 answered · 2 × 0.015 USD = 0.03 USD')
    expect(stdout).toContain(`${buyer.address}  NOT_A_TOKEN_MINT`)
    expect(await usdcOf(sandbox, buyer.address)).toBe(before - 30_000n)
  })

  test('CLI: solsentry batch --wallet <address> --max-usd caps the holdings scanned, --json answers the route’s JSON', async () => {
    const { wallet, mints } = await walletHolding('cli', 3)
    const { stdout, code } = await run(['batch', '--wallet', wallet, '--max-usd', '0.03', '--json'])
    expect(code).toBe(0)
    const answer = JSON.parse(stdout)
    expect(answer.wallet).toMatchObject({ holdings: 3, scanned: mints.slice(0, 2), left_out: mints.slice(2) })
    // The price list by command says the unit.
    expect((await run(['currencies'])).stdout).toMatch(/^ {2}solsentry batch <mint…> +0\.015 USD per mint$/m)
    const without = await run(['batch', '--wallet', wallet])
    expect(without.code).not.toBe(0)
    expect(without.stderr + without.stdout).toContain('--max-usd')
  })
})
