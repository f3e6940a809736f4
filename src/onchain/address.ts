import { FormatRegistry, Type } from '@sinclair/typebox'
import type { RegisteredRoute } from '../kernel/manifest.ts'
import { SOLANA_ADDRESS_FORMAT } from '../kernel/schemas.ts'
import { decodeBase58 } from './base58.ts'

/** Length bounds of a base58-encoded 32-byte Solana address (spec §2, §8). */
export const ADDRESS_MIN_LENGTH = 32
export const ADDRESS_MAX_LENGTH = 44
/** The base58 alphabet: digits and letters without 0, O, I and l. */
export const BASE58_PATTERN = '^[1-9A-HJ-NP-Za-km-z]+$'

const BASE58 = new RegExp(BASE58_PATTERN)
const EVM_ADDRESS = /^0x[0-9a-fA-F]*$/
/** What a ticker looks like: `BONK`, `$WIF`, `usdc` — short, letters and digits, no address length. */
const TICKER = /^\$?[A-Za-z][A-Za-z0-9]{0,14}$/
export type AddressCheck = { ok: true; address: string } | { ok: false; message: string }

/**
 * Checks that `value` is a Solana address (a mint, for scanner routes) and, when it is not,
 * says what the caller should send instead. `field` names the request member in the message.
 */
export function checkSolanaAddress(
  value: unknown,
  field = 'token_address',
  noun = 'Solana SPL mint address',
): AddressCheck {
  if (value === undefined || value === null) return fail(`${field} is required: send {"${field}": "<${noun}>"}`)
  if (typeof value !== 'string')
    return fail(`${field} must be a string holding a base58 ${noun}, not ${withArticle(jsonType(value))}`)
  if (value.trim() !== value) return fail(`${field} has leading or trailing whitespace: send the bare base58 address`)
  if (EVM_ADDRESS.test(value)) return fail(`EVM addresses are not supported: send a ${noun}`)
  if (value.length < ADDRESS_MIN_LENGTH && TICKER.test(value))
    return fail(`"${value}" looks like a ticker: send the token's mint address, not its ticker`)
  if (value.length < ADDRESS_MIN_LENGTH || value.length > ADDRESS_MAX_LENGTH)
    return fail(`${field} must be ${ADDRESS_MIN_LENGTH} to ${ADDRESS_MAX_LENGTH} characters long (got ${value.length})`)
  if (!BASE58.test(value)) {
    const bad = [...value].find((ch) => !BASE58.test(ch))
    return fail(`${field} contains "${bad}", which is not in the base58 alphabet (no 0, O, I or l)`)
  }
  const length = decodeBase58(value).length
  if (length !== 32) return fail(`${field} decodes to ${length} bytes, not 32: it is not a Solana address`)
  return { ok: true, address: value }
}

function fail(message: string): AddressCheck {
  return { ok: false, message }
}

function withArticle(noun: string): string {
  return /^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array'
  return typeof value
}

FormatRegistry.Set(SOLANA_ADDRESS_FORMAT, (value) => checkSolanaAddress(value).ok)

/** A Solana address field (mint, wallet); request members with this format fail as INVALID_ADDRESS. */
export const SolanaAddress = (description: string) =>
  Type.String({
    minLength: ADDRESS_MIN_LENGTH,
    maxLength: ADDRESS_MAX_LENGTH,
    pattern: BASE58_PATTERN,
    format: SOLANA_ADDRESS_FORMAT,
    description,
    examples: ['DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263'],
  })

/**
 * The first address member of `body` that is not a Solana address (an optional one may be absent), as
 * the field and a message a person can act on; null when every one is fine.
 */
export function addressProblem(
  route: Pick<RegisteredRoute, 'addressFields'>,
  body: unknown,
): { field: string; message: string } | null {
  const members =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {}
  for (const { name, optional } of route.addressFields) {
    if (optional && members[name] === undefined) continue
    const check = checkSolanaAddress(members[name], name)
    if (!check.ok) return { field: name, message: check.message }
  }
  return null
}
