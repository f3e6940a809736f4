import { describe, expect, test } from 'bun:test'
import { address } from '@solana/kit'
import { anchorAccountDiscriminator } from './anchor.ts'
import { findAssociatedTokenAddress } from './pda.ts'
import { SYSTEM_PROGRAM_ADDRESS, WRAPPED_SOL_MINT_ADDRESS } from './programs.ts'
import {
  PUMP_POOL_ALLOCATED_SIZE,
  PUMP_POOL_DISCRIMINATOR,
  PUMP_POOL_MIN_SIZE,
  PUMP_POOL_SIZE,
  decodePumpPool,
  findCanonicalPumpPoolAddress,
  findPumpPoolAddress,
  findPumpPoolAuthorityAddress,
  findPumpPoolLpMintAddress,
  getPumpPoolCodec,
  type PumpPool,
} from './pump-amm.ts'

/**
 * The example pool of pump-fun/pump-public-docs docs/PUMP_SWAP_README.md (GseMAnN…, a real mainnet
 * canonical pool), with the fields appended since set to non-zero values to exercise them.
 */
const POOL_ADDRESS = address('GseMAnNDvntR5uFePZ51yZBXzNSn7GdFPkfHwfr6d77J')
const pool: PumpPool = {
  poolBump: 254,
  index: 0,
  creator: address('9XDYTfQKwW8sHPqnFdUreMmtmffmkHVPGTNV2e3LKxNW'),
  baseMint: address('7LSsEoJGhLeZzGvDofTdNg7M3JttxQqGWNLo6vWMpump'),
  quoteMint: WRAPPED_SOL_MINT_ADDRESS,
  lpMint: address('6dpnPD6UWDw5hbJEuPQwnCCMba1JYwHANKuL6GQ6otAH'),
  poolBaseTokenAccount: address('5jMpkf4JF4noHftLgNKyPNh6roVfPSGSjuEk3U4eLKRa'),
  poolQuoteTokenAccount: address('43DVcZR4kQFjh4Xm2i3DcneRxNjZp7HMud8yDrJWrDr8'),
  lpSupply: 4_193_388_284_800n,
  coinCreator: address('3WNi4g2ftVvRyYW68xyDxCBVrfXHbHjJUpdwHs7WsXcC'),
  isMayhemMode: false,
  isCashbackCoin: true,
  virtualQuoteReserves: -17_584_505_289n,
  creatorFeeBps: 95n,
  canEditCreatorFee: false,
  isHolderReward: true,
}

describe('PumpSwap Pool layout', () => {
  test('discriminator is sha256("account:Pool")[0..8]', () => {
    expect([...PUMP_POOL_DISCRIMINATOR]).toEqual([...anchorAccountDiscriminator('Pool')])
  })

  test('sizes: the 211-byte first layout, the 271-byte decoded layout, the 300-byte allocation', () => {
    expect(PUMP_POOL_MIN_SIZE).toBe(211)
    expect(getPumpPoolCodec().fixedSize).toBe(PUMP_POOL_SIZE)
    expect(PUMP_POOL_SIZE).toBe(271)
    expect(PUMP_POOL_ALLOCATED_SIZE).toBe(300)
  })

  test('round-trips every field, including a negative virtual quote reserve', () => {
    expect(decodePumpPool(getPumpPoolCodec().encode(pool))).toEqual(pool)
  })

  test('places fields at their IDL offsets', () => {
    const bytes = getPumpPoolCodec().encode(pool)
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    expect(bytes[8]).toBe(254) // pool_bump
    expect(view.getBigUint64(203, true)).toBe(pool.lpSupply)
    expect(bytes[244]).toBe(1) // is_cashback_coin, after coin_creator at 211 and is_mayhem_mode at 243
    expect(view.getBigInt64(245, true)).toBe(-17_584_505_289n) // low half of the i128
    expect(view.getBigUint64(261, true)).toBe(95n) // creator_fee_bps
  })

  test('reads a 211-byte pool from before creator fees with the later fields as zero', () => {
    const decoded = decodePumpPool(getPumpPoolCodec().encode(pool).slice(0, PUMP_POOL_MIN_SIZE))
    expect(decoded).toEqual({
      ...pool,
      coinCreator: SYSTEM_PROGRAM_ADDRESS,
      isCashbackCoin: false,
      virtualQuoteReserves: 0n,
      creatorFeeBps: 0n,
      isHolderReward: false,
    })
  })

  test('reads a pool grown to 300 bytes', () => {
    const extended = new Uint8Array(PUMP_POOL_ALLOCATED_SIZE)
    extended.set(getPumpPoolCodec().encode(pool))
    expect(decodePumpPool(extended)).toEqual(pool)
  })

  test.each([
    [
      'another discriminator',
      () =>
        getPumpPoolCodec()
          .encode(pool)
          .map((b, i) => (i === 7 ? b ^ 1 : b)),
    ],
    ['a pool cut inside lp_supply', () => getPumpPoolCodec().encode(pool).slice(0, 210)],
  ])('returns undefined for %s', (_name, data) => {
    expect(decodePumpPool(data())).toBeUndefined()
  })
})

describe('PumpSwap PDAs, checked against the docs example pool', () => {
  test("the canonical pool creator is pump's pool-authority PDA of the coin", async () => {
    expect((await findPumpPoolAuthorityAddress(pool.baseMint))[0]).toBe(pool.creator)
  })

  test('the pool PDA is ["pool", index, creator, base, quote] with the stored bump', async () => {
    const [poolAddress, bump] = await findPumpPoolAddress(0, pool.creator, pool.baseMint, pool.quoteMint)
    expect(poolAddress).toBe(POOL_ADDRESS)
    expect(bump as number).toBe(pool.poolBump)
    expect((await findCanonicalPumpPoolAddress(pool.baseMint))[0]).toBe(POOL_ADDRESS)
  })

  test('the LP mint and the vaults derive from the pool address', async () => {
    expect((await findPumpPoolLpMintAddress(POOL_ADDRESS))[0]).toBe(pool.lpMint)
    expect((await findAssociatedTokenAddress(POOL_ADDRESS, pool.baseMint))[0]).toBe(pool.poolBaseTokenAccount)
    expect((await findAssociatedTokenAddress(POOL_ADDRESS, pool.quoteMint))[0]).toBe(pool.poolQuoteTokenAccount)
  })
})
