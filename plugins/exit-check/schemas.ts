/** The exit check's answer and its bounds (POST /exit/check; read by the cross-check and graduation momentum). */
import { Type } from '@sinclair/typebox'
import { SchemaVersion } from '../../src/kernel/schemas.ts'
import { DataQuality, NullableEnum } from '../../src/pipeline/schemas.ts'
import { EXIT_RATINGS } from '../../src/kernel/vocabulary.ts'

/**
 * The exit check answers within 5 s: its facts stop half a second earlier to leave room to answer (its
 * manifest's deadline, and the exit's in the cross-check's).
 */
export const EXIT_CHECK_DEADLINE_MS = 4_500

/** The size a check sells when the request names none, and its bounds (USDC). */
export const EXIT_SIZE_USDC = { default: 10, min: 0.01, max: 1_000_000 } as const

export const ExitSize = Type.Optional(
  Type.Number({
    minimum: EXIT_SIZE_USDC.min,
    maximum: EXIT_SIZE_USDC.max,
    default: EXIT_SIZE_USDC.default,
    description: `The USDC value to check the exit of, ${EXIT_SIZE_USDC.min} to ${EXIT_SIZE_USDC.max} (default ${EXIT_SIZE_USDC.default})`,
  }),
)

export const BLOCKER_CODES = [
  'NON_TRANSFERABLE',
  'PAUSED',
  'NO_SELL_ROUTE',
  'DEFAULT_FROZEN',
  'FREEZE_AUTHORITY_LIVE',
  'PERMANENT_DELEGATE',
  'TRANSFER_FEE',
  'TRANSFER_HOOK',
] as const

const Blocker = Type.Object({
  code: Type.Union(BLOCKER_CODES.map((code) => Type.Literal(code))),
  blocks: Type.Boolean({ description: 'True when it stops a sale now; false when it is a risk to the exit' }),
  detail: Type.String(),
})

export const ExitCheckResult = Type.Object({
  schema_version: SchemaVersion,
  data_quality: DataQuality,
  missing_fields: Type.Array(Type.String(), { description: 'Facts that could not be gathered (docs/data-quality.md)' }),
  token_address: Type.String(),
  size_usdc: Type.Number({ description: 'The USDC value checked: what size_usdc buys now, sold back' }),
  sellable: Type.Union([Type.Boolean(), Type.Null()], {
    description: 'Whether that size can be sold back to USDC now; null when neither the mint nor a quote could be read',
  }),
  expected_return_usdc: Type.Union([Type.Number(), Type.Null()], {
    description: 'USDC the sale returns at the quote (before any transfer fee); null without a sell quote',
  }),
  exit_price_impact_pct: Type.Union([Type.Number(), Type.Null()], {
    description: "The sell quote's price impact, percent; null without a sell quote",
  }),
  exit_loss_pct: Type.Union([Type.Number(), Type.Null()], {
    description:
      'What the round trip loses, percent of size_usdc: (size_usdc − expected_return_usdc) / size_usdc × 100, before any transfer fee; 100 when it cannot be sold; null without a sell quote',
  }),
  exit_rating: NullableEnum(
    EXIT_RATINGS,
    'CLEAN (under 3% lost), COSTLY (3–20%), PUNITIVE (over 20% lost, or the sale alone moves the price over 20%: the route cannot absorb the size), BLOCKED (not sellable); the loss counts a Token-2022 transfer fee on the buy and on the sale; null when the exit could not be checked, or when the mint could not be read and the exit would otherwise rate CLEAN or COSTLY (a freeze, pause or hook could stop it unseen)',
  ),
  route_count: Type.Integer({ description: 'Legs of the sell route (0 when there is none, or the token is USDC)' }),
  transfer_fee_bps: Type.Integer({ description: 'The Token-2022 transfer fee now, basis points (0 without one)' }),
  transfer_fee_can_rise: Type.Boolean({ description: 'A scheduled higher fee, or an authority that may raise it' }),
  blockers: Type.Array(Blocker),
  summary: Type.String(),
})
