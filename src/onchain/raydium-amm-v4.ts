import {
  getAddressCodec,
  getArrayCodec,
  getStructCodec,
  getU128Codec,
  getU64Codec,
  type Address,
  type FixedSizeCodec,
  type ReadonlyUint8Array,
} from '@solana/kit'
import { decodeOrUndefined, once } from './anchor.ts'

/**
 * Raydium AMM v4 `AmmInfo`, the pool account. Not an Anchor account: a `#[repr(C, packed)]` struct
 * read in place, with no discriminator; the program recognises it by owner and exact length
 * (`load_checked` refuses any other size). Layout: raydium-io/raydium-amm `program/src/state.rs`
 * (`AmmInfo`, `Fees`, `StateData`), snapshot of 2026-07-23. Field names follow the source; older
 * TypeScript SDK layouts call `coinVault`/`pcVault` `baseVault`/`quoteVault` and `lpAmount` `lpReserve`.
 */
export type AmmInfo = {
  /** An {@link AMM_STATUS} value. */
  status: bigint
  /** Bump of the pool authority PDA (`["amm authority"]`), shared by every pool. */
  nonce: bigint
  orderNum: bigint
  depth: bigint
  coinDecimals: bigint
  pcDecimals: bigint
  state: bigint
  resetFlag: bigint
  minSize: bigint
  volMaxCutRatio: bigint
  amountWave: bigint
  coinLotSize: bigint
  pcLotSize: bigint
  minPriceMultiplier: bigint
  maxPriceMultiplier: bigint
  sysDecimalValue: bigint
  fees: AmmFees
  stateData: AmmStateData
  /** Token account holding the coin (base) side. */
  coinVault: Address
  /** Token account holding the pc (quote) side. */
  pcVault: Address
  coinVaultMint: Address
  pcVaultMint: Address
  lpMint: Address
  openOrders: Address
  market: Address
  marketProgram: Address
  targetOrders: Address
  padding1: bigint[]
  ammOwner: Address
  /** LP tokens the pool has minted and not seen withdrawn ("pool lp amount"): the initial-LP reference for burn share. */
  lpAmount: bigint
  clientOrderId: bigint
  recentEpoch: bigint
  padding2: bigint
}

/** `Fees`: fee fractions as numerator/denominator pairs. */
export type AmmFees = {
  minSeparateNumerator: bigint
  minSeparateDenominator: bigint
  tradeFeeNumerator: bigint
  tradeFeeDenominator: bigint
  pnlNumerator: bigint
  pnlDenominator: bigint
  swapFeeNumerator: bigint
  swapFeeDenominator: bigint
}

/** `StateData`: PnL bookkeeping, the open time, and counters the program no longer updates. */
export type AmmStateData = {
  needTakePnlCoin: bigint
  needTakePnlPc: bigint
  totalPnlPc: bigint
  totalPnlCoin: bigint
  /** Unix seconds from which swaps are allowed. */
  poolOpenTime: bigint
  padding: bigint[]
  orderbookToInitTime: bigint
  swapCoinInAmount: bigint
  swapPcOutAmount: bigint
  swapAccPcFee: bigint
  swapPcInAmount: bigint
  swapCoinOutAmount: bigint
  swapAccCoinFee: bigint
}

/** `size_of::<AmmInfo>()`: 16 u64 + Fees (64) + StateData (144) + 9 keys + 8 u64 + key + 4 u64. */
export const AMM_INFO_SIZE = 752

/** `AmmStatus` (state.rs): what the pool currently allows. */
export const AMM_STATUS = {
  Uninitialized: 0n,
  Initialized: 1n,
  Disabled: 2n,
  WithdrawOnly: 3n,
  /** Deposits and withdrawals only: no swaps, no orders. */
  LiquidityOnly: 4n,
  /** Liquidity and orders, no swaps. */
  OrderBookOnly: 5n,
  /** Liquidity and swaps, no orders: the usual state of a live pool. */
  SwapOnly: 6n,
  /** Created, waiting for `poolOpenTime`; becomes SwapOnly at the first swap after it. */
  WaitingTrade: 7n,
} as const

const STATE_DATA_PADDING_WORDS = 2 // StateData.padding: [u64; 2]
const PADDING1_WORDS = 8 // AmmInfo.padding1: [u64; 8]

function getAmmFeesCodec(): FixedSizeCodec<AmmFees> {
  const u64 = getU64Codec()
  return getStructCodec([
    ['minSeparateNumerator', u64],
    ['minSeparateDenominator', u64],
    ['tradeFeeNumerator', u64],
    ['tradeFeeDenominator', u64],
    ['pnlNumerator', u64],
    ['pnlDenominator', u64],
    ['swapFeeNumerator', u64],
    ['swapFeeDenominator', u64],
  ])
}

function getAmmStateDataCodec(): FixedSizeCodec<AmmStateData> {
  const u64 = getU64Codec()
  const u128 = getU128Codec()
  return getStructCodec([
    ['needTakePnlCoin', u64],
    ['needTakePnlPc', u64],
    ['totalPnlPc', u64],
    ['totalPnlCoin', u64],
    ['poolOpenTime', u64],
    ['padding', getArrayCodec(u64, { size: STATE_DATA_PADDING_WORDS })],
    ['orderbookToInitTime', u64],
    ['swapCoinInAmount', u128],
    ['swapPcOutAmount', u128],
    ['swapAccPcFee', u64],
    ['swapPcInAmount', u128],
    ['swapCoinOutAmount', u128],
    ['swapAccCoinFee', u64],
  ])
}

/** Encodes and decodes an `AmmInfo` (exactly {@link AMM_INFO_SIZE} bytes). */
export function getAmmInfoCodec(): FixedSizeCodec<AmmInfo> {
  const u64 = getU64Codec()
  const key = getAddressCodec()
  return getStructCodec([
    ['status', u64],
    ['nonce', u64],
    ['orderNum', u64],
    ['depth', u64],
    ['coinDecimals', u64],
    ['pcDecimals', u64],
    ['state', u64],
    ['resetFlag', u64],
    ['minSize', u64],
    ['volMaxCutRatio', u64],
    ['amountWave', u64],
    ['coinLotSize', u64],
    ['pcLotSize', u64],
    ['minPriceMultiplier', u64],
    ['maxPriceMultiplier', u64],
    ['sysDecimalValue', u64],
    ['fees', getAmmFeesCodec()],
    ['stateData', getAmmStateDataCodec()],
    ['coinVault', key],
    ['pcVault', key],
    ['coinVaultMint', key],
    ['pcVaultMint', key],
    ['lpMint', key],
    ['openOrders', key],
    ['market', key],
    ['marketProgram', key],
    ['targetOrders', key],
    ['padding1', getArrayCodec(u64, { size: PADDING1_WORDS })],
    ['ammOwner', key],
    ['lpAmount', u64],
    ['clientOrderId', u64],
    ['recentEpoch', u64],
    ['padding2', u64],
  ])
}

/** The codec, built once (decoding runs on every scan). */
const ammInfoCodec = once(getAmmInfoCodec)

/**
 * Decodes AMM v4 pool data. `undefined` unless the data is exactly {@link AMM_INFO_SIZE} bytes, the
 * same test the program applies (the program's OpenOrders/TargetOrders accounts have other sizes).
 */
export function decodeAmmInfo(data: ReadonlyUint8Array): AmmInfo | undefined {
  if (data.length !== AMM_INFO_SIZE) return undefined
  return decodeOrUndefined(ammInfoCodec(), data)
}
