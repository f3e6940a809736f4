import { Type, type TSchema } from '@sinclair/typebox'
import { ERROR_CATALOGUE, type ErrorCode } from './errors.ts'
import { SCHEMA_VERSION } from './version.ts'

/** JSON-schema format of a base58 Solana address that decodes to 32 bytes. */
export const SOLANA_ADDRESS_FORMAT = 'solana-address'
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
