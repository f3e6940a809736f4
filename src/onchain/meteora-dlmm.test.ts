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
  DLMM_PAIR_TYPE,
  LB_PAIR_DISCRIMINATOR,
  LB_PAIR_SIZE,
  decodeLbPair,
  findDlmmOracleAddress,
  findDlmmReserveAddress,
  findLbPairAddress,
  getLbPairCodec,
  type LbPair,
} from './meteora-dlmm.ts'
import { METEORA_DLMM_PROGRAM_ADDRESS } from './programs.ts'

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
    u32: (offset: number) => view.getUint32(offset, true),
    i32: (offset: number) => view.getInt32(offset, true),
    u64: (offset: number) => view.getBigUint64(offset, true),
    i64: (offset: number) => view.getBigInt64(offset, true),
    u128: (offset: number) => view.getBigUint64(offset, true) | (view.getBigUint64(offset + 8, true) << 64n),
    key: (offset: number) => getAddressDecoder().decode(bytes.slice(offset, offset + 32)),
  }
}

/** Mint X's bytes sort after mint Y's (0xc0… > 0x30…), so the pair PDA must order them. */
const MINT_X = key(0xc0)
const MINT_Y = key(0x30)
/** 0x0190 and 0x2710: both bytes of each u16 seed are non-zero. */
const BIN_STEP = 400
const BASE_FACTOR = 10_000

/*
 * The PDAs, derived here from the seeds the dlmm-sdk documents, spelled out byte by byte rather than
 * through the module: pair `[min mint, max mint, bin step u16 LE, base factor u16 LE]`, reserve
 * `[pair, mint]`, oracle `["oracle", pair]`.
 */
const [PAIR, PAIR_BUMP] = await getProgramDerivedAddress({
  programAddress: METEORA_DLMM_PROGRAM_ADDRESS,
  seeds: [keyBytes(MINT_Y), keyBytes(MINT_X), new Uint8Array([0x90, 0x01]), new Uint8Array([0x10, 0x27])],
})
const [RESERVE_X] = await getProgramDerivedAddress({
  programAddress: METEORA_DLMM_PROGRAM_ADDRESS,
  seeds: [keyBytes(PAIR), keyBytes(MINT_X)],
})
const [RESERVE_Y] = await getProgramDerivedAddress({
  programAddress: METEORA_DLMM_PROGRAM_ADDRESS,
  seeds: [keyBytes(PAIR), keyBytes(MINT_Y)],
})
const [ORACLE] = await getProgramDerivedAddress({
  programAddress: METEORA_DLMM_PROGRAM_ADDRESS,
  seeds: ['oracle', keyBytes(PAIR)],
})

/** A synthetic permissionless pair with a distinct, non-zero value in every non-padding field. */
const pair: LbPair = {
  parameters: {
    baseFactor: BASE_FACTOR,
    filterPeriod: 30,
    decayPeriod: 600,
    reductionFactor: 5_000,
    variableFeeControl: 7_500,
    maxVolatilityAccumulator: 350_000,
    minBinId: -1_109,
    maxBinId: 1_109,
    protocolShare: 500,
    baseFeePowerFactor: 1,
    functionType: 2,
    collectFeeMode: 3,
    padding: new Uint8Array(3),
  },
  vParameters: {
    volatilityAccumulator: 42_000,
    volatilityReference: 21_000,
    indexReference: -7,
    padding: new Uint8Array(4),
    lastUpdateTimestamp: 1_750_000_123n,
    padding1: new Uint8Array(8),
  },
  bumpSeed: PAIR_BUMP,
  binStepSeed: BIN_STEP,
  pairType: DLMM_PAIR_TYPE.Permissionless,
  activeId: -1_234,
  binStep: BIN_STEP,
  status: 1,
  requireBaseFactorSeed: 1,
  baseFactorSeed: BASE_FACTOR,
  activationType: 1,
  creatorPoolOnOffControl: 1,
  tokenXMint: MINT_X,
  tokenYMint: MINT_Y,
  reserveX: RESERVE_X,
  reserveY: RESERVE_Y,
  protocolFee: { amountX: 111_111n, amountY: 222_222n },
  padding1: new Uint8Array(32),
  rewardInfos: [0, 1].map((i) => ({
    mint: key(0x40 + 0x20 * i),
    vault: key(0x48 + 0x20 * i),
    funder: key(0x50 + 0x20 * i),
    rewardDuration: 86_400n + BigInt(i),
    rewardDurationEnd: 1_760_000_000n + BigInt(i),
    rewardRate: (BigInt(i + 1) << 70n) + 3n,
    lastUpdateTime: 1_755_000_000n + BigInt(i),
    cumulativeSecondsWithEmptyLiquidityReward: 60n + BigInt(i),
  })),
  oracle: ORACLE,
  binArrayBitmap: Array.from({ length: 16 }, (_, i) => (BigInt(i + 1) << 48n) | BigInt(i + 1)),
  lastUpdatedAt: 1_750_000_999n,
  padding2: new Uint8Array(32),
  preActivationSwapAddress: key(0xa0),
  baseKey: key(0xa8),
  activationPoint: 1_750_100_000n,
  preActivationDuration: 3_600n,
  padding3: new Uint8Array(8),
  padding4: 0n,
  creator: key(0xb0),
  tokenMintXProgramFlag: 1,
  tokenMintYProgramFlag: 0,
  version: 1,
  reserved: new Uint8Array(21),
}

describe('LbPair layout', () => {
  test('discriminator is sha256("account:LbPair")[0..8]', () => {
    expect([...LB_PAIR_DISCRIMINATOR]).toEqual([...anchorAccountDiscriminator('LbPair')])
  })

  test('is 904 bytes: the discriminator and the 896-byte struct', () => {
    expect(getLbPairCodec().fixedSize).toBe(LB_PAIR_SIZE)
    expect(getLbPairCodec().encode(pair).length).toBe(904)
  })

  test('places every field at its IDL offset', () => {
    const bytes = getLbPairCodec().encode(pair)
    const read = at(bytes)
    expect([...bytes.slice(0, 8)]).toEqual([33, 11, 49, 98, 181, 101, 177, 13])
    // parameters: StaticParameters, 32 bytes from 8
    expect(read.u16(8)).toBe(10_000) // base_factor
    expect(read.u16(10)).toBe(30) // filter_period
    expect(read.u16(12)).toBe(600) // decay_period
    expect(read.u16(14)).toBe(5_000) // reduction_factor
    expect(read.u32(16)).toBe(7_500) // variable_fee_control
    expect(read.u32(20)).toBe(350_000) // max_volatility_accumulator
    expect(read.i32(24)).toBe(-1_109) // min_bin_id
    expect(read.i32(28)).toBe(1_109) // max_bin_id
    expect(read.u16(32)).toBe(500) // protocol_share
    expect([read.u8(34), read.u8(35), read.u8(36)]).toEqual([1, 2, 3]) // base_fee_power_factor, function_type, collect_fee_mode
    // v_parameters: VariableParameters, 32 bytes from 40
    expect(read.u32(40)).toBe(42_000) // volatility_accumulator
    expect(read.u32(44)).toBe(21_000) // volatility_reference
    expect(read.i32(48)).toBe(-7) // index_reference
    expect(read.i64(56)).toBe(1_750_000_123n) // last_update_timestamp
    expect(read.u8(72)).toBe(PAIR_BUMP) // bump_seed: [u8; 1]
    expect([...bytes.slice(73, 75)]).toEqual([0x90, 0x01]) // bin_step_seed: [u8; 2], 400 LE
    expect(read.u8(75)).toBe(DLMM_PAIR_TYPE.Permissionless) // pair_type
    expect([...bytes.slice(76, 80)]).toEqual([0x2e, 0xfb, 0xff, 0xff]) // active_id -1234 = 0xfffffb2e
    expect(read.u16(80)).toBe(400) // bin_step
    expect([read.u8(82), read.u8(83)]).toEqual([1, 1]) // status, require_base_factor_seed
    expect([...bytes.slice(84, 86)]).toEqual([0x10, 0x27]) // base_factor_seed: [u8; 2], 10000 LE
    expect([read.u8(86), read.u8(87)]).toEqual([1, 1]) // activation_type, creator_pool_on_off_control
    expect(read.key(88)).toBe(MINT_X)
    expect(read.key(120)).toBe(MINT_Y)
    expect(read.key(152)).toBe(RESERVE_X)
    expect(read.key(184)).toBe(RESERVE_Y)
    expect(read.u64(216)).toBe(111_111n) // protocol_fee.amount_x
    expect(read.u64(224)).toBe(222_222n) // protocol_fee.amount_y
    for (let i = 0; i < 2; i++) {
      const base = 264 + 144 * i // reward_infos[i], after padding_1 (232..264)
      expect(read.key(base)).toBe(key(0x40 + 0x20 * i))
      expect(read.key(base + 32)).toBe(key(0x48 + 0x20 * i))
      expect(read.key(base + 64)).toBe(key(0x50 + 0x20 * i))
      expect(read.u64(base + 96)).toBe(86_400n + BigInt(i))
      expect(read.u64(base + 104)).toBe(1_760_000_000n + BigInt(i))
      expect(read.u128(base + 112)).toBe((BigInt(i + 1) << 70n) + 3n)
      expect(read.u64(base + 128)).toBe(1_755_000_000n + BigInt(i))
      expect(read.u64(base + 136)).toBe(60n + BigInt(i))
    }
    expect(read.key(552)).toBe(ORACLE)
    for (let i = 0; i < 16; i++) expect(read.u64(584 + 8 * i)).toBe((BigInt(i + 1) << 48n) | BigInt(i + 1)) // bin_array_bitmap
    expect(read.i64(712)).toBe(1_750_000_999n) // last_updated_at
    expect(read.key(752)).toBe(key(0xa0)) // pre_activation_swap_address, after padding_2 (720..752)
    expect(read.key(784)).toBe(key(0xa8)) // base_key
    expect(read.u64(816)).toBe(1_750_100_000n) // activation_point
    expect(read.u64(824)).toBe(3_600n) // pre_activation_duration
    expect(read.key(848)).toBe(key(0xb0)) // creator, after padding_3 and padding_4 (832..848)
    expect([read.u8(880), read.u8(881), read.u8(882)]).toEqual([1, 0, 1]) // token program flags X, Y; version
    expect(bytes.slice(883).every((b) => b === 0)).toBe(true) // reserved: [u8; 21]
  })

  test('round-trips the pair, and re-encodes the decoded bytes byte for byte', () => {
    const bytes = getLbPairCodec().encode(pair)
    const decoded = decodeLbPair(bytes)
    expect(decoded).toEqual(pair)
    expect(getLbPairCodec().encode(decoded!)).toEqual(bytes)
  })

  test('the decoded reserves, oracle and pair address are the PDAs the program derives', async () => {
    const decoded = decodeLbPair(getLbPairCodec().encode(pair))!
    expect((await findDlmmReserveAddress(PAIR, decoded.tokenXMint))[0]).toBe(decoded.reserveX)
    expect((await findDlmmReserveAddress(PAIR, decoded.tokenYMint))[0]).toBe(decoded.reserveY)
    expect((await findDlmmOracleAddress(PAIR))[0]).toBe(decoded.oracle)
    const [pairAddress, bump] = await findLbPairAddress(
      decoded.tokenXMint,
      decoded.tokenYMint,
      decoded.binStep,
      decoded.parameters.baseFactor,
    )
    expect(pairAddress).toBe(PAIR)
    expect(bump as number).toBe(decoded.bumpSeed)
    // The mints are sorted before hashing, so their order in the call does not matter.
    expect((await findLbPairAddress(MINT_Y, MINT_X, BIN_STEP, BASE_FACTOR))[0]).toBe(PAIR)
  })

  test('a round trip of an edited pair changes only what was edited', () => {
    const original = getLbPairCodec().encode(pair)
    const edited = { ...pair, activeId: -42 }
    const bytes = getLbPairCodec().encode(edited)
    expect(decodeLbPair(bytes)).toEqual(edited)
    expect(bytes.slice(0, 76)).toEqual(original.slice(0, 76))
    expect(bytes.slice(80)).toEqual(original.slice(80)) // active_id is the i32 at 76..80
  })

  test('returns undefined for a wrong discriminator or a short account', () => {
    const bytes = getLbPairCodec().encode(pair)
    expect(decodeLbPair(bytes.slice(0, LB_PAIR_SIZE - 1))).toBeUndefined()
    expect(decodeLbPair(bytes.map((b, i) => (i === 5 ? b ^ 1 : b)))).toBeUndefined()
  })
})
