import type { KeyPairSigner } from '@solana/kit'
import type { Pool, Trade } from '../world/pool-book.ts'
import { NATIVE_MINT } from '../world/swap.ts'
import { VENUES } from '../world/venues.ts'
import { World } from '../world/world.ts'

/** The market tests' genesis: pools are created then, so every pair dates from it. */
export const GENESIS_UNIX_S = 1_700_000_000
const HOUR_S = 3_600
const MINUTE_S = 60
/** "Now" for the scenario: 30 hours after genesis, so one trade falls outside the 24-hour window. */
export const NOW_UNIX_S = GENESIS_UNIX_S + 30 * HOUR_S

/** SOL/USDC pool deposits: 1,000 SOL against 150,000 USDC, so SOL is worth exactly $150. */
export const SOL_USD = 150
const SOL_POOL_SOL = 1_000_000_000_000n
const SOL_POOL_USDC = 150_000_000_000n
/** TST: 1B tokens (6 decimals); its SOL pool holds 400M TST against 100 SOL. */
export const TST_SUPPLY = 1_000_000_000_000_000n
const TST_POOL_TST = 400_000_000_000_000n
const TST_POOL_SOL = 100_000_000_000n
/** A thin Orca TST/USDC pool at the same price (10M TST against 375 USDC). */
const ORCA_POOL_TST = 10_000_000_000_000n
const ORCA_POOL_USDC = 375_000_000n
const WHALE_TST = 50_000_000_000_000n
/** The whale's dump half an hour before now: 20M TST (5% of the SOL pool). */
export const WHALE_SELL_TST = 20_000_000_000_000n
const FEE_BPS = 25

export interface MarketWorld {
  world: World
  issuer: KeyPairSigner
  dev: KeyPairSigner
  usdc: string
  tst: string
  solUsdc: Pool
  tstSol: Pool
  tstUsdc: Pool
}

/** A world with USDC, a deep SOL/USDC pool, the token TST with a SOL pool and a thin Orca USDC pool. */
export async function marketWorld(): Promise<MarketWorld> {
  const world = await World.create({ genesisUnixS: GENESIS_UNIX_S, venues: VENUES })
  const issuer = await world.wallet('issuer', 1_100)
  world.usdcMint = await world.createMint(
    {
      key: 'usdc',
      name: 'USD Coin',
      symbol: 'USDC',
      decimals: 6,
      mintAuthority: issuer,
      tags: ['community', 'strict', 'verified'],
    },
    issuer,
  )
  await world.mintTo(world.usdcMint, issuer.address, 1_000_000_000_000n, issuer)
  const solUsdc = await world.createPool({
    key: 'sol-usdc',
    kind: 'raydium-amm-v4',
    baseMint: NATIVE_MINT,
    quoteMint: world.usdcMint,
    baseAmount: SOL_POOL_SOL,
    quoteAmount: SOL_POOL_USDC,
    provider: issuer,
    feeBps: FEE_BPS,
    lp: 'burn',
  })
  const dev = await world.wallet('dev', 200)
  const tst = await world.createMint(
    { key: 'tst', name: 'Test Token', symbol: 'TST', decimals: 6, mintAuthority: dev },
    dev,
  )
  await world.mintTo(tst, dev.address, TST_SUPPLY, dev)
  const tstSol = await world.createPool({
    key: 'tst-sol',
    kind: 'raydium-amm-v4',
    baseMint: tst,
    quoteMint: NATIVE_MINT,
    baseAmount: TST_POOL_TST,
    quoteAmount: TST_POOL_SOL,
    provider: dev,
    feeBps: FEE_BPS,
    lp: 'burn',
  })
  await world.transfer(world.usdcMint, issuer, dev.address, ORCA_POOL_USDC)
  const tstUsdc = await world.createPool({
    key: 'tst-usdc',
    kind: 'orca-whirlpool',
    baseMint: tst,
    quoteMint: world.usdcMint,
    baseAmount: ORCA_POOL_TST,
    quoteAmount: ORCA_POOL_USDC,
    provider: dev,
    feeBps: FEE_BPS,
  })
  return { world, issuer, dev, usdc: world.usdcMint, tst, solUsdc, tstSol, tstUsdc }
}

/** One scripted trade and what the pool book said right after it. */
export interface ScriptedTrade {
  trade: Trade
  /** TST/SOL spot price (SOL per TST) just after the trade. */
  spotAfter: number
  /** TST/SOL vault balances just after the trade. */
  reservesAfter: { base: bigint; quote: bigint }
}

export interface TradedMarketWorld extends MarketWorld {
  /** The six TST/SOL trades, oldest first (t1..t6 below). */
  trades: ScriptedTrade[]
  /** TST/SOL spot price before any trade. */
  initialSpot: number
}

/**
 * The market world with six TST/SOL trades at chosen times, the chain then moved to NOW_UNIX_S:
 * t1 25h ago (outside h24) a 1 SOL buy; t2 20h ago a 3 SOL buy; t3 3h ago the t2 buyer sells it all;
 * t4 exactly 1h ago (outside h1, inside h6) a 0.5 SOL buy; t5 30 min ago the whale sells 20M TST;
 * t6 2 min ago a 0.5 SOL buy.
 */
export async function tradedMarketWorld(): Promise<TradedMarketWorld> {
  const market = await marketWorld()
  const { world, dev, tst, tstSol } = market
  const initialSpot = world.pools.spotPrice(tstSol)
  const whale = await world.wallet('whale', 1)
  await world.transfer(tst, dev, whale.address, WHALE_TST)
  const trades: ScriptedTrade[] = []
  const at = async (unixS: number, make: () => Promise<Trade>) => {
    world.chain.advanceTo(unixS)
    const trade = await make()
    trades.push({ trade, spotAfter: world.pools.spotPrice(tstSol), reservesAfter: world.pools.realReserves(tstSol) })
    return trade
  }
  const a = await world.wallet('buyer-a', 2)
  const b = await world.wallet('buyer-b', 4)
  const c = await world.wallet('buyer-c', 1)
  const d = await world.wallet('buyer-d', 1)
  await at(NOW_UNIX_S - 25 * HOUR_S, () => world.swap(a, tstSol, NATIVE_MINT, 1_000_000_000n))
  const bought = await at(NOW_UNIX_S - 20 * HOUR_S, () => world.swap(b, tstSol, NATIVE_MINT, 3_000_000_000n))
  await at(NOW_UNIX_S - 3 * HOUR_S, () => world.swap(b, tstSol, tst, bought.baseAmount))
  await at(NOW_UNIX_S - HOUR_S, () => world.swap(c, tstSol, NATIVE_MINT, 500_000_000n))
  await at(NOW_UNIX_S - 30 * MINUTE_S, () => world.swap(whale, tstSol, tst, WHALE_SELL_TST))
  await at(NOW_UNIX_S - 2 * MINUTE_S, () => world.swap(d, tstSol, NATIVE_MINT, 500_000_000n))
  world.chain.advanceTo(NOW_UNIX_S)
  return { ...market, trades, initialSpot }
}
