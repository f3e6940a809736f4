import { beforeAll, describe, expect, test } from 'bun:test'
import type { Trade } from '../world/pool-book.ts'
import { NATIVE_MINT } from '../world/swap.ts'
import { PUMP_INITIAL_VIRTUAL_SOL, PUMP_TOTAL_SUPPLY } from '../world/venues.ts'
import { pairOf } from './pairs.ts'
import {
  GENESIS_UNIX_S,
  marketWorld,
  NOW_UNIX_S,
  SOL_USD,
  tradedMarketWorld,
  type TradedMarketWorld,
} from './test-world.ts'

let market: TradedMarketWorld

beforeAll(async () => {
  market = await tradedMarketWorld()
})

/** USD value of SOL-quoted trades at $150 a SOL, to the cent. */
function solVolumeUsd(...trades: Trade[]): number {
  let usd = 0
  for (const trade of trades) usd += (Number(trade.quoteAmount) / 1e9) * SOL_USD
  return Math.round(usd * 100) / 100
}

/** Percent change between two SOL prices of TST, at $150 a SOL, to two decimals. */
function change(fromSpot: number, toSpot: number): number {
  return Math.round(((toSpot * SOL_USD) / (fromSpot * SOL_USD) - 1) * 100 * 100) / 100
}

describe('pairOf', () => {
  test('a SOL pair: identity, prices and the DexScreener shape', () => {
    const { world, tst, tstSol, trades } = market
    const pair = pairOf(world, tstSol, NOW_UNIX_S)
    const spotNow = world.pools.spotPrice(tstSol)
    expect(pair).toMatchObject({
      chainId: 'solana',
      dexId: 'raydium',
      url: `https://dexscreener.com/solana/${tstSol.address}`,
      pairAddress: tstSol.address,
      baseToken: { address: tst, name: 'Test Token', symbol: 'TST' },
      quoteToken: { address: NATIVE_MINT, name: 'Wrapped SOL', symbol: 'SOL' },
      pairCreatedAt: GENESIS_UNIX_S * 1000,
    })
    expect('labels' in pair).toBe(false)
    expect(spotNow).toBe(trades.at(-1)!.spotAfter)
    expect(Number(pair.priceNative) / spotNow).toBeCloseTo(1, 12)
    expect(Number(pair.priceUsd) / (spotNow * SOL_USD)).toBeCloseTo(1, 12)
    expect(pair.priceNative).not.toContain('e')
  })

  test('txns count the trades inside each window; one exactly an hour old is outside h1', () => {
    const pair = pairOf(market.world, market.tstSol, NOW_UNIX_S)
    expect(pair.txns).toEqual({
      m5: { buys: 1, sells: 0 }, // t6
      h1: { buys: 1, sells: 1 }, // t5, t6
      h6: { buys: 2, sells: 2 }, // t3..t6
      h24: { buys: 3, sells: 2 }, // t2..t6; t1 is 25h old
    })
  })

  test('volume is each trade’s quote amount in USD', () => {
    const [, t2, t3, t4, t5, t6] = market.trades.map(({ trade }) => trade) as [Trade, Trade, Trade, Trade, Trade, Trade]
    const pair = pairOf(market.world, market.tstSol, NOW_UNIX_S)
    expect(pair.volume.m5).toBe(75) // a 0.5 SOL buy at $150
    expect(pair.volume).toEqual({
      m5: 75,
      h1: solVolumeUsd(t5, t6),
      h6: solVolumeUsd(t3, t4, t5, t6),
      h24: solVolumeUsd(t2, t3, t4, t5, t6),
    })
    expect(pair.volume.h24).toBeGreaterThan(450 + 75 + 75) // the three buys, plus two sells
  })

  test('priceChange compares the price now with the exact price at each window start', () => {
    const [t1, t2, , t4, t5, t6] = market.trades.map(({ spotAfter }) => spotAfter) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ]
    const pair = pairOf(market.world, market.tstSol, NOW_UNIX_S)
    expect(pair.priceChange).toEqual({
      m5: change(t5, t6), // the window opens after the whale's dump
      h1: change(t4, t6), // t4, exactly an hour old, is the opening price
      h6: change(t2, t6),
      h24: change(t1, t6),
    })
    // A buy alone in m5; the whale's 20M TST dump outweighs the small buys over longer windows.
    expect(pair.priceChange.m5).toBeGreaterThan(0)
    expect(pair.priceChange.h1).toBeLessThan(0)
    expect(pair.priceChange.h6).toBeLessThan(0)
    expect(pair.priceChange.h24).toBeLessThan(0)
  })

  test('liquidity is the real reserves, valued base plus quote in USD; fdv and market cap are supply × price', () => {
    const { world, tstSol } = market
    const reserves = world.pools.realReserves(tstSol)
    const pair = pairOf(world, tstSol, NOW_UNIX_S)
    expect(pair.liquidity.base).toBe(Number(reserves.base) / 1e6)
    expect(pair.liquidity.quote).toBe(Number(reserves.quote) / 1e9)
    // At a constant-product pool's own price both sides are worth the same.
    expect(pair.liquidity.usd!).toBeCloseTo(2 * (Number(reserves.quote) / 1e9) * SOL_USD, 1)
    expect(pair.fdv!).toBeCloseTo(1_000_000_000 * Number(pair.priceUsd), 1)
    expect(pair.marketCap).toBe(pair.fdv)
  })

  test('a USDC pair on a CLMM venue carries its label and a USD price equal to its native price', () => {
    const { world, tstUsdc } = market
    const pair = pairOf(world, tstUsdc, NOW_UNIX_S)
    expect(pair).toMatchObject({ dexId: 'orca', labels: ['CLMM'], priceNative: '0.0000375', priceUsd: '0.0000375' })
    expect(pair.liquidity).toEqual({ usd: 750, base: 10_000_000, quote: 375 })
    expect(pair.txns.h24).toEqual({ buys: 0, sells: 0 })
    expect(pair.volume).toEqual({ m5: 0, h1: 0, h6: 0, h24: 0 })
    expect(pair.priceChange).toEqual({ m5: 0, h1: 0, h6: 0, h24: 0 })
  })

  test('as of an earlier time: later trades are not seen and the price is the one then', () => {
    const { world, tstSol, trades } = market
    const t4 = trades[3]!
    const pair = pairOf(world, tstSol, t4.trade.unixS)
    expect(pair.txns.h1).toEqual({ buys: 1, sells: 0 })
    expect(pair.txns.h24).toEqual({ buys: 2, sells: 1 }) // t2, t3, t4; t1, exactly 24h earlier, is outside
    expect(Number(pair.priceNative) / t4.spotAfter).toBeCloseTo(1, 12)
  })
})

describe('pairOf, USD and missing prices', () => {
  test('USD figures follow SOL’s own price: volume at the trade’s time, price change across a SOL move', async () => {
    const { world, issuer, tstSol, solUsdc } = await marketWorld()
    const buyer = await world.wallet('buyer', 2)
    const listedSpot = world.pools.spotPrice(tstSol)
    world.chain.advanceTo(GENESIS_UNIX_S + 10_000)
    await world.swap(buyer, tstSol, NATIVE_MINT, 1_000_000_000n)
    const tstSpot = world.pools.spotPrice(tstSol)
    // 15,000 USDC buys SOL: SOL's price rises, the token's SOL price does not move.
    world.chain.advanceTo(GENESIS_UNIX_S + 20_000)
    await world.swap(issuer, solUsdc, world.usdcMint, 15_000_000_000n)
    const solNow = world.pools.spotPrice(solUsdc)
    expect(solNow).toBeGreaterThan(SOL_USD)
    const now = GENESIS_UNIX_S + 20_600
    world.chain.advanceTo(now)

    const pair = pairOf(world, tstSol, now)
    expect(pair.volume.h6).toBe(150) // 1 SOL when SOL was $150, not at today's price
    expect(pair.volume.h1).toBe(0)
    expect(pair.txns.h1).toEqual({ buys: 0, sells: 0 })
    expect(pair.priceChange.m5).toBe(0) // SOL moved 10 minutes ago
    expect(pair.priceChange.h1).toBe(Math.round(((tstSpot * solNow) / (tstSpot * SOL_USD) - 1) * 100 * 100) / 100)
    expect(pair.priceChange.h1).toBeGreaterThan(0)
    expect(Number(pair.priceUsd) / (tstSpot * solNow)).toBeCloseTo(1, 12)
    // The 6-hour window opens before the pools existed: the change runs from the listing price in USD.
    expect(pair.priceChange.h6).toBe(Math.round(((tstSpot * solNow) / (listedSpot * SOL_USD) - 1) * 100 * 100) / 100)
  })

  test('a quote token with no USD route: null USD figures, native price change, no USD volume for windows with trades', async () => {
    const { world, dev } = await marketWorld()
    const abc = await world.createMint(
      { key: 'abc', name: 'Alphabet', symbol: 'ABC', decimals: 9, mintAuthority: dev },
      dev,
    )
    const xyz = await world.createMint(
      { key: 'xyz', name: 'Xyzzy', symbol: 'XYZ', decimals: 6, mintAuthority: dev },
      dev,
    )
    await world.mintTo(abc, dev.address, 1_000_000_000_000n, dev)
    await world.mintTo(xyz, dev.address, 1_000_000_000_000n, dev)
    const pool = await world.createPool({
      key: 'xyz-abc',
      kind: 'raydium-amm-v4',
      baseMint: xyz,
      quoteMint: abc,
      baseAmount: 500_000_000_000n,
      quoteAmount: 500_000_000_000n,
      provider: dev,
      feeBps: 25,
      lp: 'burn',
    })
    const before = world.pools.spotPrice(pool)
    world.chain.advanceTo(GENESIS_UNIX_S + 3 * 3_600)
    await world.swap(dev, pool, abc, 10_000_000_000n)
    const pair = pairOf(world, pool, GENESIS_UNIX_S + 3 * 3_600 + 600)
    expect(pair.priceUsd).toBeNull()
    expect(pair.liquidity.usd).toBeNull()
    expect(pair.liquidity.quote).toBe(510)
    expect(pair.fdv).toBeNull()
    expect(pair.marketCap).toBeNull()
    expect(pair.txns.h1).toEqual({ buys: 1, sells: 0 })
    expect(pair.volume).toEqual({ m5: 0 }) // the trade is 10 minutes old: m5 has none, so its volume is known
    expect(pair.priceChange.h1).toBe(Math.round((world.pools.spotPrice(pool) / before - 1) * 100 * 100) / 100)
    expect(pair.priceChange.h1).toBeGreaterThan(0)
  })

  test('a bonding curve prices on its virtual reserves but reports its real ones as liquidity', async () => {
    const { world, dev } = await marketWorld()
    const mint = await world.createMint(
      { key: 'pumpy', name: 'Pumpy', symbol: 'PMP', decimals: 6, mintAuthority: dev },
      dev,
    )
    await world.mintTo(mint, dev.address, PUMP_TOTAL_SUPPLY, dev)
    const curve = await world.createPool({
      key: 'curve',
      kind: 'pump-curve',
      baseMint: mint,
      quoteMint: NATIVE_MINT,
      baseAmount: PUMP_TOTAL_SUPPLY,
      quoteAmount: 0n,
      provider: dev,
      feeBps: 100,
      virtualBase: 73_000_000_000_000n,
      virtualQuote: PUMP_INITIAL_VIRTUAL_SOL,
      creator: dev.address,
    })
    world.chain.advanceTo(GENESIS_UNIX_S + 60)
    const buy = await world.swap(await world.wallet('ape', 3), curve, NATIVE_MINT, 2_000_000_000n)
    const pair = pairOf(world, curve, GENESIS_UNIX_S + 60)
    expect(pair.dexId).toBe('pumpfun')
    expect(pair.liquidity.quote).toBe(2) // the real SOL in the curve, not its 30 virtual SOL
    expect(pair.liquidity.base).toBe(Number(PUMP_TOTAL_SUPPLY - buy.baseAmount) / 1e6)
    expect(Number(pair.priceNative) / world.pools.spotPrice(curve)).toBeCloseTo(1, 12)
    expect(pair.priceChange.m5).toBeGreaterThan(0)
    expect(pair.volume.m5).toBe(300)
  })
})
