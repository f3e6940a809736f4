import { getBase58Encoder } from '@solana/kit'

/**
 * Parsers for what Jupiter's Rust service parses (u64 amounts, pubkeys, bools), failing with the
 * reasons Rust gives, because Jupiter prints those reasons verbatim in its 400 and 422 answers.
 */

/** A parsed value, or the reason Rust would give for refusing the text. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string }

/** How Rust's integer parsing can fail (`ParseIntError { kind }`). */
export type IntErrorKind = 'Empty' | 'InvalidDigit' | 'PosOverflow'

/** Bounds of the Rust integer types Jupiter parses amounts (u64) and slippageBps (u16) into. */
export const U64_MAX = 2n ** 64n - 1n
export const U16_MAX = 2n ** 16n - 1n
/** Solana's `Pubkey::from_str` refuses longer text before decoding (MAX_BASE58_LEN). */
const MAX_BASE58_PUBKEY_LENGTH = 44
const PUBKEY_BYTES = 32

/** Rust's Display text of each kind, which serde puts in body errors. */
const INT_ERROR_DISPLAY: Record<IntErrorKind, string> = {
  Empty: 'cannot parse integer from empty string',
  InvalidDigit: 'invalid digit found in string',
  PosOverflow: 'number too large to fit in target type',
}

/** An unsigned integer up to `max`, as Rust's `u64::from_str` reads it (an optional `+`, digits only). */
export function parseUnsigned(
  text: string,
  max = U64_MAX,
): { ok: true; value: bigint } | { ok: false; kind: IntErrorKind } {
  if (text === '') return { ok: false, kind: 'Empty' }
  if (!/^\+?[0-9]+$/.test(text)) return { ok: false, kind: 'InvalidDigit' }
  const value = BigInt(text)
  return value > max ? { ok: false, kind: 'PosOverflow' } : { ok: true, value }
}

/** A query-string integer: the reason reads as Jupiter prints it (`ParseIntError { kind: InvalidDigit }`). */
export function parseQueryInteger(text: string, max = U64_MAX): Parsed<bigint> {
  const parsed = parseUnsigned(text, max)
  return parsed.ok ? parsed : { ok: false, reason: `ParseIntError { kind: ${parsed.kind} }` }
}

/** A JSON-body integer string: the reason reads as serde prints it (`invalid digit found in string`). */
export function parseBodyInteger(text: string): Parsed<bigint> {
  const parsed = parseUnsigned(text)
  return parsed.ok ? parsed : { ok: false, reason: INT_ERROR_DISPLAY[parsed.kind] }
}

/**
 * A base58 public key, as `Pubkey::from_str` reads it: too long or not 32 bytes is `WrongSize`, a
 * character outside the alphabet is `Invalid`.
 */
export function parsePubkey(text: string): Parsed<string> {
  if (text.length > MAX_BASE58_PUBKEY_LENGTH) return { ok: false, reason: 'WrongSize' }
  let length: number
  try {
    // kit's codec, not the chain's cached one: this decodes untrusted input and must not grow a cache.
    length = getBase58Encoder().encode(text).length
  } catch {
    return { ok: false, reason: 'Invalid' }
  }
  return length === PUBKEY_BYTES ? { ok: true, value: text } : { ok: false, reason: 'WrongSize' }
}

/** `true` or `false`, with Rust's `ParseBoolError` text otherwise. */
export function parseBool(text: string): Parsed<boolean> {
  if (text === 'true') return { ok: true, value: true }
  if (text === 'false') return { ok: true, value: false }
  return { ok: false, reason: 'provided string was not `true` or `false`' }
}

/**
 * The parameters `names` of a query, the others left out: v2's `/order` and `/build` price with the v1
 * quote, which must read only the parameters the v2 route takes (`/build` has no swapMode, neither has
 * onlyDirectRoutes).
 */
export function parametersOf(query: URLSearchParams, names: readonly string[]): URLSearchParams {
  const kept = new URLSearchParams()
  for (const name of names) {
    const value = query.get(name)
    if (value !== null) kept.set(name, value)
  }
  return kept
}
