import {
  getAddressCodec,
  getBooleanCodec,
  getI128Codec,
  getStructCodec,
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
import {
  ANCHOR_DISCRIMINATOR_SIZE,
  decodeOrUndefined,
  once,
  startsWith,
  withAnchorDiscriminator,
  zeroPadded,
} from './anchor.ts'
import { PUMP_AMM_PROGRAM_ADDRESS, PUMP_PROGRAM_ADDRESS, WRAPPED_SOL_MINT_ADDRESS } from './programs.ts'

/**
 * PumpSwap `Pool` account, one per pool; graduated pump.fun coins get the canonical pool (index 0,
 * created by the pump program's `pool-authority` PDA).
 *
 * Layout: the `Pool` type of pump-fun/pump-public-docs `idl/pump_amm.json` (snapshot of 2026-05-19)
 * through `is_cashback_coin`; `virtual_quote_reserves`, `creator_fee_bps`, `can_edit_creator_fee` and
 * `is_holder_reward` from the same file's 2026-09-12 refresh (commit e0687ae9), as recorded with live
 * mainnet bytes in a public verification note and matched by an independent decoder. The newest pump
 * SDK counts 16 more bytes (`POOL_SIZE = 287`, fee buckets named `protocolFees`/`creatorFees`) whose
 * order and types no source here shows: they are not decoded. Like the bonding curve, pools only grow
 * (`extend_account` to at least 300 bytes): shorter accounts read with a zero tail.
 *
 * The discriminator is shared with Meteora DAMM v2's `Pool` (both hash `account:Pool`): check the
 * account owner before trusting a decode.
 */
export type PumpPool = {
  /** Bump of the pool PDA. */
  poolBump: number
  /** PDA index; canonical (migrated) pools use 0. */
  index: number
  /** Canonical pools: the pump program's `pool-authority` PDA of `baseMint`. */
  creator: Address
  baseMint: Address
  quoteMint: Address
  /** Token-2022 LP mint, PDA `["pool_lp_mint", pool]`. */
  lpMint: Address
  /** Associated token account of the pool for `baseMint`. */
  poolBaseTokenAccount: Address
  /** Associated token account of the pool for `quoteMint`. */
  poolQuoteTokenAccount: Address
  /** LP supply minted by deposits, not reduced by burns or lock-ups outside `withdraw`. */
  lpSupply: bigint
  /** The creator paid the creator fee; the all-zero key on non-canonical or pre-creator-fee pools. */
  coinCreator: Address
  isMayhemMode: boolean
  isCashbackCoin: boolean
  /** Signed quote added to the vault balance when pricing ("boosted" pools); 0 elsewhere. */
  virtualQuoteReserves: bigint
  creatorFeeBps: bigint
  canEditCreatorFee: boolean
  isHolderReward: boolean
}

/** `sha256("account:Pool")[0..8]`, as published in the pump_amm IDL. */
export const PUMP_POOL_DISCRIMINATOR: ReadonlyUint8Array = new Uint8Array([241, 154, 109, 4, 17, 177, 109, 188])

/** Bytes of the decoded layout, discriminator included: 8 + u8 + u16 + 6 keys + u64 + key + 2×bool + i128 + u64 + 2×bool. */
export const PUMP_POOL_SIZE = 271

/** The first pool layout ended after `lp_supply` (the SDK lists 211 as the oldest pool length). */
export const PUMP_POOL_MIN_SIZE = ANCHOR_DISCRIMINATOR_SIZE + 1 + 2 + 6 * 32 + 8

/** The size PumpSwap's `extend_account` grows older pools to (`POOL_ACCOUNT_NEW_SIZE` in the pump SDKs). */
export const PUMP_POOL_ALLOCATED_SIZE = 300

/** The pool index the pump program's `migrate` uses (`CANONICAL_POOL_INDEX`). */
export const CANONICAL_POOL_INDEX = 0

/** Encodes and decodes the layout above (exactly {@link PUMP_POOL_SIZE} bytes). */
export function getPumpPoolCodec(): FixedSizeCodec<PumpPool> {
  return withAnchorDiscriminator(
    PUMP_POOL_DISCRIMINATOR,
    getStructCodec([
      ['poolBump', getU8Codec()],
      ['index', getU16Codec()],
      ['creator', getAddressCodec()],
      ['baseMint', getAddressCodec()],
      ['quoteMint', getAddressCodec()],
      ['lpMint', getAddressCodec()],
      ['poolBaseTokenAccount', getAddressCodec()],
      ['poolQuoteTokenAccount', getAddressCodec()],
      ['lpSupply', getU64Codec()],
      ['coinCreator', getAddressCodec()],
      ['isMayhemMode', getBooleanCodec()],
      ['isCashbackCoin', getBooleanCodec()],
      ['virtualQuoteReserves', getI128Codec()],
      ['creatorFeeBps', getU64Codec()],
      ['canEditCreatorFee', getBooleanCodec()],
      ['isHolderReward', getBooleanCodec()],
    ]),
  )
}

/** The codec, built once (decoding runs on every scan). */
const pumpPoolCodec = once(getPumpPoolCodec)

/**
 * Decodes PumpSwap pool data of any mainnet length (older, shorter pools read with a zero tail; bytes
 * past the layout are ignored). `undefined` on a wrong discriminator or data shorter than
 * {@link PUMP_POOL_MIN_SIZE}.
 */
export function decodePumpPool(data: ReadonlyUint8Array): PumpPool | undefined {
  if (data.length < PUMP_POOL_MIN_SIZE || !startsWith(data, PUMP_POOL_DISCRIMINATOR)) return undefined
  return decodeOrUndefined(pumpPoolCodec(), zeroPadded(data, PUMP_POOL_SIZE))
}

/** A pool's PDA: seeds `["pool", index (u16 LE), creator, baseMint, quoteMint]` under PumpSwap. */
export async function findPumpPoolAddress(
  index: number,
  creator: Address,
  baseMint: Address,
  quoteMint: Address,
): Promise<ProgramDerivedAddress> {
  return derivePda(PUMP_AMM_PROGRAM_ADDRESS, [
    'pool',
    getU16Encoder().encode(index) as Uint8Array,
    addressSeed(creator),
    addressSeed(baseMint),
    addressSeed(quoteMint),
  ])
}

/**
 * The pump program's `pool-authority` PDA of `baseMint` (seeds `["pool-authority", mint]` under pump):
 * the `creator` of the coin's canonical PumpSwap pool, which is how a pool is recognised as a
 * graduated pump.fun coin.
 */
export async function findPumpPoolAuthorityAddress(baseMint: Address): Promise<ProgramDerivedAddress> {
  return derivePda(PUMP_PROGRAM_ADDRESS, ['pool-authority', addressSeed(baseMint)])
}

/** The canonical pool a graduated coin migrates to: index 0, created by its `pool-authority`. */
export async function findCanonicalPumpPoolAddress(
  baseMint: Address,
  quoteMint: Address = WRAPPED_SOL_MINT_ADDRESS,
): Promise<ProgramDerivedAddress> {
  const [authority] = await findPumpPoolAuthorityAddress(baseMint)
  return findPumpPoolAddress(CANONICAL_POOL_INDEX, authority, baseMint, quoteMint)
}

/** A pool's LP mint: seeds `["pool_lp_mint", pool]` under PumpSwap. */
export async function findPumpPoolLpMintAddress(pool: Address): Promise<ProgramDerivedAddress> {
  return derivePda(PUMP_AMM_PROGRAM_ADDRESS, ['pool_lp_mint', addressSeed(pool)])
}
