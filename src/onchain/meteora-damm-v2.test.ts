import { describe, expect, test } from 'bun:test'
import { getAddressDecoder, type Address, type ReadonlyUint8Array } from '@solana/kit'
import { anchorAccountDiscriminator } from './anchor.ts'
import {
  DAMM_V2_POOL_DISCRIMINATOR,
  DAMM_V2_POOL_SIZE,
  decodeDammV2Pool,
  getDammV2PoolCodec,
  type DammV2Pool,
} from './meteora-damm-v2.ts'
import { SYSTEM_PROGRAM_ADDRESS, WRAPPED_SOL_MINT_ADDRESS } from './programs.ts'
import { PUMP_POOL_ALLOCATED_SIZE, getPumpPoolCodec } from './pump-amm.ts'

/** A made-up address: 32 bytes counting up from `seed`, distinct for every seed used below. */
const key = (seed: number): Address =>
  getAddressDecoder().decode(Uint8Array.from({ length: 32 }, (_, i) => (seed + i) & 0xff))
/** A U256 as the program stores it: 32 little-endian bytes. */
const u256 = (value: bigint): Uint8Array =>
  Uint8Array.from({ length: 32 }, (_, i) => Number((value >> BigInt(8 * i)) & 0xffn))

/** Little-endian reads at absolute offsets, to check the encoding by hand. */
function at(bytes: ReadonlyUint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return {
    u8: (offset: number) => view.getUint8(offset),
    u16: (offset: number) => view.getUint16(offset, true),
    u32: (offset: number) => view.getUint32(offset, true),
    u64: (offset: number) => view.getBigUint64(offset, true),
    u128: (offset: number) => view.getBigUint64(offset, true) | (view.getBigUint64(offset + 8, true) << 64n),
    key: (offset: number) => getAddressDecoder().decode(bytes.slice(offset, offset + 32)),
  }
}

/** Q64.64 square-root prices for a concentrated range: min < current < max, all three distinct. */
const SQRT_MIN_PRICE = (1n << 62n) + 11n
const SQRT_MAX_PRICE = (1n << 66n) + 13n
const SQRT_PRICE = (1n << 64n) + 0x00ab_cdefn

/** A synthetic SOL pool with a distinct, non-zero value in every non-padding field. */
const pool: DammV2Pool = {
  poolFees: {
    baseFee: { baseFeeInfo: Uint8Array.from({ length: 32 }, (_, i) => 0x80 | i), padding1: 0n },
    protocolFeePercent: 20,
    padding0: 0,
    referralFeePercent: 25,
    padding1: new Uint8Array(3),
    compoundingFeeBps: 1_234,
    dynamicFee: {
      initialized: 1,
      padding: new Uint8Array(7),
      maxVolatilityAccumulator: 14_460_000,
      variableFeeControl: 5_500,
      binStep: 1,
      filterPeriod: 10,
      decayPeriod: 120,
      reductionFactor: 5_000,
      lastUpdateTimestamp: 1_747_000_001n,
      binStepU128: (1n << 64n) / 10_000n,
      sqrtPriceReference: (2n << 64n) + 7n,
      volatilityAccumulator: 9_999n,
      volatilityReference: 4_444n,
    },
    initSqrtPrice: (1n << 64n) + 1n,
  },
  tokenAMint: WRAPPED_SOL_MINT_ADDRESS,
  tokenBMint: key(0x10),
  tokenAVault: key(0x20),
  tokenBVault: key(0x30),
  whitelistedVault: SYSTEM_PROGRAM_ADDRESS,
  padding0: new Uint8Array(32),
  liquidity: (5n << 90n) + 77n,
  padding1: 0n,
  protocolAFee: 3_333n,
  protocolBFee: 4_444n,
  padding2: 0n,
  sqrtMinPrice: SQRT_MIN_PRICE,
  sqrtMaxPrice: SQRT_MAX_PRICE,
  sqrtPrice: SQRT_PRICE,
  activationPoint: 1_747_000_000n,
  activationType: 1,
  poolStatus: 1,
  tokenAFlag: 0,
  tokenBFlag: 1,
  collectFeeMode: 2,
  poolType: 1,
  feeVersion: 1,
  padding3: 0,
  feeAPerLiquidity: u256((9n << 200n) + 1n),
  feeBPerLiquidity: u256((8n << 130n) + 2n),
  permanentLockLiquidity: (3n << 96n) + 99n,
  metrics: {
    totalLpAFee: (1n << 65n) + 1n,
    totalLpBFee: (1n << 66n) + 2n,
    totalProtocolAFee: 5_555n,
    totalProtocolBFee: 6_666n,
    padding0: [0n, 0n],
    totalPosition: 590n,
    padding: 0n,
  },
  creator: key(0x40),
  tokenAAmount: 7_777n,
  tokenBAmount: 8_888n,
  layoutVersion: 1,
  padding4: new Uint8Array(7),
  padding5: [0n, 0n, 0n],
  rewardInfos: [0, 1].map((i) => ({
    initialized: 1,
    rewardTokenFlag: i,
    padding0: new Uint8Array(6),
    padding1: new Uint8Array(8),
    mint: key(0x50 + 0x20 * i),
    vault: key(0x58 + 0x20 * i),
    funder: key(0x60 + 0x20 * i),
    rewardDuration: 604_800n + BigInt(i),
    rewardDurationEnd: 1_748_000_000n + BigInt(i),
    rewardRate: (BigInt(i + 1) << 72n) + 5n,
    rewardPerTokenStored: u256((BigInt(i + 1) << 150n) + 6n),
    lastUpdateTime: 1_747_500_000n + BigInt(i),
    cumulativeSecondsWithEmptyLiquidityReward: 30n + BigInt(i),
  })),
}

describe('DAMM v2 Pool layout', () => {
  test('discriminator is sha256("account:Pool")[0..8]', () => {
    expect([...DAMM_V2_POOL_DISCRIMINATOR]).toEqual([...anchorAccountDiscriminator('Pool')])
  })

  test('is 8 + Pool::INIT_SPACE (1104) bytes', () => {
    expect(getDammV2PoolCodec().fixedSize).toBe(DAMM_V2_POOL_SIZE)
    expect(getDammV2PoolCodec().encode(pool).length).toBe(8 + 1_104)
  })

  test('places every field at its pool.rs / fee.rs offset', () => {
    const bytes = getDammV2PoolCodec().encode(pool)
    const read = at(bytes)
    expect([...bytes.slice(0, 8)]).toEqual([241, 154, 109, 4, 17, 177, 109, 188])
    // pool_fees: PoolFeesStruct, 160 bytes from 8
    expect([...bytes.slice(8, 40)]).toEqual(Array.from({ length: 32 }, (_, i) => 0x80 | i)) // base_fee.base_fee_info.data
    expect(read.u8(48)).toBe(20) // protocol_fee_percent
    expect(read.u8(50)).toBe(25) // referral_fee_percent
    expect(read.u16(54)).toBe(1_234) // compounding_fee_bps
    expect(read.u8(56)).toBe(1) // dynamic_fee.initialized
    expect(read.u32(64)).toBe(14_460_000) // dynamic_fee.max_volatility_accumulator
    expect(read.u32(68)).toBe(5_500) // dynamic_fee.variable_fee_control
    expect([read.u16(72), read.u16(74), read.u16(76), read.u16(78)]).toEqual([1, 10, 120, 5_000]) // bin_step, filter, decay, reduction
    expect(read.u64(80)).toBe(1_747_000_001n) // dynamic_fee.last_update_timestamp
    expect(read.u128(88)).toBe((1n << 64n) / 10_000n) // dynamic_fee.bin_step_u128
    expect(read.u128(104)).toBe((2n << 64n) + 7n) // dynamic_fee.sqrt_price_reference
    expect(read.u128(120)).toBe(9_999n) // dynamic_fee.volatility_accumulator
    expect(read.u128(136)).toBe(4_444n) // dynamic_fee.volatility_reference
    expect(read.u128(152)).toBe((1n << 64n) + 1n) // init_sqrt_price
    expect(read.key(168)).toBe(WRAPPED_SOL_MINT_ADDRESS) // token_a_mint
    expect(read.key(200)).toBe(key(0x10)) // token_b_mint
    expect(read.key(232)).toBe(key(0x20)) // token_a_vault
    expect(read.key(264)).toBe(key(0x30)) // token_b_vault
    expect(read.key(296)).toBe(SYSTEM_PROGRAM_ADDRESS) // whitelisted_vault
    expect(read.u128(360)).toBe((5n << 90n) + 77n) // liquidity, after padding_0 (328..360)
    expect(read.u64(392)).toBe(3_333n) // protocol_a_fee, after padding_1 (376..392)
    expect(read.u64(400)).toBe(4_444n) // protocol_b_fee
    expect(read.u64(472)).toBe(1_747_000_000n) // activation_point
    // activation_type, pool_status, token_a_flag, token_b_flag, collect_fee_mode, pool_type, fee_version
    expect([...bytes.slice(480, 487)]).toEqual([1, 1, 0, 1, 2, 1, 1])
    expect([...bytes.slice(488, 520)]).toEqual([...u256((9n << 200n) + 1n)]) // fee_a_per_liquidity
    expect([...bytes.slice(520, 552)]).toEqual([...u256((8n << 130n) + 2n)]) // fee_b_per_liquidity
    expect(read.u128(552)).toBe((3n << 96n) + 99n) // permanent_lock_liquidity
    // metrics: PoolMetrics, 80 bytes from 568
    expect(read.u128(568)).toBe((1n << 65n) + 1n) // total_lp_a_fee
    expect(read.u128(584)).toBe((1n << 66n) + 2n) // total_lp_b_fee
    expect(read.u64(600)).toBe(5_555n) // total_protocol_a_fee
    expect(read.u64(608)).toBe(6_666n) // total_protocol_b_fee
    expect(read.u64(632)).toBe(590n) // total_position, after padding_0: [u64; 2]
    expect(read.key(648)).toBe(key(0x40)) // creator
    expect(read.u64(680)).toBe(7_777n) // token_a_amount
    expect(read.u64(688)).toBe(8_888n) // token_b_amount
    expect(read.u8(696)).toBe(1) // layout_version
    for (let i = 0; i < 2; i++) {
      const base = 728 + 192 * i // reward_infos[i], after padding_4 (697..704) and padding_5 (704..728)
      expect([read.u8(base), read.u8(base + 1)]).toEqual([1, i]) // initialized, reward_token_flag
      expect(read.key(base + 16)).toBe(key(0x50 + 0x20 * i))
      expect(read.key(base + 48)).toBe(key(0x58 + 0x20 * i))
      expect(read.key(base + 80)).toBe(key(0x60 + 0x20 * i))
      expect(read.u64(base + 112)).toBe(604_800n + BigInt(i))
      expect(read.u64(base + 120)).toBe(1_748_000_000n + BigInt(i))
      expect(read.u128(base + 128)).toBe((BigInt(i + 1) << 72n) + 5n)
      expect([...bytes.slice(base + 144, base + 176)]).toEqual([...u256((BigInt(i + 1) << 150n) + 6n)])
      expect(read.u64(base + 176)).toBe(1_747_500_000n + BigInt(i))
      expect(read.u64(base + 184)).toBe(30n + BigInt(i))
    }
    expect(728 + 2 * 192).toBe(DAMM_V2_POOL_SIZE)
  })

  test('reads sqrt_min_price, sqrt_max_price and sqrt_price from their own slots (424, 440, 456)', () => {
    const bytes = getDammV2PoolCodec().encode(pool)
    const read = at(bytes)
    expect([read.u128(424), read.u128(440), read.u128(456)]).toEqual([SQRT_MIN_PRICE, SQRT_MAX_PRICE, SQRT_PRICE])
    const decoded = decodeDammV2Pool(bytes)!
    expect(decoded.sqrtPrice).toBeGreaterThan(decoded.sqrtMinPrice)
    expect(decoded.sqrtPrice).toBeLessThan(decoded.sqrtMaxPrice)
  })

  test('round-trips the pool, and re-encodes the decoded bytes byte for byte', () => {
    const bytes = getDammV2PoolCodec().encode(pool)
    const decoded = decodeDammV2Pool(bytes)
    expect(decoded).toEqual(pool)
    expect(getDammV2PoolCodec().encode(decoded!)).toEqual(bytes)
  })

  test('refuses a PumpSwap pool, which carries the same discriminator but is far shorter', () => {
    const bytes = getDammV2PoolCodec().encode(pool)
    expect(decodeDammV2Pool(bytes.slice(0, PUMP_POOL_ALLOCATED_SIZE))).toBeUndefined()
    const pumpPool = new Uint8Array(PUMP_POOL_ALLOCATED_SIZE)
    pumpPool.set(
      getPumpPoolCodec().encode({
        poolBump: 255,
        index: 0,
        creator: key(0x70),
        baseMint: key(0x78),
        quoteMint: WRAPPED_SOL_MINT_ADDRESS,
        lpMint: key(0x80),
        poolBaseTokenAccount: key(0x88),
        poolQuoteTokenAccount: key(0x90),
        lpSupply: 1_000n,
        coinCreator: key(0x98),
        isMayhemMode: false,
        isCashbackCoin: false,
        virtualQuoteReserves: 0n,
        creatorFeeBps: 0n,
        canEditCreatorFee: false,
        isHolderReward: false,
      }),
    )
    expect([...pumpPool.slice(0, 8)]).toEqual([...DAMM_V2_POOL_DISCRIMINATOR])
    expect(decodeDammV2Pool(pumpPool)).toBeUndefined()
    expect(decodeDammV2Pool(bytes.map((b, i) => (i === 0 ? b ^ 1 : b)))).toBeUndefined()
  })
})
