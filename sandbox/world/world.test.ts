import { getTransactionDecoder, getTransactionEncoder, signTransaction } from '@solana/kit'
import { describe, expect, test } from 'bun:test'
import { decodeAmmInfo } from '../../src/onchain/raydium-amm-v4.ts'
import { decodeBondingCurve } from '../../src/onchain/pump.ts'
import { readTokenAccount } from '../chain/token-balances.ts'
import { NATIVE_MINT } from './swap.ts'
import { PUMP_INITIAL_VIRTUAL_SOL, PUMP_TOTAL_SUPPLY, VENUES } from './venues.ts'
import { World } from './world.ts'

async function setup() {
  const world = await World.create({ genesisUnixS: 1_700_000_000, venues: VENUES })
  const dev = await world.wallet('dev', 100)
  const mint = await world.createMint(
    { key: 'test', name: 'Test', symbol: 'TST', decimals: 6, mintAuthority: dev },
    dev,
  )
  await world.mintTo(mint, dev.address, 1_000_000_000_000n, dev)
  return { world, dev, mint }
}

describe('World', () => {
  test('a Raydium AMM v4 pool: real vaults delegated to their signer set (the operator first), burned LP, the pool account in its layout', async () => {
    const { world, dev, mint } = await setup()
    const pool = await world.createPool({
      key: 'pool-a',
      kind: 'raydium-amm-v4',
      baseMint: mint,
      quoteMint: NATIVE_MINT,
      baseAmount: 500_000_000_000n,
      quoteAmount: 50_000_000_000n,
      provider: dev,
      feeBps: 25,
      lp: 'burn',
    })
    expect(world.pools.realReserves(pool)).toEqual({ base: 500_000_000_000n, quote: 50_000_000_000n })
    const vault = world.chain.getAccount(pool.baseVault)!
    expect(readTokenAccount(vault.data).owner).toBe('5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1')
    const info = decodeAmmInfo(world.chain.getAccount(pool.address)!.data)!
    expect(info.coinVault).toBe(pool.baseVault as never)
    expect(info.lpAmount).toBeGreaterThan(0n)
    expect(world.mintState(pool.lpMint!).supply).toBe(0n)
    expect(world.pools.spotPrice(pool)).toBeCloseTo(0.0001, 9)
  })

  test('swaps are real transactions read back as trades, and move the price', async () => {
    const { world, dev, mint } = await setup()
    const pool = await world.createPool({
      key: 'pool-b',
      kind: 'raydium-amm-v4',
      baseMint: mint,
      quoteMint: NATIVE_MINT,
      baseAmount: 500_000_000_000n,
      quoteAmount: 50_000_000_000n,
      provider: dev,
      feeBps: 25,
      lp: 'keep',
    })
    const trader = await world.wallet('trader', 10)
    const before = world.pools.spotPrice(pool)
    const buy = await world.swap(trader, pool, NATIVE_MINT, 1_000_000_000n)
    expect(buy).toMatchObject({ side: 'buy', wallet: trader.address, quoteAmount: 1_000_000_000n })
    expect(buy.baseAmount).toBeGreaterThan(9_000_000_000n)
    expect(world.pools.spotPrice(pool)).toBeGreaterThan(before)
    const tokenBalance = readTokenAccount(world.chain.getAccount(await world.ata(mint, trader.address))!.data).amount
    expect(tokenBalance).toBe(buy.baseAmount)
    const sell = await world.swap(trader, pool, mint, tokenBalance)
    expect(sell).toMatchObject({ side: 'sell', wallet: trader.address, baseAmount: tokenBalance })
    expect(sell.quoteAmount).toBeLessThan(1_000_000_000n)
    expect(world.pools.tradesOf(pool.address)).toHaveLength(2)
  })

  test('an aggregator-style swap: the operator signs now, the user signs later, and the chain accepts it', async () => {
    const { world, dev, mint } = await setup()
    const pool = await world.createPool({
      key: 'pool-c',
      kind: 'raydium-amm-v4',
      baseMint: mint,
      quoteMint: NATIVE_MINT,
      baseAmount: 500_000_000_000n,
      quoteAmount: 50_000_000_000n,
      provider: dev,
      feeBps: 25,
      lp: 'burn',
    })
    const user = await world.wallet('user', 3)
    const quote = world.pools.quote(pool, NATIVE_MINT, 500_000_000n)
    const { wire } = await world.unsignedSwap(user.address, pool, NATIVE_MINT, 500_000_000n, quote.amountOut)
    const unsigned = getTransactionDecoder().decode(wire)
    expect(unsigned.signatures[user.address]).toBeNull()
    expect(unsigned.signatures[world.operator.address]).not.toBeNull()
    const signed = await signTransaction([user.keyPair], unsigned as Parameters<typeof signTransaction>[1])
    const outcome = world.chain.send(new Uint8Array(getTransactionEncoder().encode(signed)))
    expect(outcome.ok && outcome.stored.meta.err).toBeNull()
    expect(world.pools.tradesOf(pool.address).at(-1)).toMatchObject({
      side: 'buy',
      wallet: user.address,
      baseAmount: quote.amountOut,
    })
  })

  test('a pump.fun bonding curve at its PDA follows its trades', async () => {
    const world = await World.create({ genesisUnixS: 1_700_000_000, venues: VENUES })
    const dev = await world.wallet('dev', 100)
    const mint = await world.createMint(
      { key: 'pumpy', name: 'Pumpy', symbol: 'PMP', decimals: 6, mintAuthority: dev },
      dev,
    )
    await world.mintTo(mint, dev.address, PUMP_TOTAL_SUPPLY, dev)
    const pool = await world.createPool({
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
    const curve = decodeBondingCurve(world.chain.getAccount(pool.address)!.data)!
    expect(curve).toMatchObject({
      virtualTokenReserves: 1_073_000_000_000_000n,
      virtualQuoteReserves: 30_000_000_000n,
      complete: false,
    })
    await world.swap(await world.wallet('buyer', 5), pool, NATIVE_MINT, 2_000_000_000n)
    const after = decodeBondingCurve(world.chain.getAccount(pool.address)!.data)!
    // The fee stays in the pool (as LP fees do on an AMM).
    expect(after.realQuoteReserves).toBe(2_000_000_000n)
    expect(after.virtualTokenReserves).toBeLessThan(curve.virtualTokenReserves)
  })
})
