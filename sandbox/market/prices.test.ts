import { getCreateAssociatedTokenIdempotentInstruction } from '@solana-program/token'
import { address, type Instruction, type KeyPairSigner } from '@solana/kit'
import { beforeAll, describe, expect, test } from 'bun:test'
import type { Pool } from '../world/pool-book.ts'
import { NATIVE_MINT, payoutTransfer } from '../world/swap.ts'
import type { World } from '../world/world.ts'
import { PriceHistory } from './prices.ts'
import {
  GENESIS_UNIX_S,
  marketWorld,
  NOW_UNIX_S,
  SOL_USD,
  tradedMarketWorld,
  type TradedMarketWorld,
} from './test-world.ts'

let market: TradedMarketWorld

/**
 * Moves `fraction` of both vaults to `to` with the operator's delegate authority, as a liquidity pull
 * does: the vaults move together, so the pool book records no trade.
 */
async function pullLiquidity(world: World, pool: Pool, to: KeyPairSigner, fraction: number): Promise<void> {
  const reserves = world.pools.realReserves(pool)
  const instructions: Instruction[] = []
  for (const [mint, vault, held] of [
    [pool.baseMint, pool.baseVault, reserves.base],
    [pool.quoteMint, pool.quoteVault, reserves.quote],
  ] as const) {
    const token = world.token(mint)
    const destination = await world.ata(mint, to.address)
    const amount = (held * BigInt(Math.round(fraction * 100))) / 100n
    instructions.push(
      getCreateAssociatedTokenIdempotentInstruction({
        payer: to,
        ata: destination,
        owner: to.address,
        mint: address(mint),
        tokenProgram: address(token.program),
      }),
      // The vault's signer set moves it, the operator signing as its member (as the venue would pay out).
      await payoutTransfer(
        { vault, mint, program: token.program, decimals: token.decimals },
        destination,
        amount,
        world.operator,
      ),
    )
  }
  await world.run(to, instructions)
}

beforeAll(async () => {
  market = await tradedMarketWorld()
})

describe('PriceHistory', () => {
  test('reserves at any past time are exactly what the vaults held then', () => {
    const history = new PriceHistory(market.world)
    const { tstSol, trades } = market
    expect(history.realReservesAt(tstSol, GENESIS_UNIX_S)).toEqual({
      base: 400_000_000_000_000n,
      quote: 100_000_000_000n,
    })
    for (const [index, { trade, reservesAfter, spotAfter }] of trades.entries()) {
      // At the trade's second the trade has happened; just before it, the previous state holds.
      expect(history.realReservesAt(tstSol, trade.unixS)).toEqual(reservesAfter)
      expect(history.nativePriceAt(tstSol, trade.unixS)).toBe(spotAfter)
      const before =
        index === 0 ? { base: 400_000_000_000_000n, quote: 100_000_000_000n } : trades[index - 1]!.reservesAfter
      expect(history.realReservesAt(tstSol, trade.unixS - 1)).toEqual(before)
    }
    expect(history.realReservesAt(tstSol, NOW_UNIX_S)).toEqual(market.world.pools.realReserves(tstSol))
  })

  test('a liquidity pull is no trade, yet the reserves and prices before it stay exact', async () => {
    const { world, dev, tstSol } = await marketWorld()
    const buyer = await world.wallet('buyer', 5)
    world.chain.advanceTo(GENESIS_UNIX_S + 100)
    await world.swap(buyer, tstSol, NATIVE_MINT, 3_000_000_000n)
    const beforePull = { reserves: world.pools.realReserves(tstSol), spot: world.pools.spotPrice(tstSol) }
    world.chain.advanceTo(GENESIS_UNIX_S + 200)
    await pullLiquidity(world, tstSol, dev, 0.9)
    const afterPull = world.pools.realReserves(tstSol)
    world.chain.advanceTo(GENESIS_UNIX_S + 300)
    await world.swap(buyer, tstSol, NATIVE_MINT, 100_000_000n)
    expect(world.pools.tradesOf(tstSol.address)).toHaveLength(2)

    const history = new PriceHistory(world)
    expect(history.realReservesAt(tstSol, GENESIS_UNIX_S + 99)).toEqual({
      base: 400_000_000_000_000n,
      quote: 100_000_000_000n,
    })
    expect(history.realReservesAt(tstSol, GENESIS_UNIX_S + 199)).toEqual(beforePull.reserves)
    expect(history.nativePriceAt(tstSol, GENESIS_UNIX_S + 199)).toBe(beforePull.spot)
    expect(history.realReservesAt(tstSol, GENESIS_UNIX_S + 200)).toEqual(afterPull)
    expect(history.realReservesAt(tstSol, GENESIS_UNIX_S + 300)).toEqual(world.pools.realReserves(tstSol))
  })

  test('before its creation a pool held nothing', () => {
    const history = new PriceHistory(market.world)
    expect(history.realReservesAt(market.tstSol, GENESIS_UNIX_S - 1)).toEqual({ base: 0n, quote: 0n })
    expect(history.nativePriceAt(market.tstSol, GENESIS_UNIX_S - 1)).toBe(0)
  })

  test('USD prices: USDC is 1, SOL comes from the wSOL/USDC pool, a token from its deepest USDC or SOL pool', () => {
    const history = new PriceHistory(market.world)
    const { world, tst, tstSol, usdc } = market
    expect(history.usdPriceAt(usdc, NOW_UNIX_S)).toBe(1)
    expect(history.usdPriceAt(NATIVE_MINT, NOW_UNIX_S)).toBe(SOL_USD)
    // The SOL pool (about $15k of SOL) outweighs the Orca USDC pool ($375 of USDC).
    expect(history.usdPriceAt(tst, NOW_UNIX_S)).toBe(world.pools.spotPrice(tstSol) * SOL_USD)
    expect(history.usdPriceAt('NoSuchMint1111111111111111111111111111111111', NOW_UNIX_S)).toBeNull()
  })

  test('a deeper USDC pool outranks the SOL pool', async () => {
    const { world, issuer, dev, tst } = await marketWorld()
    await world.transfer(world.usdcMint, issuer, dev.address, 20_000_000_000n)
    // 500M TST against 20,000 USDC: $0.00004 a token, $20k deep against the SOL pool's $15k.
    await world.createPool({
      key: 'tst-usdc-deep',
      kind: 'raydium-amm-v4',
      baseMint: tst,
      quoteMint: world.usdcMint,
      baseAmount: 500_000_000_000_000n,
      quoteAmount: 20_000_000_000n,
      provider: dev,
      feeBps: 25,
      lp: 'burn',
    })
    expect(new PriceHistory(world).usdPriceAt(tst, NOW_UNIX_S)).toBe(0.00004)
  })

  test('a pool that did not exist yet prices nothing', async () => {
    const { world, tst } = await marketWorld()
    const history = new PriceHistory(world)
    expect(history.usdPriceAt(tst, GENESIS_UNIX_S - 1)).toBeNull()
    expect(history.usdPriceAt(NATIVE_MINT, GENESIS_UNIX_S - 1)).toBeNull()
    expect(history.usdPriceAt(NATIVE_MINT, GENESIS_UNIX_S)).toBe(SOL_USD)
  })

  test('without a USDC mint, SOL has no USD price', async () => {
    const { world } = await marketWorld()
    world.usdcMint = ''
    expect(new PriceHistory(world).usdPriceAt(NATIVE_MINT, NOW_UNIX_S)).toBeNull()
  })
})
