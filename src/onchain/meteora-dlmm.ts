import {
  fixCodecSize,
  getAddressCodec,
  getAddressEncoder,
  getArrayCodec,
  getBytesCodec,
  getI32Codec,
  getI64Codec,
  getStructCodec,
  getU128Codec,
  getU16Codec,
  getU16Encoder,
  getU32Codec,
  getU64Codec,
  getU8Codec,
  type Address,
  type FixedSizeCodec,
  type ProgramDerivedAddress,
  type ReadonlyUint8Array,
} from '@solana/kit'
import { addressSeed, derivePda } from './pda.ts'
import { decodeOrUndefined, once, startsWith, withAnchorDiscriminator } from './anchor.ts'
import { METEORA_DLMM_PROGRAM_ADDRESS } from './programs.ts'

/**
 * Meteora DLMM `LbPair`, the liquidity-book pool account: an Anchor `zero_copy` (bytemuck, `repr(C)`,
 * no padding) struct. Layout: the full `LbPair` type of MeteoraAg/dlmm-sdk `idls/dlmm.json` (program
 * `lb_clmm` 0.12.0, snapshot of 2026-07-23). Positions are per-owner accounts, so LP burn does not apply.
 */
export type LbPair = {
  parameters: DlmmStaticParameters
  vParameters: DlmmVariableParameters
  /** `bump_seed: [u8; 1]`. */
  bumpSeed: number
  /** `bin_step_seed: [u8; 2]`: the bin step as u16 LE. */
  binStepSeed: number
  /** A {@link DLMM_PAIR_TYPE} value. */
  pairType: number
  /** The bin holding the current price. */
  activeId: number
  /** Basis points between adjacent bins. */
  binStep: number
  /** 0 enabled, 1 disabled (`PairStatus`). */
  status: number
  requireBaseFactorSeed: number
  /** `base_factor_seed: [u8; 2]`: the base factor as u16 LE, when `requireBaseFactorSeed` is 1. */
  baseFactorSeed: number
  /** 0 slot, 1 timestamp (`ActivationType`). */
  activationType: number
  creatorPoolOnOffControl: number
  tokenXMint: Address
  tokenYMint: Address
  /** Token account holding the X side, PDA `[lbPair, tokenXMint]`. */
  reserveX: Address
  /** Token account holding the Y side, PDA `[lbPair, tokenYMint]`. */
  reserveY: Address
  protocolFee: { amountX: bigint; amountY: bigint }
  padding1: ReadonlyUint8Array
  rewardInfos: DlmmRewardInfo[]
  oracle: Address
  binArrayBitmap: bigint[]
  lastUpdatedAt: bigint
  padding2: ReadonlyUint8Array
  preActivationSwapAddress: Address
  baseKey: Address
  activationPoint: bigint
  preActivationDuration: bigint
  padding3: ReadonlyUint8Array
  padding4: bigint
  creator: Address
  /** 0 SPL Token, 1 Token-2022 (`TokenProgramFlags`). */
  tokenMintXProgramFlag: number
  tokenMintYProgramFlag: number
  version: number
  reserved: ReadonlyUint8Array
}

/** `StaticParameters`: the fee configuration fixed at creation. */
export type DlmmStaticParameters = {
  baseFactor: number
  filterPeriod: number
  decayPeriod: number
  reductionFactor: number
  variableFeeControl: number
  maxVolatilityAccumulator: number
  minBinId: number
  maxBinId: number
  protocolShare: number
  baseFeePowerFactor: number
  functionType: number
  collectFeeMode: number
  padding: ReadonlyUint8Array
}

/** `VariableParameters`: the dynamic-fee state updated by swaps. */
export type DlmmVariableParameters = {
  volatilityAccumulator: number
  volatilityReference: number
  indexReference: number
  padding: ReadonlyUint8Array
  lastUpdateTimestamp: bigint
  padding1: ReadonlyUint8Array
}

/** `RewardInfo`: one farming reward stream. */
export type DlmmRewardInfo = {
  mint: Address
  vault: Address
  funder: Address
  rewardDuration: bigint
  rewardDurationEnd: bigint
  rewardRate: bigint
  lastUpdateTime: bigint
  cumulativeSecondsWithEmptyLiquidityReward: bigint
}

/** `sha256("account:LbPair")[0..8]`, as published in the DLMM IDL. */
export const LB_PAIR_DISCRIMINATOR: ReadonlyUint8Array = new Uint8Array([33, 11, 49, 98, 181, 101, 177, 13])

/** Account size: 8-byte discriminator + the 896-byte struct (mainnet pairs are exactly this long). */
export const LB_PAIR_SIZE = 904

/** `PairType` variants, in IDL order. */
export const DLMM_PAIR_TYPE = {
  Permissionless: 0,
  Permission: 1,
  CustomizablePermissionless: 2,
  PermissionlessV2: 3,
} as const

const REWARD_COUNT = 2 // reward_infos: [RewardInfo; 2]
const BIN_ARRAY_BITMAP_WORDS = 16 // bin_array_bitmap: [u64; 16]

/** A `[u8; size]` field; the sizes passed below are the array lengths the IDL declares. */
function bytes(size: number): FixedSizeCodec<ReadonlyUint8Array> {
  return fixCodecSize(getBytesCodec(), size)
}

function getStaticParametersCodec(): FixedSizeCodec<DlmmStaticParameters> {
  return getStructCodec([
    ['baseFactor', getU16Codec()],
    ['filterPeriod', getU16Codec()],
    ['decayPeriod', getU16Codec()],
    ['reductionFactor', getU16Codec()],
    ['variableFeeControl', getU32Codec()],
    ['maxVolatilityAccumulator', getU32Codec()],
    ['minBinId', getI32Codec()],
    ['maxBinId', getI32Codec()],
    ['protocolShare', getU16Codec()],
    ['baseFeePowerFactor', getU8Codec()],
    ['functionType', getU8Codec()],
    ['collectFeeMode', getU8Codec()],
    ['padding', bytes(3)],
  ])
}

function getVariableParametersCodec(): FixedSizeCodec<DlmmVariableParameters> {
  return getStructCodec([
    ['volatilityAccumulator', getU32Codec()],
    ['volatilityReference', getU32Codec()],
    ['indexReference', getI32Codec()],
    ['padding', bytes(4)],
    ['lastUpdateTimestamp', getI64Codec()],
    ['padding1', bytes(8)],
  ])
}

function getRewardInfoCodec(): FixedSizeCodec<DlmmRewardInfo> {
  return getStructCodec([
    ['mint', getAddressCodec()],
    ['vault', getAddressCodec()],
    ['funder', getAddressCodec()],
    ['rewardDuration', getU64Codec()],
    ['rewardDurationEnd', getU64Codec()],
    ['rewardRate', getU128Codec()],
    ['lastUpdateTime', getU64Codec()],
    ['cumulativeSecondsWithEmptyLiquidityReward', getU64Codec()],
  ])
}

/** Encodes and decodes an `LbPair` (exactly {@link LB_PAIR_SIZE} bytes). */
export function getLbPairCodec(): FixedSizeCodec<LbPair> {
  const key = getAddressCodec()
  const u8 = getU8Codec()
  return withAnchorDiscriminator(
    LB_PAIR_DISCRIMINATOR,
    getStructCodec([
      ['parameters', getStaticParametersCodec()],
      ['vParameters', getVariableParametersCodec()],
      ['bumpSeed', u8],
      ['binStepSeed', getU16Codec()],
      ['pairType', u8],
      ['activeId', getI32Codec()],
      ['binStep', getU16Codec()],
      ['status', u8],
      ['requireBaseFactorSeed', u8],
      ['baseFactorSeed', getU16Codec()],
      ['activationType', u8],
      ['creatorPoolOnOffControl', u8],
      ['tokenXMint', key],
      ['tokenYMint', key],
      ['reserveX', key],
      ['reserveY', key],
      [
        'protocolFee',
        getStructCodec([
          ['amountX', getU64Codec()],
          ['amountY', getU64Codec()],
        ]),
      ],
      ['padding1', bytes(32)],
      ['rewardInfos', getArrayCodec(getRewardInfoCodec(), { size: REWARD_COUNT })],
      ['oracle', key],
      ['binArrayBitmap', getArrayCodec(getU64Codec(), { size: BIN_ARRAY_BITMAP_WORDS })],
      ['lastUpdatedAt', getI64Codec()],
      ['padding2', bytes(32)],
      ['preActivationSwapAddress', key],
      ['baseKey', key],
      ['activationPoint', getU64Codec()],
      ['preActivationDuration', getU64Codec()],
      ['padding3', bytes(8)],
      ['padding4', getU64Codec()],
      ['creator', key],
      ['tokenMintXProgramFlag', u8],
      ['tokenMintYProgramFlag', u8],
      ['version', u8],
      ['reserved', bytes(21)],
    ]),
  )
}

/** The codec, built once (decoding runs on every scan). */
const lbPairCodec = once(getLbPairCodec)

/**
 * Decodes `LbPair` data. `undefined` on a wrong discriminator or fewer than {@link LB_PAIR_SIZE}
 * bytes; longer data is read like Anchor does (the prefix).
 */
export function decodeLbPair(data: ReadonlyUint8Array): LbPair | undefined {
  if (data.length < LB_PAIR_SIZE || !startsWith(data, LB_PAIR_DISCRIMINATOR)) return undefined
  return decodeOrUndefined(lbPairCodec(), data)
}

/**
 * The PDA of a permissionless pair made by `initialize_lb_pair` (the dlmm-sdk CLI derives it with
 * `derive_lb_pair_pda2`): seeds `[min(mintX, mintY), max(mintX, mintY), binStep (u16 LE), baseFactor
 * (u16 LE)]`, the mints ordered by their bytes. Pairs made from a preset parameter account
 * (`initialize_lb_pair2`) and customizable pairs use other seeds.
 */
export async function findLbPairAddress(
  tokenXMint: Address,
  tokenYMint: Address,
  binStep: number,
  baseFactor: number,
): Promise<ProgramDerivedAddress> {
  const key = getAddressEncoder()
  const [low, high] = sortedKeys(key.encode(tokenXMint), key.encode(tokenYMint))
  const u16 = getU16Encoder()
  return derivePda(METEORA_DLMM_PROGRAM_ADDRESS, [
    low as Uint8Array,
    high as Uint8Array,
    u16.encode(binStep) as Uint8Array,
    u16.encode(baseFactor) as Uint8Array,
  ])
}

/** Two public keys in Rust's `Pubkey` order (lexicographic over the 32 bytes). */
function sortedKeys(a: ReadonlyUint8Array, b: ReadonlyUint8Array): [ReadonlyUint8Array, ReadonlyUint8Array] {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? [a, b] : [b, a]
  }
  return [a, b]
}

/** A pair's reserve token account: seeds `[lbPair, mint]` under DLMM (`derive_reserve_pda`). */
export async function findDlmmReserveAddress(lbPair: Address, mint: Address): Promise<ProgramDerivedAddress> {
  return derivePda(METEORA_DLMM_PROGRAM_ADDRESS, [addressSeed(lbPair), addressSeed(mint)])
}

/** A pair's oracle account: seeds `["oracle", lbPair]` under DLMM (`derive_oracle_pda`). */
export async function findDlmmOracleAddress(lbPair: Address): Promise<ProgramDerivedAddress> {
  return derivePda(METEORA_DLMM_PROGRAM_ADDRESS, ['oracle', addressSeed(lbPair)])
}
