import {
  fixCodecSize,
  getAddressCodec,
  getArrayCodec,
  getBooleanCodec,
  getBytesCodec,
  getStructCodec,
  getU64Codec,
  getU8Codec,
  type Address,
  type FixedSizeCodec,
  type ReadonlyUint8Array,
} from '@solana/kit'
import { decodeOrUndefined, once, startsWith, withAnchorDiscriminator } from './anchor.ts'

/**
 * Raydium CPMM `PoolState`, the pool account: an Anchor `zero_copy` `#[repr(C, packed)]` struct.
 * Layout: raydium-io/raydium-cp-swap `programs/cp-swap/src/states/pool.rs` (snapshot of 2025-12-29),
 * whose `PoolState::LEN` is {@link CPMM_POOL_STATE_SIZE}.
 */
export type CpmmPoolState = {
  ammConfig: Address
  poolCreator: Address
  token0Vault: Address
  token1Vault: Address
  lpMint: Address
  token0Mint: Address
  token1Mint: Address
  token0Program: Address
  token1Program: Address
  observationKey: Address
  authBump: number
  /** Bit flags, each set bit disables one action: see {@link CPMM_POOL_STATUS_BIT}. */
  status: number
  lpMintDecimals: number
  mint0Decimals: number
  mint1Decimals: number
  /** LP supply minted by deposits ("true circulating supply without burns and lock ups"). */
  lpSupply: bigint
  protocolFeesToken0: bigint
  protocolFeesToken1: bigint
  fundFeesToken0: bigint
  fundFeesToken1: bigint
  /** Unix seconds from which swaps are allowed. */
  openTime: bigint
  recentEpoch: bigint
  /** 0: fee in either token (the input), 1: only token0, 2: only token1. */
  creatorFeeOn: number
  enableCreatorFee: boolean
  padding1: ReadonlyUint8Array
  creatorFeesToken0: bigint
  creatorFeesToken1: bigint
  padding: bigint[]
}

/** `sha256("account:PoolState")[0..8]`. */
export const CPMM_POOL_STATE_DISCRIMINATOR: ReadonlyUint8Array = new Uint8Array([247, 237, 227, 245, 215, 195, 222, 70])

/** `PoolState::LEN` = 8 + 10×32 + 5 + 8×7 + 2 + 6 + 2×8 + 8×28. */
export const CPMM_POOL_STATE_SIZE = 637

/** Bits of `status` (`PoolStatusBitIndex`): a set bit disables the action. */
export const CPMM_POOL_STATUS_BIT = { Deposit: 1, Withdraw: 2, Swap: 4 } as const

const PADDING1_BYTES = 6 // PoolState.padding1: [u8; 6]
const PADDING_WORDS = 28 // PoolState.padding: [u64; 28]

/** Encodes and decodes a `PoolState` (exactly {@link CPMM_POOL_STATE_SIZE} bytes). */
export function getCpmmPoolStateCodec(): FixedSizeCodec<CpmmPoolState> {
  const key = getAddressCodec()
  const u8 = getU8Codec()
  const u64 = getU64Codec()
  return withAnchorDiscriminator(
    CPMM_POOL_STATE_DISCRIMINATOR,
    getStructCodec([
      ['ammConfig', key],
      ['poolCreator', key],
      ['token0Vault', key],
      ['token1Vault', key],
      ['lpMint', key],
      ['token0Mint', key],
      ['token1Mint', key],
      ['token0Program', key],
      ['token1Program', key],
      ['observationKey', key],
      ['authBump', u8],
      ['status', u8],
      ['lpMintDecimals', u8],
      ['mint0Decimals', u8],
      ['mint1Decimals', u8],
      ['lpSupply', u64],
      ['protocolFeesToken0', u64],
      ['protocolFeesToken1', u64],
      ['fundFeesToken0', u64],
      ['fundFeesToken1', u64],
      ['openTime', u64],
      ['recentEpoch', u64],
      ['creatorFeeOn', u8],
      ['enableCreatorFee', getBooleanCodec()],
      ['padding1', fixCodecSize(getBytesCodec(), PADDING1_BYTES)],
      ['creatorFeesToken0', u64],
      ['creatorFeesToken1', u64],
      ['padding', getArrayCodec(u64, { size: PADDING_WORDS })],
    ]),
  )
}

/** The codec, built once (decoding runs on every scan). */
const cpmmPoolStateCodec = once(getCpmmPoolStateCodec)

/**
 * Decodes CPMM pool data. `undefined` on a wrong discriminator or fewer than
 * {@link CPMM_POOL_STATE_SIZE} bytes; longer data is read like Anchor does (the prefix).
 */
export function decodeCpmmPoolState(data: ReadonlyUint8Array): CpmmPoolState | undefined {
  if (data.length < CPMM_POOL_STATE_SIZE || !startsWith(data, CPMM_POOL_STATE_DISCRIMINATOR)) return undefined
  return decodeOrUndefined(cpmmPoolStateCodec(), data)
}
