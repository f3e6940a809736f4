import { describe, expect, test } from 'bun:test'
import { PriceHistory } from '../sandbox/market/prices.ts'
import { trade } from '../sandbox/scenarios/kit.ts'
import type { Pool } from '../sandbox/world/pool-book.ts'
import { NATIVE_MINT } from '../sandbox/world/swap.ts'
import { SIGNAL_SUBTYPES } from '../plugins/market-intel/subtypes.ts'
import largeTransactions from '../signals/large-transactions/index.ts'
import { scannerService } from './support/scanner-service.ts'

const { sandbox, app, freshApp, mintOf, post, everyUpstreamDown } = await scannerService()

const PATH = '/market/intel'
const MARKET_SIGNALS = ['price-action', 'volatility', 'buy-sell-pressure', 'large-transactions', 'token-health']
const nowS = () => Math.floor(Date.now() / 1000)

const intel = (mint: string, service = app) => post(PATH, mint, service)

const codes = (body: { factors: { code: string }[] }) => body.factors.map((entry) => entry.code)

/**
 * The token's main pool in the sandbox, as the trades fact picks it: the deepest (every scenario
 * pool's other side is SOL, so the deepest holds the most of it).
 */
function mainPool(mint: string): Pool | undefined {
  const otherSide = (pool: Pool) => {
    const reserves = sandbox.world.pools.realReserves(pool)
    return pool.baseMint === mint ? reserves.quote : reserves.base
  }
  return sandbox.world.pools
    .poolsOf(mint)
    .sort((a, b) => (otherSide(b) > otherSide(a) ? 1 : otherSide(b) < otherSide(a) ? -1 : 0))[0]
}

/** The pool's trades from the sandbox's own book, from the token's side: oldest first. */
function bookTrades(mint: string) {
  const pool = mainPool(mint)
  if (!pool) return []
  const tokenIsBase = pool.baseMint === mint
  return sandbox.world.pools.tradesOf(pool.address).map((entry) => ({
    at: entry.unixS,
    side: tokenIsBase ? entry.side : entry.side === 'buy' ? 'sell' : 'buy',
    token: tokenIsBase ? entry.baseAmount : entry.quoteAmount,
    quote: tokenIsBase ? entry.quoteAmount : entry.baseAmount,
  }))
}

/** The 15-minute change recomputed from the sandbox's book: newest trade against the last at or before now − 15 min. */
function expected15m(mint: string, now: number): number | null {
  const trades = bookTrades(mint)
  const price = (entry: (typeof trades)[number]) => Number(entry.quote) / Number(entry.token)
  const latest = trades.at(-1)
  const anchor = trades.filter((entry) => entry.at <= now - 15 * 60).at(-1)
  if (!latest || !anchor) return null
  return Math.round((price(latest) / price(anchor) - 1) * 100 * 100) / 100 + 0
}

/** Trades of the last hour worth the large-trade threshold or more, recomputed from the book at SOL's price now. */
function expectedLargeTxs(mint: string, now: number): number {
  const solUsd = new PriceHistory(sandbox.world).usdPriceAt(NATIVE_MINT, now)!
  const threshold = largeTransactions.meta.defaults.largeUsd
  return bookTrades(mint).filter((entry) => entry.at > now - 3_600 && (Number(entry.quote) / 1e9) * solUsd >= threshold)
    .length
}

describe('POST /market/intel: the verdict on every scenario', () => {
  /** What each scenario was built to show, as market intel must report it. */
  const table: Record<string, { health: string[]; quality?: string; signal?: string[]; check?: (body: any) => void }> =
    {
      'blue-chip': {
        health: ['ACTIVE'],
        signal: ['BULLISH', 'NEUTRAL'],
        check: (body) => {
          expect(body.liquidity_usd).toBeGreaterThan(500_000)
          expect(body.volume_24h_usd).toBeGreaterThan(10_000)
          // A month of trades on its only pool, all read: the high is measured.
          expect(body.ath_price_usd).toBeGreaterThanOrEqual(body.current_price_usd)
          expect(body.pct_from_ath).toBeLessThanOrEqual(0)
          expect(body.volatility).toBe('LOW')
        },
      },
      'usdc-stablecoin': {
        health: ['ACTIVE'],
        quality: 'FULL',
        check: (body) => {
          // Only ever the quote of its pairs: the price is the inverse of SOL's; its changes are its own,
          // from the token list (the sandbox's dollar is flat), never the pairs' (SOL's).
          expect(body.current_price_usd).toBeCloseTo(1, 6)
          expect(body.missing_fields).toEqual([])
          expect(body).toMatchObject({ price_change_1h_pct: 0, price_change_24h_pct: 0, price_change_5m_pct: 0 })
        },
      },
      'mint-authority-live': { health: ['LOW_ACTIVITY', 'ACTIVE'] },
      'freeze-authority-live': { health: ['LOW_ACTIVITY', 'ACTIVE'] },
      'whale-concentrated': {
        health: ['LOW_ACTIVITY'],
        check: (body) => expect(body.volume_1h_usd).toBeGreaterThan(0),
      },
      'pump-bonding': {
        health: ['LOW_ACTIVITY', 'ACTIVE'],
        signal: ['BULLISH'],
        check: (body) => {
          expect(body.price_change_24h_pct).toBeGreaterThan(100)
          expect(body).toMatchObject({ signal_subtype: 'MOMENTUM_BREAKOUT', volatility: 'HIGH', buy_pressure: 'HIGH' })
          // The curve is the token's only market: its whole life is read.
          expect(body.ath_price_usd).not.toBeNull()
        },
      },
      'pump-graduated': {
        health: ['LOW_ACTIVITY', 'ACTIVE'],
        quality: 'PARTIAL',
        check: (body) => {
          // It traded on the bonding curve before its PumpSwap pool opened: the high may be there.
          expect(body).toMatchObject({
            ath_price_usd: null,
            pct_from_ath: null,
            missing_fields: ['pct_from_ath', 'ath_price_usd'],
          })
        },
      },
      'bundled-launch': {
        health: ['DECLINING'],
        signal: ['BEARISH'],
        check: (body) => {
          expect(body.price_change_24h_pct).toBeLessThan(-30)
          expect(body.pct_from_ath).toBeLessThan(-50)
          expect(body.signal_subtype).toBe('CAPITULATION')
          expect(codes(body)).toContain('PRICE_CRASH')
        },
      },
      'sniped-launch': {
        health: ['ACTIVE', 'LOW_ACTIVITY'],
        check: (body) => {
          // The snipers sold into the retail buying: the price is well off the early high.
          expect(body.pct_from_ath).toBeLessThan(-20)
          expect(body.volatility).toBe('HIGH')
        },
      },
      'wash-traded': {
        health: ['LOW_ACTIVITY'],
        signal: ['NEUTRAL'],
        check: (body) => {
          // Heavy volume, a balanced book, and almost no traders behind it.
          expect(body.volume_24h_usd).toBeGreaterThan(50_000)
          expect(body.buy_sell_ratio).toBeCloseTo(1, 1)
          const few = body.factors.find((entry: any) => entry.code === 'FEW_TRADERS')
          expect(few.evidence.wallets_24h).toBeLessThanOrEqual(4)
          expect(few.evidence.trades_24h).toBeGreaterThanOrEqual(80)
          expect(body.signal_subtype).toBe('CONCENTRATED_FLOW')
        },
      },
      'serial-rugger': {
        health: ['LOW_ACTIVITY', 'ACTIVE'],
        signal: ['BULLISH'],
        check: (body) => {
          // Market signals only: the developer's rugs are the deep dive's to report.
          expect(body.price_change_24h_pct).toBeGreaterThan(100)
          expect(body.signal_subtype).toBe('MOMENTUM_BREAKOUT')
        },
      },
      'clmm-pool': {
        health: ['ACTIVE', 'LOW_ACTIVITY'],
        check: (body) => expect(body.liquidity_usd).toBeGreaterThan(100_000),
      },
      'dlmm-pool': {
        health: ['ACTIVE', 'LOW_ACTIVITY'],
        check: (body) => expect(body.liquidity_usd).toBeGreaterThan(100_000),
      },
      'locked-lp': { health: ['LOW_ACTIVITY', 'ACTIVE'] },
      'hostile-token-2022': {
        health: ['ILLIQUID'],
        quality: 'LIMITED',
        signal: ['NEUTRAL'],
        check: (body) => {
          // No pool at all: the market data is not there, and nothing is invented.
          expect(body).toMatchObject({
            data_confidence: 'LOW',
            missing_fields: ['market'],
            signal_subtype: 'INSUFFICIENT_DATA',
            current_price_usd: 0,
            liquidity_usd: 0,
          })
          expect(body).toMatchObject({ price_change_15m_pct: null, ath_price_usd: null, pct_from_ath: null })
          expect(codes(body)).toContain('NO_MARKET')
        },
      },
      'dead-token': {
        health: ['DEAD', 'ILLIQUID'],
        signal: ['NEUTRAL'],
        check: (body) => {
          expect(body).toMatchObject({
            volume_24h_usd: 0,
            volume_1h_usd: 0,
            buy_sell_ratio: 0,
            buy_pressure: 'LOW',
            sell_pressure: 'LOW',
            signal_subtype: 'LOW_LIQUIDITY_NOISE',
          })
          expect(body.liquidity_usd).toBeLessThan(1_000)
          expect(codes(body)).toContain('TOKEN_DEAD')
        },
      },
      // A copy of USDC traded by buyers who took it for USDC: the market reads as a market (impersonation
      // is structural, the quick scan's and the deep dive's: it does not bleed in here).
      'fake-stablecoin': {
        health: ['ACTIVE', 'LOW_ACTIVITY'],
        check: (body) => expect(codes(body)).not.toContain('IMPERSONATES_ASSET'),
      },
      // Traded over the last two days through its PumpSwap pool, nothing pulled yet.
      'rug-ready': {
        health: ['ACTIVE', 'LOW_ACTIVITY'],
        check: (body) => expect(body.liquidity_usd).toBeGreaterThan(10_000),
      },
    }

  test('the table covers every scenario', () => {
    expect(Object.keys(table).sort()).toEqual(sandbox.file.scenarios.map((scenario) => scenario.name).sort())
  })

  for (const [name, expected] of Object.entries(table))
    test(`${name}: health ${expected.health.join(' or ')}, valid against /openapi.json, 15 m change and large trades as the sandbox's trades say`, async () => {
      const mint = mintOf(name)
      const now = nowS()
      const { status, body, errors } = await intel(mint)
      expect(status).toBe(200)
      expect(errors).toEqual([])
      expect(body).toMatchObject({ schema_version: '2.0', data_quality: expected.quality ?? 'FULL' })
      if (!expected.quality) expect(body.missing_fields).toEqual([])
      expect(expected.health).toContain(body.token_health)
      if (expected.signal) expect(expected.signal).toContain(body.signal)
      expect(SIGNAL_SUBTYPES[body.signal_subtype as keyof typeof SIGNAL_SUBTYPES].signal).toBe(body.signal)
      // Spec §1 rule 5: market signals only, no structural finding bleeds in.
      for (const entry of body.factors) expect(MARKET_SIGNALS).toContain(entry.signal)
      if (name !== 'hostile-token-2022') {
        expect(body.price_change_15m_pct).toBe(expected15m(mint, now))
        expect(body.large_txs_last_hour).toBe(expectedLargeTxs(mint, now))
      }
      expected.check?.(body)
      expect(body.market_summary).toContain(`Signal ${body.signal} (${body.signal_subtype})`)
    })
})

describe('POST /market/intel: fresh trades', () => {
  test('large trades of the last hour and the 15-minute change follow the trades just made', async () => {
    const mint = mintOf('locked-lp')
    const pool = mainPool(mint)!
    const whale = await sandbox.world.wallet('market-intel-test:whale', 40)
    const minnow = await sandbox.world.wallet('market-intel-test:minnow', 5)
    // Two large trades (8 SOL ≈ $1,200, then the tokens back) and one small; SOL is about $150.
    await trade(sandbox.world, whale, pool, 'buy', 8)
    await trade(sandbox.world, minnow, pool, 'buy', 0.5)
    await trade(sandbox.world, whale, pool, 'sell', 7)
    const now = nowS()
    const { status, body, errors } = await intel(mint, freshApp())
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(expectedLargeTxs(mint, now)).toBe(2)
    expect(body.large_txs_last_hour).toBe(2)
    const expected = expected15m(mint, now)
    expect(expected).not.toBe(0)
    expect(body.price_change_15m_pct).toBe(expected)
    const large = body.factors.find(
      (entry: any) => entry.signal === 'large-transactions' && entry.code.startsWith('LARGE_'),
    )
    expect(large.evidence).toMatchObject({ large_buys: 1, large_sells: 1, trades_last_hour: 3 })
  })
})

describe('POST /market/intel under faults', () => {
  test('slow trade history: answered within 10 s, PARTIAL, the missing facts listed, nothing invented', async () => {
    sandbox.faults.set('rpc', 'getSignaturesForAddress', { kind: 'slow', delayMs: 12_000 })
    const started = performance.now()
    const { status, body, errors } = await intel(mintOf('blue-chip'), freshApp())
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body).toMatchObject({
      data_quality: 'PARTIAL',
      data_confidence: 'MEDIUM',
      price_change_15m_pct: null,
      ath_price_usd: null,
      pct_from_ath: null,
      large_txs_last_hour: 0,
    })
    expect(body.missing_fields).toContain('trades')
    // The market still answers: price, volume and liquidity are real.
    expect(body.current_price_usd).toBeGreaterThan(0)
    expect(body.liquidity_usd).toBeGreaterThan(500_000)
  }, 20_000)

  test('slow market data: LIMITED, no signal read from it', async () => {
    sandbox.faults.set('dexscreener', '/', { kind: 'slow', delayMs: 12_000 })
    const started = performance.now()
    const { status, body, errors } = await intel(mintOf('pump-bonding'), freshApp())
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body).toMatchObject({
      data_quality: 'LIMITED',
      data_confidence: 'LOW',
      signal: 'NEUTRAL',
      signal_subtype: 'INSUFFICIENT_DATA',
      current_price_usd: 0,
    })
    expect(body.missing_fields).toContain('market')
  }, 20_000)

  test('every upstream down: still 200, LIMITED, zeros only with their facts listed', async () => {
    everyUpstreamDown([
      'getAccountInfo',
      'getMultipleAccounts',
      'getTokenLargestAccounts',
      'getSignaturesForAddress',
      'getTransaction',
    ])
    const { status, body, errors } = await intel(mintOf('wash-traded'), freshApp())
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body).toMatchObject({
      data_quality: 'LIMITED',
      data_confidence: 'LOW',
      missing_fields: ['market', 'trades', 'pools'],
      current_price_usd: 0,
      volume_24h_usd: 0,
      liquidity_usd: 0,
      buy_sell_ratio: 0,
      large_txs_last_hour: 0,
      price_change_15m_pct: null,
      ath_price_usd: null,
      token_health: 'ILLIQUID',
      signal: 'NEUTRAL',
      signal_subtype: 'INSUFFICIENT_DATA',
    })
    expect(body.confidence).toEqual({ model: 0, data_completeness: 0, signal_consensus: 0 })
  }, 20_000)

  test('an invalid address is 400 INVALID_ADDRESS, before any work', async () => {
    const before = sandbox.faults.countOf('dexscreener')
    for (const address of ['BONK', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913']) {
      const { status, body } = await intel(address)
      expect(status).toBe(400)
      expect(body).toMatchObject({ error: true, code: 'INVALID_ADDRESS' })
    }
    expect(sandbox.faults.countOf('dexscreener')).toBe(before)
  })

  test('scanner rate limit: RATE_LIMITED (429) past the burst', async () => {
    const limited = freshApp({ RATE_LIMIT_SCANNER_BURST: '1' })
    expect((await intel(mintOf('dead-token'), limited)).status).toBe(200)
    const { status, body } = await intel(mintOf('dead-token'), limited)
    expect(status).toBe(429)
    expect(body).toMatchObject({ error: true, code: 'RATE_LIMITED' })
  })
})

describe('POST /market/intel in discovery', () => {
  test('priced at 0.20 USD (200000 atomic USDC) in /openapi.json', async () => {
    const document = (await (await app.handle(new Request('http://localhost/openapi.json'))).json()) as any
    expect(document.paths[PATH].post['x-payment-info']).toMatchObject({
      price_usd: '0.20',
      amount: '200000',
      currency: 'USDC',
    })
    const result = document.paths[PATH].post.responses['200'].content['application/json'].schema
    for (const name of [
      'schema_version',
      'current_price_usd',
      'volume_24h_usd',
      'liquidity_usd',
      'buy_sell_ratio',
      'signal',
      'token_health',
      'data_confidence',
      'data_quality',
      'market_summary',
    ])
      expect(result.required).toContain(name)
  })

  test('listed as sol_market_intel in the agent card and the x402 manifest', async () => {
    const card = (await (await app.handle(new Request('http://localhost/.well-known/agent.json'))).json()) as any
    expect(card.skills.map((skill: { id: string }) => skill.id)).toContain('sol_market_intel')
    const manifest = (await (await app.handle(new Request('http://localhost/.well-known/x402'))).json()) as any
    expect(manifest.resources).toContain('POST /market/intel')
  })
})
