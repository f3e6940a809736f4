import {
  fixCodecSize,
  getAddressCodec,
  getArrayCodec,
  getBytesCodec,
  getStructCodec,
  getU128Codec,
  getU16Codec,
  getU32Codec,
  getU64Codec,
  getU8Codec,
  type Address,
  type FixedSizeCodec,
  type ReadonlyUint8Array,
} from '@solana/kit'
import { decodeOrUndefined, once, startsWith, withAnchorDiscriminator } from './anchor.ts'

/**
 * Meteora DAMM v2 `Pool` (program `cp-amm`): an Anchor `zero_copy` struct with no implicit padding
 * (the source asserts `Pool::INIT_SPACE == 1104`). Layout: MeteoraAg/damm-v2
 * `programs/cp-amm/src/state/pool.rs` and `state/fee.rs` (snapshot of 2026-06-03). Liquidity is held
 * in position NFTs; `permanentLockLiquidity` is the part locked for ever.
 *
 * The discriminator is shared with PumpSwap's `Pool` (both hash `account:Pool`): check the account
 * owner before trusting a decode.
 */
export type DammV2Pool = {
  poolFees: DammV2PoolFees
  tokenAMint: Address
  tokenBMint: Address
  tokenAVault: Address
  tokenBVault: Address
  /** Vault allowed to buy before `activationPoint`. */
  whitelistedVault: Address
  /** Formerly the partner key; not maintained. */
  padding0: ReadonlyUint8Array
  liquidity: bigint
  /** Formerly a reserve amount; not maintained. */
  padding1: bigint
  protocolAFee: bigint
  protocolBFee: bigint
  padding2: bigint
  sqrtMinPrice: bigint
  sqrtMaxPrice: bigint
  sqrtPrice: bigint
  /** Slot or unix seconds, per `activationType`. */
  activationPoint: bigint
  /** 0 slot, 1 timestamp. */
  activationType: number
  /** 0 enabled, 1 disabled. */
  poolStatus: number
  tokenAFlag: number
  tokenBFlag: number
  /** 0 both tokens, 1 only token B, 2 compounding. */
  collectFeeMode: number
  poolType: number
  feeVersion: number
  padding3: number
  /** U256, little-endian bytes. */
  feeAPerLiquidity: ReadonlyUint8Array
  /** U256, little-endian bytes. */
  feeBPerLiquidity: ReadonlyUint8Array
  permanentLockLiquidity: bigint
  metrics: DammV2PoolMetrics
  creator: Address
  /** Tracked only from `layoutVersion` 1 on. */
  tokenAAmount: bigint
  tokenBAmount: bigint
  layoutVersion: number
  padding4: ReadonlyUint8Array
  padding5: bigint[]
  rewardInfos: DammV2RewardInfo[]
}

/** `PoolFeesStruct` (160 bytes). */
export type DammV2PoolFees = {
  /** `BaseFeeStruct`: a 32-byte mode-specific fee schedule (`BaseFeeInfo.data`) and padding. */
  baseFee: { baseFeeInfo: ReadonlyUint8Array; padding1: bigint }
  protocolFeePercent: number
  padding0: number
  referralFeePercent: number
  padding1: ReadonlyUint8Array
  compoundingFeeBps: number
  dynamicFee: DammV2DynamicFee
  initSqrtPrice: bigint
}

/** `DynamicFeeStruct` (96 bytes). */
export type DammV2DynamicFee = {
  initialized: number
  padding: ReadonlyUint8Array
  maxVolatilityAccumulator: number
  variableFeeControl: number
  binStep: number
  filterPeriod: number
  decayPeriod: number
  reductionFactor: number
  lastUpdateTimestamp: bigint
  binStepU128: bigint
  sqrtPriceReference: bigint
  volatilityAccumulator: bigint
  volatilityReference: bigint
}

/** `PoolMetrics` (80 bytes). */
export type DammV2PoolMetrics = {
  totalLpAFee: bigint
  totalLpBFee: bigint
  totalProtocolAFee: bigint
  totalProtocolBFee: bigint
  padding0: bigint[]
  totalPosition: bigint
  padding: bigint
}

/** `RewardInfo` (192 bytes). */
export type DammV2RewardInfo = {
  initialized: number
  rewardTokenFlag: number
  padding0: ReadonlyUint8Array
  padding1: ReadonlyUint8Array
  mint: Address
  vault: Address
  funder: Address
  rewardDuration: bigint
  rewardDurationEnd: bigint
  rewardRate: bigint
  /** U256, little-endian bytes. */
  rewardPerTokenStored: ReadonlyUint8Array
  lastUpdateTime: bigint
  cumulativeSecondsWithEmptyLiquidityReward: bigint
}

/** `sha256("account:Pool")[0..8]` (the same bytes as PumpSwap's pool). */
export const DAMM_V2_POOL_DISCRIMINATOR: ReadonlyUint8Array = new Uint8Array([241, 154, 109, 4, 17, 177, 109, 188])

/** 8-byte discriminator + `Pool::INIT_SPACE` (1104). */
export const DAMM_V2_POOL_SIZE = 1112

const REWARD_COUNT = 2 // NUM_REWARDS
const U256_BYTES = 32 // the program stores U256 values as [u8; 32]
const BASE_FEE_INFO_BYTES = 32 // BaseFeeInfo.data: [u8; 32], read per base-fee mode
const METRICS_PADDING_WORDS = 2 // PoolMetrics.padding_0: [u64; 2]
const PADDING5_WORDS = 3 // Pool.padding_5: [u64; 3]

/** A `[u8; size]` field; the sizes passed below are the array lengths pool.rs and fee.rs declare. */
function bytes(size: number): FixedSizeCodec<ReadonlyUint8Array> {
  return fixCodecSize(getBytesCodec(), size)
}

function getDynamicFeeCodec(): FixedSizeCodec<DammV2DynamicFee> {
  return getStructCodec([
    ['initialized', getU8Codec()],
    ['padding', bytes(7)],
    ['maxVolatilityAccumulator', getU32Codec()],
    ['variableFeeControl', getU32Codec()],
    ['binStep', getU16Codec()],
    ['filterPeriod', getU16Codec()],
    ['decayPeriod', getU16Codec()],
    ['reductionFactor', getU16Codec()],
    ['lastUpdateTimestamp', getU64Codec()],
    ['binStepU128', getU128Codec()],
    ['sqrtPriceReference', getU128Codec()],
    ['volatilityAccumulator', getU128Codec()],
    ['volatilityReference', getU128Codec()],
  ])
}

function getPoolFeesCodec(): FixedSizeCodec<DammV2PoolFees> {
  return getStructCodec([
    [
      'baseFee',
      getStructCodec([
        ['baseFeeInfo', bytes(BASE_FEE_INFO_BYTES)],
        ['padding1', getU64Codec()],
      ]),
    ],
    ['protocolFeePercent', getU8Codec()],
    ['padding0', getU8Codec()],
    ['referralFeePercent', getU8Codec()],
    ['padding1', bytes(3)],
    ['compoundingFeeBps', getU16Codec()],
    ['dynamicFee', getDynamicFeeCodec()],
    ['initSqrtPrice', getU128Codec()],
  ])
}

function getMetricsCodec(): FixedSizeCodec<DammV2PoolMetrics> {
  return getStructCodec([
    ['totalLpAFee', getU128Codec()],
    ['totalLpBFee', getU128Codec()],
    ['totalProtocolAFee', getU64Codec()],
    ['totalProtocolBFee', getU64Codec()],
    ['padding0', getArrayCodec(getU64Codec(), { size: METRICS_PADDING_WORDS })],
    ['totalPosition', getU64Codec()],
    ['padding', getU64Codec()],
  ])
}

function getRewardInfoCodec(): FixedSizeCodec<DammV2RewardInfo> {
  return getStructCodec([
    ['initialized', getU8Codec()],
    ['rewardTokenFlag', getU8Codec()],
    ['padding0', bytes(6)],
    ['padding1', bytes(8)],
    ['mint', getAddressCodec()],
    ['vault', getAddressCodec()],
    ['funder', getAddressCodec()],
    ['rewardDuration', getU64Codec()],
    ['rewardDurationEnd', getU64Codec()],
    ['rewardRate', getU128Codec()],
    ['rewardPerTokenStored', bytes(U256_BYTES)],
    ['lastUpdateTime', getU64Codec()],
    ['cumulativeSecondsWithEmptyLiquidityReward', getU64Codec()],
  ])
}

/** Encodes and decodes a DAMM v2 `Pool` (exactly {@link DAMM_V2_POOL_SIZE} bytes). */
export function getDammV2PoolCodec(): FixedSizeCodec<DammV2Pool> {
  const key = getAddressCodec()
  const u8 = getU8Codec()
  return withAnchorDiscriminator(
    DAMM_V2_POOL_DISCRIMINATOR,
    getStructCodec([
      ['poolFees', getPoolFeesCodec()],
      ['tokenAMint', key],
      ['tokenBMint', key],
      ['tokenAVault', key],
      ['tokenBVault', key],
      ['whitelistedVault', key],
      ['padding0', bytes(32)],
      ['liquidity', getU128Codec()],
      ['padding1', getU128Codec()],
      ['protocolAFee', getU64Codec()],
      ['protocolBFee', getU64Codec()],
      ['padding2', getU128Codec()],
      ['sqrtMinPrice', getU128Codec()],
      ['sqrtMaxPrice', getU128Codec()],
      ['sqrtPrice', getU128Codec()],
      ['activationPoint', getU64Codec()],
      ['activationType', u8],
      ['poolStatus', u8],
      ['tokenAFlag', u8],
      ['tokenBFlag', u8],
      ['collectFeeMode', u8],
      ['poolType', u8],
      ['feeVersion', u8],
      ['padding3', u8],
      ['feeAPerLiquidity', bytes(U256_BYTES)],
      ['feeBPerLiquidity', bytes(U256_BYTES)],
      ['permanentLockLiquidity', getU128Codec()],
      ['metrics', getMetricsCodec()],
      ['creator', key],
      ['tokenAAmount', getU64Codec()],
      ['tokenBAmount', getU64Codec()],
      ['layoutVersion', u8],
      ['padding4', bytes(7)],
      ['padding5', getArrayCodec(getU64Codec(), { size: PADDING5_WORDS })],
      ['rewardInfos', getArrayCodec(getRewardInfoCodec(), { size: REWARD_COUNT })],
    ]),
  )
}

/** The codec, built once (decoding runs on every scan). */
const dammV2PoolCodec = once(getDammV2PoolCodec)

/**
 * Decodes DAMM v2 pool data. `undefined` on a wrong discriminator or fewer than
 * {@link DAMM_V2_POOL_SIZE} bytes (which also rejects PumpSwap pools, at most a few hundred bytes).
 */
export function decodeDammV2Pool(data: ReadonlyUint8Array): DammV2Pool | undefined {
  if (data.length < DAMM_V2_POOL_SIZE || !startsWith(data, DAMM_V2_POOL_DISCRIMINATOR)) return undefined
  return decodeOrUndefined(dammV2PoolCodec(), data)
}
