import { Type, FormatRegistry, type TSchema } from '@sinclair/typebox'
import { ADDRESS_MAX_LENGTH, ADDRESS_MIN_LENGTH, BASE58_PATTERN, checkSolanaAddress } from '../onchain/address.ts'
import { ERROR_CATALOGUE, type ErrorCode } from './errors.ts'
import { SCHEMA_VERSION } from './version.ts'

/** JSON-schema format of a base58 Solana address that decodes to 32 bytes. */
export const SOLANA_ADDRESS_FORMAT = 'solana-address'
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

/** The request body of the scanners (spec §2): one SPL mint and nothing else identifies a token. */
export const TokenRequest = Type.Object({
  token_address: SolanaAddress(
    'Solana SPL mint address (base58, 32 to 44 characters); not an EVM address, not a ticker',
  ),
})

export const SchemaVersion = Type.Literal(SCHEMA_VERSION, { description: 'Wire schema version, always "2.0"' })

/** The error body for a set of codes sharing one HTTP status. */
export function ErrorBodySchema(codes: readonly ErrorCode[]): TSchema {
  return Type.Object(
    {
      schema_version: SchemaVersion,
      error: Type.Literal(true),
      code: codes.length === 1 ? Type.Literal(codes[0]!) : Type.Union(codes.map((code) => Type.Literal(code))),
      message: Type.String({ description: 'What went wrong and what to do about it' }),
      request_id: Type.String({ description: 'Echoed in the x-request-id header; quote it in support requests' }),
    },
    {
      additionalProperties: true,
      description: codes.map((code) => `${code}: ${ERROR_CATALOGUE[code].message}`).join('\n'),
    },
  )
}
