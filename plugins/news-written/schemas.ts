import { Type } from '@sinclair/typebox'
import { QuickScanSnapshot } from '../../src/feeds/feed-answer.ts'
import { DataQuality, Grade, Nullable } from '../../src/pipeline/schemas.ts'
import { COHORTS } from '../../src/news/cohorts.ts'
import { Claim, Cohorts, Coordination, Envelope, PulseTally, Refs, Written } from '../../src/news/schemas.ts'

export const BriefResult = Type.Object(
  {
    ...Envelope,
    pulse: PulseTally,
    brief: Type.Object({ headline: Type.String(), text: Type.String(), claims: Type.Array(Claim) }),
    quick_scan: QuickScanSnapshot,
    ...Written,
    summary: Type.String(),
  },
  { description: 'A short written brief of what is being said, with the quick scan beside it' },
)

export const PulsePlusResult = Type.Object(
  {
    ...Envelope,
    pulse: PulseTally,
    cohorts: Cohorts,
    cohorts_disagree: Type.Boolean({ description: 'Cohorts with 2 or more posts each lean differently' }),
    coordination: Coordination,
    synthesis: Type.Object({
      text: Type.String(),
      cohort_takes: Type.Array(
        Type.Object({
          cohort: Type.Union(COHORTS.map((cohort) => Type.Literal(cohort))),
          take: Type.String(),
          post_refs: Refs,
        }),
      ),
      claims: Type.Array(Claim),
    }),
    ...Written,
    summary: Type.String(),
  },
  { description: 'The pulse split by cohort, coordination, and a written synthesis' },
)

export const ReportResult = Type.Object(
  {
    ...Envelope,
    pulse: PulseTally,
    cohorts: Cohorts,
    coordination: Coordination,
    report: Type.Object({
      takes: Type.Array(
        Type.Object({
          take: Type.String(),
          stance: Type.Union([Type.Literal('bullish'), Type.Literal('bearish'), Type.Literal('neutral')]),
          post_refs: Refs,
        }),
      ),
      synthesis: Type.String(),
      risks: Type.Array(Type.Object({ risk: Type.String(), post_refs: Refs }), {
        description: 'Risks the posts raise',
      }),
      watch_list: Type.Array(
        Type.Object({ ticker: Type.String(), mint: Type.String(), why: Type.String(), post_refs: Refs }),
        { description: 'Other tickers the posts discuss, each resolved to a listed mint (unlisted ones are dropped)' },
      ),
    }),
    deep_dive: Nullable(
      Type.Object({
        grade: Grade,
        score: Type.Integer({ minimum: 0, maximum: 100 }),
        data_quality: DataQuality,
        recommendation: Type.String({ description: 'AVOID, WATCH, CONSIDER or DYOR (POST /scan/deep)' }),
        risks: Type.Array(Type.Object({ code: Type.String(), title: Type.String(), severity: Type.String() }), {
          description: "The deep dive's key risk findings, worst first",
        }),
        flags: Type.Array(Type.String(), {
          description: "The deep dive's historical flags (DEV_PREVIOUS_RUGS, BUNDLED_LAUNCH, …)",
        }),
      }),
      {
        description:
          "The subject token's deep dive (POST /scan/deep); null for the market, an unresolved ticker, or when it did not finish",
      },
    ),
    ...Written,
    summary: Type.String(),
  },
  { description: 'A full report: distinct takes, synthesis, risks raised, watch list, and the deep dive' },
)
