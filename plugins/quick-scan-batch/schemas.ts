import { type Static, Type } from '@sinclair/typebox'
import { SchemaVersion } from '../../src/kernel/schemas.ts'
import { SolanaAddress } from '../../src/onchain/address.ts'
import { QuickScanResult } from '../quick-scan/schemas.ts'

/** The most mints one batch scans: one payment, one deadline (docs/catalogue.md, "Batch scans"). */
export const MAX_BATCH_MINTS = 50
/** The price of one mint scanned in a batch, in USD: a quarter below the single scan's 0.02 (one payment, shared reads). */
export const BATCH_UNIT_USD = '0.015'

/** What a batch scans: the mints given, or every token a wallet holds up to `max_usd`. */
export const BatchRequest = Type.Object(
  {
    token_addresses: Type.Optional(
      Type.Array(SolanaAddress('Solana SPL mint address (base58, 32 to 44 characters)'), {
        minItems: 1,
        maxItems: MAX_BATCH_MINTS,
        description: `The mints to scan, 1 to ${MAX_BATCH_MINTS} (fewer on a service whose RPC plan is rate-limited: its 400 says how many); a mint given twice is scanned and charged once`,
      }),
    ),
    wallet_address: Type.Optional(
      SolanaAddress(
        'Instead of token_addresses: a wallet whose every token (non-zero balances, NFTs aside, SPL Token and Token-2022) is scanned, with max_usd',
      ),
    ),
    max_usd: Type.Optional(
      Type.Number({
        minimum: Number(BATCH_UNIT_USD),
        maximum: 1_000,
        description: `With wallet_address: the most to spend; the holdings scanned are min(holdings, floor(max_usd / ${BATCH_UNIT_USD}), the batch size: ${MAX_BATCH_MINTS}, fewer on a rate-limited RPC plan)`,
      }),
    ),
  },
  {
    description: 'Either token_addresses, or wallet_address with max_usd',
    // What the Bazaar declaration and the docs show as a request (no member is required alone).
    examples: [
      {
        token_addresses: [
          'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
          'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
        ],
      },
    ],
  },
)
export type BatchRequest = Static<typeof BatchRequest>

/** One item of the answer: the single route's answer, or why there is none. */
export const BatchItem = Type.Union([
  Type.Object({
    token_address: Type.String(),
    ok: Type.Literal(true),
    scan: QuickScanResult,
  }),
  Type.Object({
    token_address: Type.String(),
    ok: Type.Literal(false),
    error: Type.Object({
      code: Type.String({ description: 'The error code the single /scan/quick answers for this mint' }),
      message: Type.String(),
      charged: Type.Boolean({ description: 'Whether this item was part of the price paid' }),
    }),
  }),
])

/** The batch's answer: one item per distinct mint, in the order given (a wallet's: by mint address). */
export const BatchAnswer = Type.Object({
  schema_version: SchemaVersion,
  results: Type.Array(BatchItem),
  requested: Type.Integer({ description: 'Distinct mints asked for (a wallet: the ones within the cap)' }),
  answered: Type.Integer({ description: 'Items answered with a scan' }),
  duplicates_ignored: Type.Integer({ description: 'Mints given more than once, scanned and charged once' }),
  charged: Type.Object(
    {
      units: Type.Integer({ description: 'Mints paid for: those not refused before the payment' }),
      unit_price_usd: Type.String(),
      total_usd: Type.String(),
    },
    { description: 'What this call cost: unit price × mints that are tokens (refused mints are free)' },
  ),
  wallet: Type.Optional(
    Type.Object({
      wallet_address: Type.String(),
      max_usd: Type.Number(),
      holdings: Type.Integer({ description: 'Distinct tokens held with a non-zero balance' }),
      scanned: Type.Array(Type.String(), { description: 'The holdings scanned, by mint address' }),
      left_out: Type.Array(Type.String(), {
        description: `Holdings past the cap (max_usd, or the batch size: ${MAX_BATCH_MINTS}, fewer on a rate-limited RPC plan): scan them in another batch`,
      }),
    }),
  ),
})
export type BatchAnswer = Static<typeof BatchAnswer>
