import {
  getAddressCodec,
  getBooleanCodec,
  getStructCodec,
  getU64Codec,
  type Address,
  type FixedSizeCodec,
  type ProgramDerivedAddress,
  type ReadonlyUint8Array,
} from '@solana/kit'
import {
  ANCHOR_DISCRIMINATOR_SIZE,
  decodeOrUndefined,
  once,
  startsWith,
  withAnchorDiscriminator,
  zeroPadded,
} from './anchor.ts'
import { addressSeed, derivePda, findAssociatedTokenAddress } from './pda.ts'
import { PUMP_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from './programs.ts'

/**
 * pump.fun `BondingCurve` account, one per coin while it trades on the curve.
 *
 * Layout: the `BondingCurve` type of pump-fun/pump-public-docs `idl/pump.json` (snapshot of 2026-05-19)
 * through `quote_mint`; `creator_fee_bps`, `can_edit_creator_fee` and `is_holder_reward` come from the
 * same file at commit f216b672 (a later refresh, read through a copy of its type table). The program
 * only ever appends fields and grows accounts with `extend_account`, so mainnet accounts have several
 * lengths (the docs mention 150 bytes; the current SDK extends to 151; freshly created curves have been
 * seen at 115): a shorter one reads as if the missing tail were zero, a longer one carries zero bytes
 * past the last field.
 */
export type BondingCurve = {
  virtualTokenReserves: bigint
  /** Lamports for SOL-paired coins; `virtual_sol_reserves` before the USDC-pairing upgrade renamed it. */
  virtualQuoteReserves: bigint
  realTokenReserves: bigint
  /** `real_sol_reserves` before the rename; native SOL the curve holds for SOL-paired coins. */
  realQuoteReserves: bigint
  tokenTotalSupply: bigint
  /** Set when the last real token is bought: the coin then migrates to a PumpSwap pool. */
  complete: boolean
  /** Coin creator, paid the creator fee; the all-zero key on curves older than creator fees. */
  creator: Address
  isMayhemMode: boolean
  isCashbackCoin: boolean
  /** The all-zero key for every SOL-paired coin (all coins created before USDC pairing). */
  quoteMint: Address
  creatorFeeBps: bigint
  canEditCreatorFee: boolean
  isHolderReward: boolean
}

/** `sha256("account:BondingCurve")[0..8]`, as published in the pump IDL. */
export const BONDING_CURVE_DISCRIMINATOR: ReadonlyUint8Array = new Uint8Array([23, 183, 248, 55, 96, 216, 172, 96])

/** Bytes of the full current layout, discriminator included: 8 + 5×u64 + bool + key + 2×bool + key + u64 + 2×bool. */
export const BONDING_CURVE_SIZE = 125

/**
 * The shortest account that still holds every field of the original 2024 layout (discriminator,
 * five reserves/supply u64s and `complete`). Anything shorter is not a bonding curve.
 */
export const BONDING_CURVE_MIN_SIZE = ANCHOR_DISCRIMINATOR_SIZE + 5 * 8 + 1

/** PDA seed prefix of a coin's bonding curve: `["bonding-curve", mint]` under the pump program. */
export const BONDING_CURVE_SEED = 'bonding-curve'

/** Encodes and decodes the full current layout (exactly {@link BONDING_CURVE_SIZE} bytes). */
export function getBondingCurveCodec(): FixedSizeCodec<BondingCurve> {
  return withAnchorDiscriminator(
    BONDING_CURVE_DISCRIMINATOR,
    getStructCodec([
      ['virtualTokenReserves', getU64Codec()],
      ['virtualQuoteReserves', getU64Codec()],
      ['realTokenReserves', getU64Codec()],
      ['realQuoteReserves', getU64Codec()],
      ['tokenTotalSupply', getU64Codec()],
      ['complete', getBooleanCodec()],
      ['creator', getAddressCodec()],
      ['isMayhemMode', getBooleanCodec()],
      ['isCashbackCoin', getBooleanCodec()],
      ['quoteMint', getAddressCodec()],
      ['creatorFeeBps', getU64Codec()],
      ['canEditCreatorFee', getBooleanCodec()],
      ['isHolderReward', getBooleanCodec()],
    ]),
  )
}

/** The codec, built once (decoding runs on every scan). */
const bondingCurveCodec = once(getBondingCurveCodec)

/**
 * Decodes bonding-curve account data of any mainnet length: fields a shorter (older) account lacks
 * read as zero, as the program reads them after `extend_account`; bytes past the layout are ignored.
 * `undefined` when the discriminator is wrong or the data is shorter than {@link BONDING_CURVE_MIN_SIZE}.
 */
export function decodeBondingCurve(data: ReadonlyUint8Array): BondingCurve | undefined {
  if (data.length < BONDING_CURVE_MIN_SIZE || !startsWith(data, BONDING_CURVE_DISCRIMINATOR)) return undefined
  return decodeOrUndefined(bondingCurveCodec(), zeroPadded(data, BONDING_CURVE_SIZE))
}

/** The bonding curve PDA of `mint`: seeds `["bonding-curve", mint]` under the pump program. */
export async function findBondingCurveAddress(mint: Address): Promise<ProgramDerivedAddress> {
  return derivePda(PUMP_PROGRAM_ADDRESS, [BONDING_CURVE_SEED, addressSeed(mint)])
}

/**
 * The bonding curve's token account (`associated_bonding_curve` in the IDL): the associated token
 * account of the curve PDA for `mint`. Pass Token-2022 for coins made by `create_v2`.
 */
export async function findAssociatedBondingCurveAddress(
  mint: Address,
  tokenProgram: Address = TOKEN_PROGRAM_ADDRESS,
): Promise<ProgramDerivedAddress> {
  const [bondingCurve] = await findBondingCurveAddress(mint)
  return findAssociatedTokenAddress(bondingCurve, mint, tokenProgram)
}
