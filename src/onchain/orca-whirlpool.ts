import {
  fixCodecSize,
  getAddressCodec,
  getArrayCodec,
  getBytesCodec,
  getI32Codec,
  getStructCodec,
  getU128Codec,
  getU16Codec,
  getU16Encoder,
  getU64Codec,
  getU8Codec,
  type Address,
  type FixedSizeCodec,
  type ProgramDerivedAddress,
  type ReadonlyUint8Array,
} from '@solana/kit'
import { addressSeed, derivePda } from './pda.ts'
import { decodeOrUndefined, once, startsWith, withAnchorDiscriminator } from './anchor.ts'
import { ORCA_WHIRLPOOL_PROGRAM_ADDRESS } from './programs.ts'

/**
 * Orca `Whirlpool`, the concentrated-liquidity pool account (Borsh, Anchor `#[account]`).
 * Layout: orca-so/whirlpools `programs/whirlpool/src/state/whirlpool.rs` (snapshot of 2026-08-18),
 * whose `Whirlpool::LEN` is {@link WHIRLPOOL_SIZE}. Positions are NFTs, so LP burn does not apply.
 */
export type Whirlpool = {
  whirlpoolsConfig: Address
  /** `whirlpool_bump: [u8; 1]`, the bump of the pool PDA. */
  whirlpoolBump: number
  tickSpacing: number
  /** `fee_tier_index_seed: [u8; 2]`: the fee-tier index as u16 LE (equal to the tick spacing on older pools). */
  feeTierIndexSeed: number
  /** Hundredths of a basis point. */
  feeRate: number
  /** Basis points of the fee taken by the protocol. */
  protocolFeeRate: number
  liquidity: bigint
  /** Q64.64 square root of the price of A in B. */
  sqrtPrice: bigint
  tickCurrentIndex: number
  protocolFeeOwedA: bigint
  protocolFeeOwedB: bigint
  tokenMintA: Address
  tokenVaultA: Address
  feeGrowthGlobalA: bigint
  tokenMintB: Address
  tokenVaultB: Address
  feeGrowthGlobalB: bigint
  rewardLastUpdatedTimestamp: bigint
  rewardInfos: WhirlpoolRewardInfo[]
}

/** `WhirlpoolRewardInfo`; slot 0's `extension` holds the reward authority, slots 1–2 pool extensions. */
export type WhirlpoolRewardInfo = {
  mint: Address
  vault: Address
  extension: ReadonlyUint8Array
  emissionsPerSecondX64: bigint
  growthGlobalX64: bigint
}

/** `sha256("account:Whirlpool")[0..8]`. */
export const WHIRLPOOL_DISCRIMINATOR: ReadonlyUint8Array = new Uint8Array([63, 149, 209, 12, 225, 128, 99, 9])

/** `Whirlpool::LEN` = 8 + 261 + 384 (three 128-byte reward infos). */
export const WHIRLPOOL_SIZE = 653

/** `NUM_REWARDS` in whirlpool.rs. */
export const WHIRLPOOL_REWARD_COUNT = 3

const EXTENSION_BYTES = 32 // WhirlpoolRewardInfo.extension: [u8; 32]

function getWhirlpoolRewardInfoCodec(): FixedSizeCodec<WhirlpoolRewardInfo> {
  return getStructCodec([
    ['mint', getAddressCodec()],
    ['vault', getAddressCodec()],
    ['extension', fixCodecSize(getBytesCodec(), EXTENSION_BYTES)],
    ['emissionsPerSecondX64', getU128Codec()],
    ['growthGlobalX64', getU128Codec()],
  ])
}

/** Encodes and decodes a `Whirlpool` (exactly {@link WHIRLPOOL_SIZE} bytes). */
export function getWhirlpoolCodec(): FixedSizeCodec<Whirlpool> {
  const key = getAddressCodec()
  return withAnchorDiscriminator(
    WHIRLPOOL_DISCRIMINATOR,
    getStructCodec([
      ['whirlpoolsConfig', key],
      ['whirlpoolBump', getU8Codec()],
      ['tickSpacing', getU16Codec()],
      ['feeTierIndexSeed', getU16Codec()],
      ['feeRate', getU16Codec()],
      ['protocolFeeRate', getU16Codec()],
      ['liquidity', getU128Codec()],
      ['sqrtPrice', getU128Codec()],
      ['tickCurrentIndex', getI32Codec()],
      ['protocolFeeOwedA', getU64Codec()],
      ['protocolFeeOwedB', getU64Codec()],
      ['tokenMintA', key],
      ['tokenVaultA', key],
      ['feeGrowthGlobalA', getU128Codec()],
      ['tokenMintB', key],
      ['tokenVaultB', key],
      ['feeGrowthGlobalB', getU128Codec()],
      ['rewardLastUpdatedTimestamp', getU64Codec()],
      ['rewardInfos', getArrayCodec(getWhirlpoolRewardInfoCodec(), { size: WHIRLPOOL_REWARD_COUNT })],
    ]),
  )
}

/** The codec, built once (decoding runs on every scan). */
const whirlpoolCodec = once(getWhirlpoolCodec)

/**
 * Decodes Whirlpool data. `undefined` on a wrong discriminator or fewer than {@link WHIRLPOOL_SIZE}
 * bytes; longer data is read like Anchor does (the prefix).
 */
export function decodeWhirlpool(data: ReadonlyUint8Array): Whirlpool | undefined {
  if (data.length < WHIRLPOOL_SIZE || !startsWith(data, WHIRLPOOL_DISCRIMINATOR)) return undefined
  return decodeOrUndefined(whirlpoolCodec(), data)
}

/**
 * A pool's PDA (`Whirlpool::seeds`): `["whirlpool", config, mintA, mintB, fee tier index (u16 LE)]`
 * under the Whirlpool program.
 */
export async function findWhirlpoolAddress(
  whirlpoolsConfig: Address,
  tokenMintA: Address,
  tokenMintB: Address,
  feeTierIndexSeed: number,
): Promise<ProgramDerivedAddress> {
  return derivePda(ORCA_WHIRLPOOL_PROGRAM_ADDRESS, [
    'whirlpool',
    addressSeed(whirlpoolsConfig),
    addressSeed(tokenMintA),
    addressSeed(tokenMintB),
    getU16Encoder().encode(feeTierIndexSeed) as Uint8Array,
  ])
}
