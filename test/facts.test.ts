import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import type { FaultKind, SandboxServer } from '../sandbox/faults.ts'
import { startSandbox, type RunningSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { createTokenContext, type FactName, type TokenContext } from '../src/facts/index.ts'
import { DexScreenerSource } from '../src/sources/dexscreener.ts'
import { JupiterSource } from '../src/sources/jupiter.ts'
import { SolanaSource } from '../src/sources/solana-rpc.ts'
import { CallMeter, UpstreamError } from '../src/sources/upstream.ts'
import { getTransactionDecoder } from '@solana/kit'

const QUICK_FACTS: FactName[] = ['mint', 'metadata', 'token_list', 'holders', 'pools', 'launchpad', 'market']

let sandbox: RunningSandbox

beforeAll(async () => {
  sandbox = await startSandbox(ephemeralSandboxOptions())
})

afterAll(async () => {
  await sandbox?.stop()
})

afterEach(() => sandbox.faults.clear())

/** Fresh sources (empty caches), with short timeouts so fault tests stay fast. */
function sources(urls: Partial<{ rpc: string; dexscreener: string; jupiter: string }> = {}, timeoutMs = 400) {
  const resilience = { timeoutMs, retries: 1, backoffMs: 10 }
  return {
    solana: new SolanaSource({ url: urls.rpc ?? sandbox.file.urls.rpc, ...resilience }),
    dexscreener: new DexScreenerSource({ baseUrl: urls.dexscreener ?? sandbox.file.urls.dexscreener, ...resilience }),
    jupiter: new JupiterSource({ baseUrl: urls.jupiter ?? sandbox.file.urls.jupiter, ...resilience }),
  }
}

const mintOf = (name: string) => sandbox.file.scenarios.find((scenario) => scenario.name === name)!.mint

async function gather(name: string, facts = QUICK_FACTS, deadlineMs = 3_000, using = sources()): Promise<TokenContext> {
  const ctx = createTokenContext(mintOf(name), using, Date.now() + deadlineMs)
  await ctx.gather(facts)
  ctx.close()
  return ctx
}

describe('facts of the scenario tokens', () => {
  test('blue-chip: revoked authorities, immutable metadata, burned LP, dispersed holders', async () => {
    const ctx = await gather('blue-chip', [...QUICK_FACTS, 'holder_count'])
    expect(ctx.missing()).toEqual([])
    expect(await ctx.fact('mint')).toMatchObject({
      program: 'spl-token',
      decimals: 6,
      mintAuthority: null,
      freezeAuthority: null,
    })
    expect(await ctx.fact('metadata')).toMatchObject({ source: 'metaplex', symbol: 'BLUE', isMutable: false })
    const { pools } = (await ctx.fact('pools'))!
    expect(pools).toHaveLength(1)
    expect(pools[0]).toMatchObject({
      venue: 'Raydium AMM v4',
      model: 'TRADITIONAL_AMM',
      lp: { burnedPct: 100, supply: 0n },
    })
    expect(pools[0]!.quoteReserve).toBeGreaterThan(2_000_000_000_000n)
    const holders = (await ctx.fact('holders'))!
    expect(holders.top10WalletPct).toBeLessThan(30)
    expect(holders.accounts.find((account) => account.address === pools[0]!.baseVault)?.kind).toBe('pool')
    expect(await ctx.fact('holder_count')).toBeGreaterThanOrEqual(80)
    expect(await ctx.fact('launchpad')).toEqual({ pumpFun: null })
    expect((await ctx.fact('market'))!.pairs[0]?.pairAddress).toBe(pools[0]!.address)
  })

  test('usdc-stablecoin: live authorities, listed as verified (no stablecoin tag, as the real list)', async () => {
    const ctx = await gather('usdc-stablecoin')
    expect((await ctx.fact('metadata'))!.logoUri).toBe('https://sandbox.solsentry.invalid/usdc.png')
    const mint = (await ctx.fact('mint'))!
    expect(mint.mintAuthority).not.toBeNull()
    expect(mint.freezeAuthority).not.toBeNull()
    expect(await ctx.fact('token_list')).toMatchObject({
      listed: true,
      verified: true,
      tags: ['community', 'strict', 'verified'],
    })
  })

  test('mint- and freeze-authority-live keep exactly that authority', async () => {
    expect(await (await gather('mint-authority-live', ['mint'])).fact('mint')).toMatchObject({
      freezeAuthority: null,
      mintAuthority: expect.any(String),
    })
    expect(await (await gather('freeze-authority-live', ['mint'])).fact('mint')).toMatchObject({
      mintAuthority: null,
      freezeAuthority: expect.any(String),
    })
  })

  test('whale-concentrated: the ten largest wallets hold over 94%', async () => {
    const holders = (await (await gather('whale-concentrated', ['holders'])).fact('holders'))!
    expect(holders.top10WalletPct).toBeGreaterThanOrEqual(94)
    expect(holders.accounts[0]).toMatchObject({ kind: 'wallet', pct: 70 })
  })

  test('pump-bonding: an incomplete curve, whose vault is liquidity, not a holder', async () => {
    const ctx = await gather('pump-bonding')
    expect((await ctx.fact('launchpad'))!.pumpFun).toMatchObject({
      complete: false,
      graduatedPool: null,
      creator: expect.any(String),
    })
    const holders = (await ctx.fact('holders'))!
    expect(holders.accounts[0]!.kind).toBe('pool')
    expect(holders.excludedPct).toBeGreaterThan(40)
  })

  test("pump-bonding, a create_v2 (Token-2022) coin: the curve's trades are read through its Token-2022 account", async () => {
    const ctx = await gather('pump-bonding', ['mint', 'launchpad', 'launch', 'trades'])
    expect((await ctx.fact('mint'))!.program).toBe('spl-token-2022')
    const launch = (await ctx.fact('launch'))!
    expect(launch.firstTrades.length).toBeGreaterThan(10)
    expect(launch.firstTrades[0]!.wallet).toBe(launch.creator)
    expect((await ctx.fact('trades'))!.swaps.length).toBeGreaterThan(10)
  })

  test('pump-graduated: complete curve, canonical PumpSwap pool with burned LP', async () => {
    const ctx = await gather('pump-graduated')
    const launchpad = (await ctx.fact('launchpad'))!.pumpFun!
    expect(launchpad.complete).toBe(true)
    const pumpSwap = (await ctx.fact('pools'))!.pools.find((pool) => pool.venue === 'PumpSwap')!
    expect(launchpad.graduatedPool).toBe(pumpSwap.address)
    expect(pumpSwap.lp?.burnedPct).toBe(100)
  })

  test('LP kept by the developer reads as 0% burned (bundled-launch, serial-rugger)', async () => {
    for (const name of ['bundled-launch', 'serial-rugger']) {
      const { pools } = (await (await gather(name, ['pools'])).fact('pools'))!
      expect(pools[0]!.lp?.burnedPct).toBe(0)
    }
  })

  test('clmm-pool and dlmm-pool: concentrated liquidity, no fungible LP', async () => {
    for (const [name, venue] of [
      ['clmm-pool', 'Orca Whirlpool'],
      ['dlmm-pool', 'Meteora DLMM'],
    ] as const) {
      const { pools } = (await (await gather(name, ['pools'])).fact('pools'))!
      expect(pools[0]).toMatchObject({ venue, model: 'CLMM_DLMM', lp: null })
    }
  })

  test('hostile-token-2022: every hostile extension and its Token-2022 metadata', async () => {
    const ctx = await gather('hostile-token-2022')
    const { extensions, program } = (await ctx.fact('mint'))!
    expect(program).toBe('spl-token-2022')
    expect(extensions.permanentDelegate).toBeString()
    expect(extensions.transferFee).toMatchObject({ basisPoints: 1000, configAuthority: expect.any(String) })
    expect(extensions.transferHook?.programId).toBe('HooKAbsentProgram11111111111111111111111111')
    expect(extensions.defaultAccountState).toBe('frozen')
    expect(extensions.mintCloseAuthority).toBeString()
    expect(await ctx.fact('metadata')).toMatchObject({ source: 'token-2022', symbol: 'TRAP', isMutable: true })
    expect((await ctx.fact('pools'))!.pools).toEqual([])
  })

  test('dead-token: dust in the pool', async () => {
    const { pools } = (await (await gather('dead-token', ['pools'])).fact('pools'))!
    expect(pools[0]!.quoteReserve).toBeLessThan(500_000_000n)
  })
})

const DEEP_FACTS: FactName[] = [...QUICK_FACTS, 'launch', 'dev_history', 'funding', 'trades']

describe('deep-dive facts', () => {
  test('launch: the creator is the mint creation fee payer; the bundled buys are in the pool-opening slot', async () => {
    const ctx = await gather('bundled-launch', DEEP_FACTS, 5_000)
    expect(ctx.missing()).toEqual([])
    const launch = (await ctx.fact('launch'))!
    const bundle = launch.firstTrades.filter((trade) => trade.slot === launch.poolOpenedSlot && trade.side === 'buy')
    expect(new Set(bundle.map((trade) => trade.wallet)).size).toBe(6)
    // Those wallets were funded by the creator.
    const funding = (await ctx.fact('funding'))!
    const fundedByCreator = funding.wallets
      .filter((entry) => entry.funder === launch.creator)
      .map((entry) => entry.wallet)
    for (const trade of bundle) expect(fundedByCreator).toContain(trade.wallet)
  })

  test('dev_history: the serial rugger created three earlier tokens and pulled each one', async () => {
    const ctx = await gather('serial-rugger', DEEP_FACTS, 5_000)
    const history = (await ctx.fact('dev_history'))!
    expect(history.createdTokens).toHaveLength(3)
    expect(history.previousRugs).toHaveLength(3)
    expect(history.complete).toBe(true)
    expect(history.solBalance).toBeGreaterThan(0n)
  })

  test('dev_history: a clean developer created nothing else and pulled nothing', async () => {
    const history = (await (await gather('blue-chip', DEEP_FACTS, 5_000)).fact('dev_history'))!
    expect(history).toMatchObject({ createdTokens: [], liquidityPulls: [], previousRugs: [] })
  })

  test('trades: the wash-traded pool shows 90 swaps, all by four wallets', async () => {
    const trades = (await (await gather('wash-traded', DEEP_FACTS, 5_000)).fact('trades'))!
    const byWallet = new Map<string, number>()
    for (const swap of trades.swaps) byWallet.set(swap.wallet, (byWallet.get(swap.wallet) ?? 0) + 1)
    expect(trades.swaps).toHaveLength(90)
    expect(byWallet.size).toBe(4)
    expect(trades.complete24h).toBe(true)
  })

  test('trades: every swap of the main pool, newest first, matching the sandbox pool book', async () => {
    const trades = (await (await gather('sniped-launch', DEEP_FACTS, 5_000)).fact('trades'))!
    const pool = sandbox.world.pools.get(trades.pool!)!
    const book = sandbox.world.pools.tradesOf(pool.address)
    expect(trades.swaps).toHaveLength(book.length)
    expect(trades.swaps[0]!.signature).toBe(book.at(-1)!.signature)
    expect(trades.swaps[0]!.side).toBe(book.at(-1)!.side)
  })
})

describe('LP locks and earlier tokens', () => {
  test('known_assets: a copy gets the verified namesakes of its ticker; the real USDC is not searched for', async () => {
    const copy = (await (await gather('fake-stablecoin', ['known_assets'], 5_000)).fact('known_assets'))!
    expect(copy.verified).toEqual([
      expect.objectContaining({ mint: mintOf('usdc-stablecoin'), symbol: 'USDC', source: 'verified_list' }),
    ])
    const real = await gather('usdc-stablecoin', ['known_assets'], 5_000)
    expect((await real.fact('known_assets'))!.verified).toEqual([])
    // The list was read for the token itself, never searched by its ticker.
    expect(real.meter.toJSON()).toMatchObject({ jupiter: 1 })
  })

  test('lp_locks: the locked-lp pool has all its LP in a lock program; bundled-launch in one wallet', async () => {
    const locked = (await (await gather('locked-lp', ['pools', 'lp_locks'], 5_000)).fact('lp_locks'))!
    expect(locked.pools[0]).toMatchObject({ burnedPct: 0, lockedPct: 100, permanentLockedPct: 0, largestHolderPct: 0 })
    // Dated from the escrow's own account: a Jupiter Lock cliff 180 days after the sandbox started.
    expect(locked.pools[0]!.unlocks).toEqual([{ inDays: expect.any(Number), pct: 100, program: 'jupiter_lock' }])
    expect(locked.pools[0]!.unlocks[0]!.inDays).toBeGreaterThan(179)
    expect(locked.pools[0]!.holders[0]!.lock).toMatchObject({ program: 'jupiter_lock', permanent: false })
    const held = (await (await gather('bundled-launch', ['pools', 'lp_locks'], 5_000)).fact('lp_locks'))!
    expect(held.pools[0]).toMatchObject({ burnedPct: 0, lockedPct: 0, largestHolderPct: 100 })
    const burned = (await (await gather('blue-chip', ['pools', 'lp_locks'], 5_000)).fact('lp_locks'))!
    expect(burned.pools).toEqual([]) // all burned: nothing left to hold
  })

  test("dev_history: the rugger's earlier tokens were pulled and are nearly worthless now", async () => {
    const history = (await (await gather('serial-rugger', ['dev_history'], 5_000)).fact('dev_history'))!
    expect(history.earlierTokens).toHaveLength(3)
    for (const token of history.earlierTokens) {
      expect(token).toMatchObject({ pulled: true, listed: true })
      expect(token.liquidityUsd!).toBeLessThan(1_000)
    }
  })
})

describe('Jupiter source: quotes and swaps', () => {
  const SOL = 'So11111111111111111111111111111111111111112'

  test('quotes through the token pool and returns a transaction for the user to sign', async () => {
    const { jupiter } = sources()
    const meter = new CallMeter()
    const quote = await jupiter.quote(
      { inputMint: SOL, outputMint: mintOf('blue-chip'), amount: 1_000_000_000n, slippageBps: 100 },
      meter,
    )
    expect(quote.routePlan[0]?.swapInfo.ammKey).toBe(sandbox.world.pools.poolsOf(mintOf('blue-chip'))[0]!.address)
    expect(BigInt(quote.otherAmountThreshold)).toBeLessThan(BigInt(quote.outAmount))
    const swap = await jupiter.swap({ quote, userPublicKey: sandbox.file.buyer.address }, meter)
    const transaction = getTransactionDecoder().decode(Buffer.from(swap.swapTransaction, 'base64'))
    expect(transaction.signatures[sandbox.file.buyer.address as never]).toBeNull()
    expect(meter.toJSON()).toEqual({ jupiter: 2 })
  })

  test("a pair without a pool is refused with Jupiter's no-route code in the error body", async () => {
    const { jupiter } = sources()
    const error = await jupiter
      .quote(
        { inputMint: mintOf('hostile-token-2022'), outputMint: SOL, amount: 1_000n, slippageBps: 50 },
        new CallMeter(),
      )
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(UpstreamError)
    expect((error as UpstreamError).reason).toBe('rejected')
    expect((error as UpstreamError).body).toMatchObject({ errorCode: expect.any(String) })
  })
})

describe('cost', () => {
  test('the deep-dive facts take at most 6 dependent round trips', async () => {
    // With some latency on every answer, requests of one round trip overlap as they would on mainnet.
    // It counts round trips, not time: timeouts as long as the service's own, so a loaded machine (the suite
    // runs three files at once on two cores) cannot turn a slow answer into a missing fact.
    sandbox.faults.latencyMs = 50
    const ctx = await gather('blue-chip', DEEP_FACTS, 10_000, sources({}, 3_000)).finally(
      () => (sandbox.faults.latencyMs = 0),
    )
    expect(ctx.missing()).toEqual([])
    expect(ctx.meter.depth()).toBeLessThanOrEqual(6)
  })

  test('closing a context logs its upstream calls, round trips and missing facts', async () => {
    const ctx = createTokenContext(mintOf('dead-token'), sources(), Date.now() + 3_000)
    await ctx.gather(['mint', 'market'])
    const lines: { object: any; message: string }[] = []
    ctx.close({ info: (object, message) => lines.push({ object, message }) })
    expect(lines).toHaveLength(1)
    expect(lines[0]!.message).toBe('facts gathered')
    expect(lines[0]!.object).toMatchObject({
      mint: mintOf('dead-token'),
      upstream_calls: { solana_rpc: 1, dexscreener: 1 },
      round_trips: 1,
      missing: [],
    })
  })

  test('the quick-scan facts take at most 10 upstream calls', async () => {
    const ctx = await gather('blue-chip')
    expect(ctx.meter.total()).toBeLessThanOrEqual(10)
    expect(ctx.meter.toJSON()).toMatchObject({ dexscreener: 1, jupiter: 1 })
  })

  test('100 concurrent scans of one mint make one upstream call per fact, counted at the sandbox', async () => {
    const shared = sources()
    const before = (key: string) => sandbox.faults.countOf(key)
    const counts = {
      largest: before('rpc:getTokenLargestAccounts'),
      mintInfo: before('rpc:getAccountInfo'),
      pairs: before('dexscreener'),
      list: before('jupiter'),
    }
    await Promise.all(Array.from({ length: 100 }, () => gather('wash-traded', QUICK_FACTS, 5_000, shared)))
    expect(sandbox.faults.countOf('rpc:getTokenLargestAccounts') - counts.largest).toBe(1)
    expect(sandbox.faults.countOf('rpc:getAccountInfo') - counts.mintInfo).toBe(1)
    expect(sandbox.faults.countOf('dexscreener') - counts.pairs).toBe(1)
    expect(sandbox.faults.countOf('jupiter') - counts.list).toBe(1)
  })
})

describe('degradation under upstream faults (over real HTTP)', () => {
  const DEADLINE_MS = 1_500
  const cases: { server: SandboxServer; route: string; lost: FactName[]; kept: FactName[] }[] = [
    { server: 'rpc', route: 'getAccountInfo', lost: ['mint'], kept: ['market', 'token_list'] },
    { server: 'dexscreener', route: '/token-pairs', lost: ['market'], kept: ['mint', 'token_list', 'launchpad'] },
    { server: 'jupiter', route: '/tokens', lost: ['token_list'], kept: ['mint', 'market', 'pools'] },
  ]
  const kinds: FaultKind[] = ['down', 'slow', 'rate_limited', 'server_error', 'malformed_json', 'wrong_shape']
  for (const { server, route, lost, kept } of cases)
    for (const kind of kinds)
      test(`${server} ${kind}: ${lost.join(', ')} missing, the rest gathered within the deadline`, async () => {
        sandbox.faults.set(server, route, { kind, delayMs: 5_000 })
        const started = performance.now()
        const ctx = await gather('blue-chip', QUICK_FACTS, DEADLINE_MS)
        const elapsed = performance.now() - started
        expect(elapsed).toBeLessThan(DEADLINE_MS + 300)
        const missing = ctx.missing().map((entry) => entry.name)
        for (const name of lost) expect(missing).toContain(name)
        for (const name of kept) expect(missing).not.toContain(name)
      })

  test('no market data and no pool on chain: the first trades and the trades are missing, not "never traded"', async () => {
    sandbox.faults.set('dexscreener', '/token-pairs', { kind: 'down' })
    const ctx = await gather('wash-traded', DEEP_FACTS, 5_000)
    const missing = ctx.missing().map((entry) => entry.name)
    expect(missing).toEqual(expect.arrayContaining(['market', 'launch', 'trades']))
    expect(missing).not.toContain('mint')
  })

  test('an upstream that refuses connections: its facts missing, fast', async () => {
    const closed = Bun.serve({ port: 0, fetch: () => new Response('') })
    const url = `http://127.0.0.1:${closed.port}`
    await closed.stop(true)
    const started = performance.now()
    const ctx = await gather('blue-chip', QUICK_FACTS, DEADLINE_MS, sources({ dexscreener: url, jupiter: url }))
    expect(performance.now() - started).toBeLessThan(DEADLINE_MS)
    const missing = ctx.missing().map((entry) => entry.name)
    expect(missing).toEqual(expect.arrayContaining(['market', 'token_list']))
    expect(missing).not.toContain('mint')
    expect(ctx.missing().find((entry) => entry.name === 'market')?.reason).toBe('dexscreener: network')
  })
})

describe("an established token's creation, beyond the mint's history pages", () => {
  // An RPC in front of the sandbox's that cannot give the mint's own history (as for a mint with more
  // transactions than the pages walked): every other call goes through.
  function withoutMintHistory(mint: string) {
    return Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      async fetch(request) {
        type Call = { method: string; params?: unknown[] }
        const body = (await request.json()) as Call[] | Call
        const calls = Array.isArray(body) ? body : [body]
        if (calls.some((call) => call.method === 'getSignaturesForAddress' && call.params?.[0] === mint))
          return new Response('history unavailable', { status: 503 })
        return fetch(sandbox.file.urls.rpc, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      },
    })
  }

  test('is found from its metadata account, created in the same transaction: the same creation and creator', async () => {
    const direct = (await (await gather('sniped-launch', ['launch'], 5_000)).fact('launch'))!
    const proxy = withoutMintHistory(mintOf('sniped-launch'))
    try {
      const using = sources({ rpc: `http://127.0.0.1:${proxy.port}` })
      const viaMetadata = await (await gather('sniped-launch', ['launch', 'dev_history'], 8_000, using)).fact('launch')
      expect(viaMetadata).toBeDefined()
      expect(viaMetadata!.creationSignature).toBe(direct.creationSignature)
      expect(viaMetadata!.creator).toBe(direct.creator)
    } finally {
      proxy.stop(true)
    }
  })

  test('a coin without a metadata history (a pump.fun coin, metadata in the mint) stays unknown: launch is missing', async () => {
    const proxy = withoutMintHistory(mintOf('pump-bonding'))
    try {
      const ctx = await gather('pump-bonding', ['launch'], 8_000, sources({ rpc: `http://127.0.0.1:${proxy.port}` }))
      expect(await ctx.fact('launch')).toBeUndefined()
      expect(ctx.missing().map((entry) => entry.name)).toEqual(['launch'])
    } finally {
      proxy.stop(true)
    }
  })
})
