import { describe, expect, test } from 'bun:test'
import {
  getAddressDecoder,
  getAddressEncoder,
  getProgramDerivedAddress,
  type Address,
  type ReadonlyUint8Array,
} from '@solana/kit'
import { anchorAccountDiscriminator } from './anchor.ts'
import {
  WHIRLPOOL_DISCRIMINATOR,
  WHIRLPOOL_REWARD_COUNT,
  WHIRLPOOL_SIZE,
  decodeWhirlpool,
  findWhirlpoolAddress,
  getWhirlpoolCodec,
  type Whirlpool,
} from './orca-whirlpool.ts'
import { ORCA_WHIRLPOOL_PROGRAM_ADDRESS } from './programs.ts'

/** A made-up address: 32 bytes counting up from `seed`, distinct for every seed used below. */
const key = (seed: number): Address =>
  getAddressDecoder().decode(Uint8Array.from({ length: 32 }, (_, i) => (seed + i) & 0xff))
const keyBytes = (value: Address): ReadonlyUint8Array => getAddressEncoder().encode(value)

/** Little-endian reads at absolute offsets, to check the encoding by hand. */
function at(bytes: ReadonlyUint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return {
    u8: (offset: number) => view.getUint8(offset),
    u16: (offset: number) => view.getUint16(offset, true),
    i32: (offset: number) => view.getInt32(offset, true),
    u64: (offset: number) => view.getBigUint64(offset, true),
    u128: (offset: number) => view.getBigUint64(offset, true) | (view.getBigUint64(offset + 8, true) << 64n),
    key: (offset: number) => getAddressDecoder().decode(bytes.slice(offset, offset + 32)),
  }
}

const CONFIG = key(0x10)
const MINT_A = key(0x20)
const MINT_B = key(0x30)
/** 0x0140: both bytes of the u16 seed are non-zero, so a byte-order slip changes the PDA. */
const FEE_TIER_INDEX = 320
const REWARD_AUTHORITY = key(0x40)

/**
 * The pool's PDA, derived here from the seeds whirlpool.rs documents, spelled out byte by byte
 * (`["whirlpool", config, mint A, mint B, fee tier index as u16 LE]`), not through the module.
 */
const [POOL_ADDRESS, POOL_BUMP] = await getProgramDerivedAddress({
  programAddress: ORCA_WHIRLPOOL_PROGRAM_ADDRESS,
  seeds: ['whirlpool', keyBytes(CONFIG), keyBytes(MINT_A), keyBytes(MINT_B), new Uint8Array([0x40, 0x01])],
})

/** A synthetic pool with a distinct, non-zero value in every field (u128s above 2^64). */
const pool: Whirlpool = {
  whirlpoolsConfig: CONFIG,
  whirlpoolBump: POOL_BUMP,
  tickSpacing: 64,
  feeTierIndexSeed: FEE_TIER_INDEX,
  feeRate: 3_000,
  protocolFeeRate: 1_300,
  liquidity: (1n << 100n) + 12_345n,
  sqrtPrice: (7n << 64n) + 0x1234_5678n,
  tickCurrentIndex: -73_425,
  protocolFeeOwedA: 1_111n,
  protocolFeeOwedB: 2_222n,
  tokenMintA: MINT_A,
  tokenVaultA: key(0x50),
  feeGrowthGlobalA: (3n << 64n) + 5n,
  tokenMintB: MINT_B,
  tokenVaultB: key(0x60),
  feeGrowthGlobalB: (4n << 64n) + 6n,
  rewardLastUpdatedTimestamp: 1_751_000_000n,
  rewardInfos: [0, 1, 2].map((i) => ({
    mint: key(0x80 + 0x20 * i),
    vault: key(0x90 + 0x20 * i),
    // Slot 0's extension carries the reward authority; the others hold arbitrary pool-extension bytes.
    extension: i === 0 ? keyBytes(REWARD_AUTHORITY) : new Uint8Array(32).fill(0xe0 + i),
    emissionsPerSecondX64: (BigInt(i + 1) << 64n) + 10n,
    growthGlobalX64: (BigInt(i + 1) << 80n) + 20n,
  })),
}

describe('Whirlpool layout', () => {
  test('discriminator is sha256("account:Whirlpool")[0..8]', () => {
    expect([...WHIRLPOOL_DISCRIMINATOR]).toEqual([...anchorAccountDiscriminator('Whirlpool')])
  })

  test('is Whirlpool::LEN = 653 bytes: 8 + 261 + 3 reward infos of 128', () => {
    expect(getWhirlpoolCodec().fixedSize).toBe(WHIRLPOOL_SIZE)
    expect(WHIRLPOOL_SIZE).toBe(8 + 261 + WHIRLPOOL_REWARD_COUNT * 128)
    expect(getWhirlpoolCodec().encode(pool).length).toBe(653)
  })

  test('places every field at its whirlpool.rs offset', () => {
    const bytes = getWhirlpoolCodec().encode(pool)
    const read = at(bytes)
    expect([...bytes.slice(0, 8)]).toEqual([63, 149, 209, 12, 225, 128, 99, 9])
    expect(read.key(8)).toBe(CONFIG)
    expect(read.u8(40)).toBe(POOL_BUMP) // whirlpool_bump: [u8; 1]
    expect(read.u16(41)).toBe(64) // tick_spacing
    expect([...bytes.slice(43, 45)]).toEqual([0x40, 0x01]) // fee_tier_index_seed: [u8; 2], 320 LE
    expect(read.u16(45)).toBe(3_000) // fee_rate
    expect(read.u16(47)).toBe(1_300) // protocol_fee_rate
    expect(read.u128(49)).toBe((1n << 100n) + 12_345n) // liquidity
    expect(read.u128(65)).toBe((7n << 64n) + 0x1234_5678n) // sqrt_price
    expect([...bytes.slice(81, 85)]).toEqual([0x2f, 0xe1, 0xfe, 0xff]) // tick_current_index -73425 = 0xfffee12f
    expect(read.u64(85)).toBe(1_111n) // protocol_fee_owed_a
    expect(read.u64(93)).toBe(2_222n) // protocol_fee_owed_b
    expect(read.key(101)).toBe(MINT_A)
    expect(read.key(133)).toBe(key(0x50)) // token_vault_a
    expect(read.u128(165)).toBe((3n << 64n) + 5n) // fee_growth_global_a
    expect(read.key(181)).toBe(MINT_B)
    expect(read.key(213)).toBe(key(0x60)) // token_vault_b
    expect(read.u128(245)).toBe((4n << 64n) + 6n) // fee_growth_global_b
    expect(read.u64(261)).toBe(1_751_000_000n) // reward_last_updated_timestamp
    for (let i = 0; i < WHIRLPOOL_REWARD_COUNT; i++) {
      const base = 269 + 128 * i // reward_infos[i]
      expect(read.key(base)).toBe(key(0x80 + 0x20 * i))
      expect(read.key(base + 32)).toBe(key(0x90 + 0x20 * i))
      expect(bytes.slice(base + 64, base + 96)).toEqual(new Uint8Array(pool.rewardInfos[i]!.extension))
      expect(read.u128(base + 96)).toBe((BigInt(i + 1) << 64n) + 10n)
      expect(read.u128(base + 112)).toBe((BigInt(i + 1) << 80n) + 20n)
    }
    expect(read.key(269 + 64)).toBe(REWARD_AUTHORITY)
  })

  test('round-trips the pool, and re-encodes the decoded bytes byte for byte', () => {
    const bytes = getWhirlpoolCodec().encode(pool)
    const decoded = decodeWhirlpool(bytes)
    expect(decoded).toEqual(pool)
    expect(getAddressDecoder().decode(decoded!.rewardInfos[0]!.extension)).toBe(REWARD_AUTHORITY)
    expect(getWhirlpoolCodec().encode(decoded!)).toEqual(bytes)
  })

  test('reads a longer account by its prefix, as Anchor does', () => {
    const longer = new Uint8Array(WHIRLPOOL_SIZE + 16).fill(0xab)
    longer.set(getWhirlpoolCodec().encode(pool))
    expect(decodeWhirlpool(longer)).toEqual(pool)
  })

  test('the pool address is its PDA from the decoded config, mints and fee tier, with the stored bump', async () => {
    const decoded = decodeWhirlpool(getWhirlpoolCodec().encode(pool))!
    const [poolAddress, bump] = await findWhirlpoolAddress(
      decoded.whirlpoolsConfig,
      decoded.tokenMintA,
      decoded.tokenMintB,
      decoded.feeTierIndexSeed,
    )
    expect(poolAddress).toBe(POOL_ADDRESS)
    expect(bump as number).toBe(decoded.whirlpoolBump)
    // The mints are not sorted: swapping them names another pool.
    expect((await findWhirlpoolAddress(CONFIG, MINT_B, MINT_A, FEE_TIER_INDEX))[0]).not.toBe(POOL_ADDRESS)
  })

  test('returns undefined for a wrong discriminator or a short account', () => {
    const bytes = getWhirlpoolCodec().encode(pool)
    expect(decodeWhirlpool(bytes.slice(0, WHIRLPOOL_SIZE - 1))).toBeUndefined()
    expect(decodeWhirlpool(bytes.map((b, i) => (i === 0 ? b ^ 1 : b)))).toBeUndefined()
  })
})
