import { SolanaAddress } from '../onchain/address.ts'
import { Type, type TSchema } from '@sinclair/typebox'
import { SchemaVersion } from '../kernel/schemas.ts'
import { DATA_QUALITIES, GRADES, HOLDERS_SOURCES, LEVELS, SEVERITIES } from '../kernel/vocabulary.ts'

const Enum = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    description ? { description } : {},
  )

export const DataConfidence = Enum(LEVELS, 'Confidence in the verdict (docs/data-quality.md)')
export const DataQuality = Enum(DATA_QUALITIES, 'Completeness of the source data (docs/data-quality.md)')
export const Grade = Enum(GRADES)

/** The envelope's `confidence` object (spec §2.1), each member 0–1 (docs/scoring.md). */
export const ConfidenceObject = Type.Object({
  model: Type.Number({
    minimum: 0,
    maximum: 1,
    description: "Share of the scanner's signals that could run, weighted by their own confidence",
  }),
  data_completeness: Type.Number({ minimum: 0, maximum: 1, description: 'Share of the requested facts gathered' }),
  signal_consensus: Type.Number({
    minimum: 0,
    maximum: 1,
    description: 'Share of assessed signals agreeing (all clean or all flagging)',
  }),
})

/** An item of `factors` (spec leaves it open): one finding of one signal. */
export const FactorItem = Type.Object({
  code: Type.String({ description: 'SCREAMING_SNAKE finding code, stable' }),
  signal: Type.String({ description: 'The signal (detector) id' }),
  severity: Enum(SEVERITIES),
  impact: Type.Number({ description: 'Score points this finding moved (0 for information, negative for a risk)' }),
  hard_fail: Type.Boolean({ description: 'True when the finding alone makes the grade F' }),
  grade_ceiling: Type.Union([...GRADES.map((grade) => Type.Literal(grade)), Type.Null()], {
    description:
      "The grade this finding caps the answer at whatever the score (F for a hard fail): a fact that alone lets the developer take the holder's money; null when it caps nothing (docs/scoring.md)",
  }),
  title: Type.String(),
  detail: Type.String(),
  evidence: Type.Record(Type.String(), Type.Unknown(), { description: 'The measured values behind the finding' }),
})

/** Envelope fields every scanner answer carries (spec §2.1). */
export const envelope = {
  schema_version: SchemaVersion,
  data_confidence: DataConfidence,
  data_quality: DataQuality,
  missing_fields: Type.Array(Type.String(), { description: 'Facts that could not be gathered (docs/data-quality.md)' }),
  confidence: ConfidenceObject,
} satisfies Record<string, TSchema>

export const Nullable = <T extends TSchema>(schema: T, options: { description?: string } = {}) =>
  Type.Union([schema, Type.Null()], options)
/** A number that may be null (not measured), described. */
export const NullableNumber = (description: string) => Nullable(Type.Number(), { description })
/** An enum that may be null, as one flat union (a union nested in a union loses its null in OpenAPI). */
export const NullableEnum = <T extends string>(values: readonly T[], description: string) =>
  Type.Union([...values.map((value) => Type.Literal(value)), Type.Null()], { description })
export { Enum }

/** The request body of the scanners (spec §2): one SPL mint and nothing else identifies a token. */
export const TokenRequest = Type.Object({
  token_address: SolanaAddress(
    'Solana SPL mint address (base58, 32 to 44 characters); not an EVM address, not a ticker',
  ),
})

/** What the quick scan and the deep dive both answer of the mint's authorities and its holders, in this order. */
export const AUTHORITIES_AND_HOLDERS = {
  mint_authority_revoked: Type.Boolean({
    description: 'False also when the mint could not be read (then `mint` is in missing_fields)',
  }),
  freeze_authority_revoked: Type.Boolean({
    description: 'False also when the mint could not be read (then `mint` is in missing_fields)',
  }),
  top_10_holder_pct: Nullable(Type.Number()),
  holders_source: NullableEnum(
    HOLDERS_SOURCES,
    "Where top_10_holder_pct comes from: rpc, the largest accounts read on chain (wallets only); token_list, the aggregator's audit when the RPC refuses the largest accounts (its top holders' share, pools not excluded); null when unmeasured",
  ),
}
