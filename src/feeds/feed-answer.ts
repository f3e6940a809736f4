/**
 * What every catalogue feed shares (docs/catalogue.md §Feeds): the optional focus token and list
 * bounds of the request, the quick-scan snapshot every item that names a token carries, and how a
 * feed's data quality reads from what it could not gather.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox'
import type { ServiceContext } from '../context.ts'
import { SchemaVersion } from '../kernel/schemas.ts'
import { SolanaAddress } from '../onchain/address.ts'
import { SCHEMA_VERSION } from '../kernel/version.ts'
import { DataQuality, Grade, Nullable } from '../pipeline/schemas.ts'
import type { QuickGrade } from '../pipeline/quick-grades.ts'
import type { DataQuality as Quality } from '../kernel/vocabulary.ts'

/** The quick scan's grade of an item's token, or null when it did not finish within the feed's deadline. */
export const QuickScanSnapshot = Type.Union(
  [
    Type.Object({
      grade: Grade,
      score: Type.Integer({ minimum: 0, maximum: 100 }),
      data_quality: DataQuality,
      authority_exempt: Type.Boolean({ description: "A registered issuer asset: its authorities are the issuer's" }),
      risks: Type.Array(Type.String(), {
        description: "Codes of the quick scan's risk findings, worst first (at most 5)",
      }),
    }),
    Type.Null(),
  ],
  {
    description:
      "The token's quick-scan grade (POST /scan/quick; cached for a minute); null when it did not finish within the feed's deadline",
  },
)

/** An item's place in a feed, 1 first; null for a focus token not in it. */
export const FeedRank = (description?: string) =>
  Nullable(Type.Integer({ minimum: 1 }), description === undefined ? {} : { description })

/** The optional token a feed answer centres on. */
export const FocusToken = Type.Optional(
  SolanaAddress('Optional: a mint to centre the answer on (its standing in the feed and its quick scan)'),
)

/** A feed's `limit` member: how many items, `min` to `max`, `fallback` when absent. */
export const FeedLimit = (fallback: number, max: number) =>
  Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: max,
      default: fallback,
      description: `How many items to answer, 1 to ${max} (default ${fallback})`,
    }),
  )

/** The envelope members of every feed answer, around its own members. */
export function FeedResult<T extends Record<string, TSchema>>(members: T, description: string) {
  return Type.Object(
    {
      schema_version: SchemaVersion,
      data_quality: DataQuality,
      missing_fields: Type.Array(Type.String(), {
        description:
          'What could not be gathered: the feed itself, items’ quick scans, the focus token (docs/data-quality.md)',
      }),
      generated_at: Type.String({ description: 'When the answer was put together (ISO 8601)' }),
      ...members,
      summary: Type.String(),
    },
    { description },
  )
}

/** FULL with nothing missing; LIMITED without the feed itself; PARTIAL otherwise. */
export function feedQuality(missing: ReadonlySet<string>, feedMissing: boolean): Quality {
  return feedMissing ? 'LIMITED' : missing.size === 0 ? 'FULL' : 'PARTIAL'
}

/** The envelope members every feed answer opens with (FeedResult), from what it could not gather. */
export function feedEnvelope(missing: ReadonlySet<string>, feedMissing: boolean) {
  return {
    schema_version: SCHEMA_VERSION,
    data_quality: feedQuality(missing, feedMissing),
    missing_fields: [...missing],
    generated_at: new Date().toISOString(),
  }
}

export type Snapshot = Static<typeof QuickScanSnapshot>

/**
 * The quick-scan snapshots of `mints` (in order) by `deadlineAt`; adds `quick_scan` to `missing` when
 * any did not finish.
 */
export async function snapshotsOf(
  ctx: ServiceContext,
  mints: readonly string[],
  deadlineAt: number,
  missing: Set<string>,
): Promise<Snapshot[]> {
  const grades: (QuickGrade | null)[] = await ctx.grades.gradesOf(mints, deadlineAt)
  if (grades.some((grade) => grade === null)) missing.add('quick_scan')
  return grades
}

/** When a feed must answer, from the request's arrival: its ranking reads stop at `feedAt`, its grades at `answerAt`. */
export interface FeedDeadlines {
  feedAt: number
  answerAt: number
}
