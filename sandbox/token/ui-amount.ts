import { formatF64Fixed, powF64 } from './rust-float.ts'

/**
 * Token amounts as the RPC prints them (`UiTokenAmount` in agave `account-decoder-client-types`,
 * computed by `token_amount_to_ui_amount_v3` in `account-decoder/src/parse_token.rs`).
 */
export type UiTokenAmount = {
  /** `amount / 10^decimals` as an f64; null when 10^decimals overflows a u64 or the value is not finite. */
  uiAmount: number | null
  decimals: number
  /** The raw u64 amount as a decimal string. */
  amount: string
  /** The UI amount with trailing zeros trimmed; empty when interest cannot be computed. */
  uiAmountString: string
}

/** The InterestBearingConfig numbers that enter the UI amount (token-2022 `interest_bearing_mint`). */
export type InterestBearingRates = {
  initializationTimestamp: bigint
  /** Basis points, i16. */
  preUpdateAverageRate: number
  lastUpdateTimestamp: bigint
  /** Basis points, i16. */
  currentRate: number
}

/** The ScaledUiAmountConfig numbers that enter the UI amount (token-2022 `scaled_ui_amount`). */
export type ScaledUiAmountMultipliers = {
  multiplier: number
  newMultiplierEffectiveTimestamp: bigint
  newMultiplier: number
}

/**
 * What the RPC knows about a token account's mint when it prints amounts (`SplTokenAdditionalDataV2`):
 * the decimals and, for interest-bearing or scaled-UI-amount mints, the config with the bank clock's
 * unix timestamp. A plain number is shorthand for `{ decimals }`.
 */
export type MintAmountInfo = {
  decimals: number
  interestBearing?: { config: InterestBearingRates; unixTimestamp: bigint }
  scaledUiAmount?: { config: ScaledUiAmountMultipliers; unixTimestamp: bigint }
}

const ONE_IN_BASIS_POINTS = 10_000
const SECONDS_PER_YEAR = 60 * 60 * 24 * 365.24
const I64_MIN = -(1n << 63n)
const I64_MAX = (1n << 63n) - 1n
/** 10^decimals must fit a 64-bit usize for the RPC to print a uiAmount (`checked_pow`). */
const U64_MAX = (1n << 64n) - 1n

/** `real_number_string_trimmed`: the exact decimal value with trailing zeros (and a bare point) cut. */
export function realNumberStringTrimmed(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString()
  const padded = amount.toString().padStart(decimals + 1, '0')
  const text = `${padded.slice(0, padded.length - decimals)}.${padded.slice(padded.length - decimals)}`
  return trimUiAmountString(text, decimals)
}

/** token-2022 `trim_ui_amount_string`. */
function trimUiAmountString(text: string, decimals: number): string {
  if (decimals === 0) return text
  return text.replace(/0+$/, '').replace(/\.$/, '')
}

/** A u64 amount as the RPC prints it for a mint with the given decimals and amount-scaling config. */
export function tokenAmountToUiAmount(amount: bigint, info: MintAmountInfo): UiTokenAmount {
  const { decimals } = info
  let uiAmount: number | null
  let uiAmountString: string
  if (info.interestBearing) {
    const text = interestUiAmount(info.interestBearing.config, amount, decimals, info.interestBearing.unixTimestamp)
    uiAmount = text === undefined ? null : rustParseF64(text)
    uiAmountString = text ?? ''
  } else if (info.scaledUiAmount) {
    const text = scaledUiAmount(info.scaledUiAmount.config, amount, decimals, info.scaledUiAmount.unixTimestamp)
    uiAmount = rustParseF64(text)
    uiAmountString = text
  } else {
    const divisor = 10n ** BigInt(decimals)
    uiAmount = divisor > U64_MAX ? null : Number(amount) / Number(divisor)
    uiAmountString = realNumberStringTrimmed(amount, decimals)
  }
  // serde_json writes a non-finite f64 as null
  if (uiAmount !== null && !Number.isFinite(uiAmount)) uiAmount = null
  return { uiAmount, decimals, amount: amount.toString(), uiAmountString }
}

/** `f64::from_str` on the strings Rust's fixed formatting produces (digits, `inf`, `NaN`). */
function rustParseF64(text: string): number {
  if (text === 'inf') return Infinity
  if (text === '-inf') return -Infinity
  return Number(text)
}

/** `InterestBearingConfig::amount_to_ui_amount`; undefined where Rust's checked arithmetic fails. */
function interestUiAmount(
  config: InterestBearingRates,
  amount: bigint,
  decimals: number,
  unixTimestamp: bigint,
): string | undefined {
  const preExp = rateExp(config.preUpdateAverageRate, config.lastUpdateTimestamp - config.initializationTimestamp)
  const postExp = rateExp(config.currentRate, unixTimestamp - config.lastUpdateTimestamp)
  if (preExp === undefined || postExp === undefined) return undefined
  const totalScale = (preExp * postExp) / powF64(10, decimals)
  return trimUiAmountString(formatF64Fixed(Number(amount) * totalScale, decimals), decimals)
}

/** exp(rate × timespan / year / 10^4), or undefined when the i64 timespan overflows. */
function rateExp(rate: number, timespan: bigint): number | undefined {
  if (timespan < I64_MIN || timespan > I64_MAX) return undefined
  // i128 product, then `as f64` (round to nearest, as Number(bigint) does)
  const numerator = Number(BigInt(rate) * timespan)
  return Math.exp(numerator / SECONDS_PER_YEAR / ONE_IN_BASIS_POINTS)
}

/** `ScaledUiAmountConfig::amount_to_ui_amount`. */
function scaledUiAmount(
  config: ScaledUiAmountMultipliers,
  amount: bigint,
  decimals: number,
  unixTimestamp: bigint,
): string {
  const multiplier = unixTimestamp >= config.newMultiplierEffectiveTimestamp ? config.newMultiplier : config.multiplier
  const scaled = Number(amount) * (multiplier / powF64(10, decimals))
  return trimUiAmountString(formatF64Fixed(scaled, decimals), decimals)
}
