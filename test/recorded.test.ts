import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type TSchema, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { parseJsonWithBigInts } from '@solana/rpc-spec-types'
import { startSandbox, type RunningSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { parseTransaction, type RpcTransaction } from '../src/facts/history.ts'
import { mintOfAccount } from '../src/facts/mint.ts'
import { tokenListFact } from '../src/facts/token-list.ts'
import { loadIssuerRegistry } from '../src/onchain/issuers.ts'
import { USDC_MINT_ADDRESS } from '../src/onchain/programs.ts'
import { RPC_RESULT_SCHEMAS, RpcErrorSchema } from '../src/sources/solana-answers.ts'
import { statusFailure } from '../src/sources/upstream.ts'
import {
  impactOfOrder,
  JupiterBuildSchema,
  JupiterOrderSchema,
  JupiterQuoteSchema,
  JupiterSwapSchema,
  JupiterTokenSchema,
} from '../src/sources/jupiter.ts'
import { DexPairSchema } from '../src/sources/dexscreener.ts'
import { LifiQuoteSchema } from '../src/sources/lifi.ts'

/**
 * Reality is the reference: every recorded upstream answer (test/fixtures/recorded/, each with its
 * source and date) passes the boundary schema the service validates that upstream with, and the
 * sandbox stand-in's answers to the same request pass the same schema — so the sandbox cannot drift
 * from what the real API serves.
 */
const RECORDED = join(import.meta.dir, 'fixtures', 'recorded')

interface Recorded {
  source: string
  retrieved: string
  request: string
  answer: unknown
}

const recorded = (folder: string): [string, Recorded][] =>
  readdirSync(join(RECORDED, folder))
    .filter((name) => name.endsWith('.json'))
    .map((name) => [name, require(join(RECORDED, folder, name)) as Recorded])

const LIFI_ERROR = Type.Object({ message: Type.String(), code: Type.Integer() })

/** The boundary schema of each recorded request (by its path). */
const SCHEMAS: { path: RegExp; schema: TSchema }[] = [
  { path: /\/tokens\/v2\/(search|tag)\?/, schema: Type.Array(JupiterTokenSchema) },
  {
    path: /\/tokens\/v2\/(toptrending|toptraded|toporganicscore)\/(5m|1h|6h|24h)\b/,
    schema: Type.Array(JupiterTokenSchema),
  },
  { path: /\/swap\/v1\/quote\?/, schema: JupiterQuoteSchema },
  { path: /\/swap\/v1\/swap\b/, schema: JupiterSwapSchema },
  { path: /\/swap\/v2\/build\?/, schema: JupiterBuildSchema },
  { path: /\/swap\/v2\/order\?/, schema: JupiterOrderSchema },
  { path: /li\.quest\/v1\/quote\?/, schema: LifiQuoteSchema },
  // LI.FI's refusals, whatever the endpoint: {message, code}.
  { path: /li\.quest\/v1\/status\?/, schema: LIFI_ERROR },
  { path: /\/(tokens|token-pairs)\/v1\//, schema: Type.Array(DexPairSchema) },
  // The older /latest/dex endpoints wrap the same pair objects.
  { path: /\/latest\/dex\//, schema: Type.Object({ pairs: Type.Array(DexPairSchema) }) },
]
const schemaOf = (request: string) => SCHEMAS.find((entry) => entry.path.test(request))?.schema

const errorsOf = (schema: TSchema, value: unknown) =>
  [...Value.Errors(schema, value)].map((error) => `${error.path} ${error.message}`)

describe('recorded real answers', () => {
  test.each([...recorded('jupiter'), ...recorded('dexscreener'), ...recorded('lifi')])(
    '%s carries its source and date and passes the boundary schema',
    (_, fixture) => {
      expect(fixture.source.length).toBeGreaterThan(20)
      expect(fixture.retrieved).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      const schema = schemaOf(fixture.request)
      expect(schema).toBeDefined()
      expect(errorsOf(schema!, fixture.answer)).toEqual([])
    },
  )

  test('the token-list fact read from them: audit figures as published, absent flags not read as revoked', () => {
    const [sol] = recorded('jupiter').find(([name]) => name === 'tokens-v2-search-sol.json')![1].answer as never[]
    expect(tokenListFact(sol!)).toEqual({
      listed: true,
      verified: true,
      tags: ['community', 'strict', 'verified'],
      logoUri:
        'https://raw.githubusercontent.com/solana-labs/token-list/main/assets/mainnet/So11111111111111111111111111111111111111112/logo.png',
      holderCount: 2_342_610,
      topHoldersPct: 1.2422471238911812,
      organicScore: 98.92390784896082,
      organicScoreLabel: 'high',
      suspicious: false,
      priceChangePct: {
        m5: 0.021175445311831707,
        h1: -0.145099593531635,
        h6: 0.3790495974473589,
        h24: 1.5076363979360274,
      },
      cexes: [],
    })
    const [usdc] = recorded('jupiter').find(([name]) => name === 'tokens-v2-search-usdc.json')![1].answer as never[]
    // Real USDC carries no stablecoin tag: the exemption cannot rest on one.
    expect(tokenListFact(usdc!)).toMatchObject({
      verified: true,
      tags: ['community', 'strict', 'verified'],
      topHoldersPct: 42.1893635408922,
      holderCount: 4_197_146,
      // Its own change, which no pair where it is the quote can give.
      priceChangePct: { h24: 0.00288391287721556 },
      cexes: ['Binance', 'Bybit', 'OKX', 'Upbit', 'Bitget', 'Kraken', 'KuCoin', 'MEXC', 'Gate.io'],
    })
  })

  test("a v2 /order's price impact reads as the loss it is (percentage points, negative for a loss), never a missing one as zero", () => {
    const [, documented] = recorded('jupiter').find(([name]) => name.startsWith('order-v2-'))!
    const order = documented.answer as { priceImpact: number; priceImpactPct: string; transaction: unknown }
    // Quote only: no taker, no transaction.
    expect(order.transaction).toBeNull()
    expect(impactOfOrder(order)).toBe(0.0154)
    // The deprecated fraction says the same; with neither the impact is not known.
    expect(impactOfOrder({ priceImpactPct: order.priceImpactPct })).toBe(0.0154)
    expect(impactOfOrder({})).toBeNull()
  })
})

/**
 * A recorded JSON-RPC answer, parsed as SolanaSource parses the wire (integers as bigints), or as the
 * facts see it after kit's answer transform (`plain`: the small integers kit hands back as numbers).
 */
const rpcFixture = (name: string, plain = false) => {
  const text = readFileSync(join(RECORDED, 'solana-rpc', name), 'utf8')
  return (plain ? JSON.parse(text) : parseJsonWithBigInts(text)) as Recorded & {
    answer: { result?: unknown; error?: unknown }
  }
}
const rpcFixtures = readdirSync(join(RECORDED, 'solana-rpc')).filter((name) => name.endsWith('.json'))

describe('the sandbox stand-ins answer in the recorded shapes (one validator for both)', () => {
  let sandbox: RunningSandbox
  beforeAll(async () => {
    sandbox = await startSandbox(ephemeralSandboxOptions())
  })
  afterAll(async () => {
    await sandbox?.stop()
  })

  /** One JSON-RPC call to the sandbox RPC, its answer read as SolanaSource reads the wire. */
  async function call(method: string, params: unknown[]) {
    const response = await fetch(sandbox.file.urls.rpc, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    return parseJsonWithBigInts(await response.text()) as { result?: unknown; error?: unknown }
  }

  /** The call's result, checked against its method's boundary schema. */
  async function rpc(method: string, params: unknown[]) {
    const answer = await call(method, params)
    expect({ method, errors: errorsOf(RPC_RESULT_SCHEMAS[method]!, answer.result) }).toEqual({ method, errors: [] })
    return answer.result
  }
  test('aggregator: /tokens/v2/search of every scenario token passes the schema the recorded answers pass', async () => {
    const schema = schemaOf('/tokens/v2/search?query=')!
    for (const scenario of sandbox.file.scenarios) {
      const response = await fetch(`${sandbox.file.urls.jupiter}/tokens/v2/search?query=${scenario.mint}`)
      const answer = await response.json()
      expect({ scenario: scenario.name, errors: errorsOf(schema, answer) }).toEqual({
        scenario: scenario.name,
        errors: [],
      })
      // As the real API: the audit's *Disabled flags are present only when true.
      for (const entry of answer as { audit?: Record<string, unknown> | null }[])
        for (const flag of ['mintAuthorityDisabled', 'freezeAuthorityDisabled'])
          if (entry.audit && flag in entry.audit) expect(entry.audit[flag]).toBe(true)
    }
  })

  test('aggregator: /swap/v2/build passes the schema the documented answer passes, and serves no member the docs do not list', async () => {
    const [, documented] = recorded('jupiter').find(([name]) => name.startsWith('build-v2-'))!
    const listed = documented.answer as Record<string, Record<string, unknown>>
    const { buyer } = sandbox.file
    for (const [input, output] of [
      ['So11111111111111111111111111111111111111112', sandbox.file.scenarios.find((s) => s.name === 'blue-chip')!.mint],
      [sandbox.file.scenarios.find((s) => s.name === 'blue-chip')!.mint, sandbox.file.usdc_mint],
    ]) {
      const query = new URLSearchParams({
        inputMint: input!,
        outputMint: output!,
        amount: '1000000',
        taker: buyer.address,
      })
      const response = await fetch(`${sandbox.file.urls.jupiter}/swap/v2/build?${query}`)
      expect(response.status).toBe(200)
      const answer = (await response.json()) as Record<string, Record<string, unknown>> & { slippageBps: unknown }
      expect(errorsOf(schemaOf('/swap/v2/build?')!, answer)).toEqual([])
      for (const key of Object.keys(answer)) expect(Object.keys(listed)).toContain(key)
      const keysOf = (value: unknown) => Object.keys(value as object)
      const nested = (value: Record<string, unknown>) => ({
        blockhashWithMetadata: keysOf(value.blockhashWithMetadata),
        routePlan: keysOf((value.routePlan as unknown[])[0]),
        swapInfo: keysOf((value.routePlan as { swapInfo: unknown }[])[0]!.swapInfo),
        instruction: keysOf(value.swapInstruction),
        account: keysOf((value.swapInstruction as { accounts: unknown[] }).accounts[0]),
      })
      const documentedNested = nested(listed)
      for (const [member, keys] of Object.entries(nested(answer)))
        for (const key of keys)
          expect({ member, key, listed: documentedNested[member as 'routePlan'].includes(key) }).toEqual({
            member,
            key,
            listed: true,
          })
      expect(answer.slippageBps).toBe(50)
    }
    // The taker is required; ExactIn only (no swapMode member in the answer's request, none served).
    const missing = await fetch(
      `${sandbox.file.urls.jupiter}/swap/v2/build?inputMint=So11111111111111111111111111111111111111112&outputMint=${sandbox.file.usdc_mint}&amount=1`,
    )
    expect(missing.status).toBe(400)
    expect(await missing.json()).toEqual({ error: 'Query parameter taker is required' })
  })

  test('aggregator: /swap/v2/order without a taker passes the schema the documented answer passes, serves no member the docs do not list, and no transaction', async () => {
    const [, documented] = recorded('jupiter').find(([name]) => name.startsWith('order-v2-'))!
    const listed = documented.answer as Record<string, unknown>
    const chip = sandbox.file.scenarios.find((s) => s.name === 'blue-chip')!.mint
    const keysOf = (value: unknown) => Object.keys(value as object)
    const nested = (value: Record<string, unknown>) => ({
      routePlan: keysOf((value.routePlan as unknown[])[0]),
      swapInfo: keysOf((value.routePlan as { swapInfo: unknown }[])[0]!.swapInfo),
    })
    const documentedNested = nested(listed)
    for (const [input, output] of [
      [sandbox.file.usdc_mint, chip],
      [chip, sandbox.file.usdc_mint],
    ]) {
      const query = new URLSearchParams({ inputMint: input!, outputMint: output!, amount: '10000000' })
      const response = await fetch(`${sandbox.file.urls.jupiter}/swap/v2/order?${query}`)
      expect(response.status).toBe(200)
      const answer = (await response.json()) as Record<string, unknown>
      expect(errorsOf(schemaOf('/swap/v2/order?')!, answer)).toEqual([])
      for (const key of Object.keys(answer)) expect({ key, listed: key in listed }).toEqual({ key, listed: true })
      for (const [member, keys] of Object.entries(nested(answer)))
        for (const key of keys)
          expect({ member, key, listed: documentedNested[member as 'routePlan'].includes(key) }).toEqual({
            member,
            key,
            listed: true,
          })
      expect(answer).toMatchObject({ transaction: null, taker: null, swapMode: 'ExactIn', mode: 'ultra' })
      // A loss reads negative, in percentage points, and the deprecated fraction agrees.
      expect(answer.priceImpact as number).toBeLessThan(0)
      expect(Number(answer.priceImpactPct) * 100).toBeCloseTo(answer.priceImpact as number, 10)
    }
    // Its refusals are the documented 400 shape, {requestId, error}.
    const same = await fetch(
      `${sandbox.file.urls.jupiter}/swap/v2/order?inputMint=${chip}&outputMint=${chip}&amount=1000`,
    )
    expect(same.status).toBe(400)
    expect(Object.keys((await same.json()) as object).sort()).toEqual(['error', 'requestId'])
    // The stand-in builds no /order transaction: a taker is refused, not answered with a made-up one.
    const taker = await fetch(
      `${sandbox.file.urls.jupiter}/swap/v2/order?inputMint=${chip}&outputMint=${sandbox.file.usdc_mint}&amount=1000&taker=${sandbox.file.buyer.address}`,
    )
    expect(taker.status).toBe(400)
  })

  test('bridge: a quote of the sandbox USDC home passes the recorded quote schema; its refusals the recorded error shape', async () => {
    const quote = (query: Record<string, string>) =>
      fetch(`${sandbox.file.urls.lifi}/v1/quote?${new URLSearchParams(query)}`)
    const base = {
      fromChain: '1151111081099710',
      toChain: '8453',
      fromToken: sandbox.file.usdc_mint,
      toToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      fromAmount: '25000000',
      fromAddress: sandbox.file.buyer.address,
    }
    const ok = await quote(base)
    expect(ok.status).toBe(200)
    expect(errorsOf(LifiQuoteSchema, await ok.json())).toEqual([])
    for (const [query, status] of [
      [{ ...base, toChain: 'XYZ' }, 400],
      [{ ...base, fromAmount: '1000' }, 404],
    ] as const) {
      const refused = await quote(query)
      expect(refused.status).toBe(status)
      expect(errorsOf(LIFI_ERROR, await refused.json())).toEqual([])
    }
  })

  test('aggregator: the tokens v2 categories pass the schema the recorded category answers pass', async () => {
    const schema = schemaOf('/tokens/v2/toptrending/1h')!
    for (const path of ['toptrending/1h', 'toptraded/24h', 'toptrending/5m']) {
      const response = await fetch(`${sandbox.file.urls.jupiter}/tokens/v2/${path}?limit=100`)
      expect(response.status).toBe(200)
      const answer = (await response.json()) as unknown[]
      expect({ path, errors: errorsOf(schema, answer) }).toEqual({ path, errors: [] })
    }
  })

  test('every RPC method the service reads, for every scenario, passes the schema the recorded answers pass', async () => {
    for (const scenario of sandbox.file.scenarios) {
      await rpc('getAccountInfo', [scenario.mint, { encoding: 'jsonParsed' }])
      await rpc('getMultipleAccounts', [[scenario.mint, USDC_MINT_ADDRESS], { encoding: 'base64' }])
      const { value: largest } = (await rpc('getTokenLargestAccounts', [scenario.mint])) as {
        value: { address: string }[]
      }
      if (largest[0]) await rpc('getBalance', [largest[0].address])
      const signatures = (await rpc('getSignaturesForAddress', [scenario.mint, { limit: 5 }])) as {
        signature: string
      }[]
      for (const { signature } of signatures)
        await rpc('getTransaction', [signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }])
      await rpc('getSignatureStatuses', [
        signatures.map((entry) => entry.signature),
        { searchTransactionHistory: true },
      ])
    }
    // The executor's reads (its simulation runs through the same schema in the trade suites).
    await rpc('getBlockHeight', [{ commitment: 'confirmed' }])
    const latest = (await call('getLatestBlockhash', [])).result as { value: { blockhash: string } }
    const { blockhash } = latest.value
    await rpc('isBlockhashValid', [blockhash, { commitment: 'confirmed' }])
    await rpc('getProgramAccounts', [
      'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      {
        encoding: 'base64',
        dataSlice: { offset: 0, length: 0 },
        filters: [{ memcmp: { offset: 0, bytes: USDC_MINT_ADDRESS, encoding: 'base58' } }],
      },
    ])
  })

  test('DexScreener: /tokens/v1 and /token-pairs/v1 of every scenario token pass the schema the recorded answers pass', async () => {
    const schema = Type.Array(DexPairSchema)
    for (const scenario of sandbox.file.scenarios)
      for (const path of [`/tokens/v1/solana/${scenario.mint}`, `/token-pairs/v1/solana/${scenario.mint}`]) {
        const answer = await (await fetch(`${sandbox.file.urls.dexscreener}${path}`)).json()
        expect({ path, errors: errorsOf(schema, answer) }).toEqual({ path, errors: [] })
      }
  })
})

describe('recorded real Solana RPC answers', () => {
  test.each(rpcFixtures)('%s carries its source and date and passes the boundary schema', (name) => {
    const fixture = rpcFixture(name)
    expect(fixture.source.length).toBeGreaterThan(20)
    expect(fixture.retrieved).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    // The method is the file name's first word; a refusal (an `error` member) has the error's schema.
    const method = name.split('-')[0]!
    if ('error' in fixture.answer) expect(errorsOf(RpcErrorSchema, fixture.answer.error)).toEqual([])
    else expect(errorsOf(RPC_RESULT_SCHEMAS[method]!, fixture.answer.result)).toEqual([])
  })

  test('the recorded refusals are the ones the service learns from: -32010 and the 429 body', () => {
    for (const name of rpcFixtures.filter((file) => file.includes('32010')))
      expect(rpcFixture(name).answer.error).toMatchObject({
        code: -32010n,
        message: expect.stringContaining('excluded from account secondary indexes'),
      })
    const throttled = rpcFixture('http429-too-many-requests-specific-rpc-call.json').answer
    expect(throttled.error).toMatchObject({ code: 429n })
    expect(statusFailure('solana_rpc', 429)?.reason).toBe('rate_limited')
  })

  test('mint facts read from real mints: SPL USDC, and Token-2022 PYUSD, TSLAx and AAPLon with their issuer controls', () => {
    const mintOf = (name: string) =>
      mintOfAccount((rpcFixture(name, true).answer.result as { value: { data: unknown } }).value.data)!
    const usdc = mintOf('getAccountInfo-usdc-mint-jsonParsed.json')
    expect(usdc).toMatchObject({
      program: 'spl-token',
      decimals: 6,
      mintAuthority: 'BJE5MMbqXjVwjAF7oxwPYXnTXDyspzZyt4vwenNw5ruG',
      freezeAuthority: '7dGbd2QZcCKcTndnHcTL8q7SMVXAkp688NTQYwrRCrar',
    })
    const pyusd = mintOf('getAccountInfo-pyusd-token2022-mint-jsonParsed.json')
    expect(pyusd.program).toBe('spl-token-2022')
    expect(pyusd.extensions.permanentDelegate).toBe('2apBGMsS6ti9RyF5TwQTDswXBWskiJP2LD4cUEDqYJjk')
    expect(pyusd.extensions.transferFee).not.toBeNull()
    const tslax = mintOf('getAccountInfo-tslax-xstocks-token2022-mint-jsonParsed.json')
    expect(tslax.extensions.permanentDelegate).toBe('5aMNNLQJwAEeoemTEMkv5NVjqKwvvefRYCQ5Z67HFvEq')
    expect(tslax.extensions.pausable).not.toBeNull()
    expect(tslax.extensions.other).toContain('scaledUiAmountConfig')
    const aaplon = mintOf('getAccountInfo-aaplon-ondo-token2022-mint-jsonParsed.json')
    expect(aaplon.extensions.pausable).not.toBeNull()
    expect(aaplon.extensions.other).toContain('scaledUiAmountConfig')
  })

  test("the issuer registry's authorities are the recorded mints' own", () => {
    const registry = loadIssuerRegistry()
    for (const [name, mint] of [
      ['getAccountInfo-usdc-mint-jsonParsed.json', USDC_MINT_ADDRESS],
      ['getAccountInfo-tslax-xstocks-token2022-mint-jsonParsed.json', 'XsDoVfqeBukxuZHWhdvWHBhgEHjGNst4MLodqsJHzoB'],
      ['getAccountInfo-aaplon-ondo-token2022-mint-jsonParsed.json', '123mYEnRLM2LLYsJW3K6oyYh8uP1fngj732iG638ondo'],
      ['getAccountInfo-pyusd-token2022-mint-jsonParsed.json', '2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo'],
    ] as const) {
      const recordedMint = mintOfAccount(
        (rpcFixture(name, true).answer.result as { value: { data: unknown } }).value.data,
      )!
      const entry = registry.get(mint)!
      expect(entry).toBeDefined()
      if (entry.mintAuthority) expect(recordedMint.mintAuthority).toBe(entry.mintAuthority)
      if (entry.freezeAuthority) expect(recordedMint.freezeAuthority).toBe(entry.freezeAuthority)
    }
  })

  test('transactions read from real v0 swaps: loaded addresses resolve every token balance to an account', () => {
    for (const name of rpcFixtures.filter((file) => file.startsWith('getTransaction-'))) {
      const raw = rpcFixture(name).answer.result as RpcTransaction
      const parsed = parseTransaction('recorded', raw)
      expect(parsed.feePayer).toBe(raw.transaction.message.accountKeys[0]!)
      expect(parsed.tokenDeltas.length).toBeGreaterThan(0)
      for (const delta of parsed.tokenDeltas) expect(delta.account).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    }
  })
})
