import { Type } from '@sinclair/typebox'
import { defineManifest } from '../../src/core/manifest.ts'
import { SchemaVersion, SolanaAddress } from '../../src/core/schemas.ts'
import { DataQuality } from '../../src/pipeline/schemas.ts'

/** The size a check sells when the request names none, and its bounds (USDC). */
export const EXIT_SIZE_USDC = { default: 10, min: 0.01, max: 1_000_000 } as const

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
  route_count: Type.Integer({ description: 'Legs of the sell route (0 when there is none, or the token is USDC)' }),
  transfer_fee_bps: Type.Integer({ description: 'The Token-2022 transfer fee now, basis points (0 without one)' }),
  transfer_fee_can_rise: Type.Boolean({ description: 'A scheduled higher fee, or an authority that may raise it' }),
  blockers: Type.Array(Blocker),
  summary: Type.String(),
})

export const manifest = defineManifest({
  name: 'exit-check',
  routes: {
    check: {
      method: 'POST',
      path: '/exit/check',
      summary: 'Can I get out? A sell of the token back to USDC, checked now',
      description:
        'What `size_usdc` (default 10) of the token buys now is quoted back to USDC through the aggregator: `sellable`, ' +
        '`expected_return_usdc`, `exit_price_impact_pct`, `route_count`, and `blockers[]` from the mint (non-transferable, ' +
        'paused, default-frozen accounts, a live freeze authority, a permanent delegate, a transfer fee and whether it can ' +
        'rise, a transfer hook). Answers within 5 s.',
      price: { usd: '0.01' },
      body: Type.Object({
        token_address: SolanaAddress('Solana SPL mint address (base58, 32 to 44 characters); not a ticker'),
        size_usdc: Type.Optional(
          Type.Number({
            minimum: EXIT_SIZE_USDC.min,
            maximum: EXIT_SIZE_USDC.max,
            default: EXIT_SIZE_USDC.default,
            description: `The USDC value to check the exit of, ${EXIT_SIZE_USDC.min} to ${EXIT_SIZE_USDC.max} (default ${EXIT_SIZE_USDC.default})`,
          }),
        ),
      }),
      response: ExitCheckResult,
      rateLimit: 'scanner',
      tags: ['catalogue'],
    },
  },
})
