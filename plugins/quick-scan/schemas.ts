import { Type } from '@sinclair/typebox'
import { AUTHORITIES_AND_HOLDERS, Enum, envelope, FactorItem, Grade, Nullable } from '../../src/pipeline/schemas.ts'
import { LIQUIDITY_RATINGS, LP_MODELS, LP_STATUSES, PERMANENT_LOCK_DAYS } from '../../src/kernel/vocabulary.ts'

export const LiquidityCheck = Type.Object({
  rating: Enum(LIQUIDITY_RATINGS),
  meaning: Type.String(),
  threshold_usd: Nullable(
    Type.Number({ description: 'Floor (USD) of the rating band; for CRITICAL the THIN floor it failed to reach' }),
  ),
  action_guidance: Type.String(),
})

/**
 * Quick-scan `liquidity_lock_status` (the spec leaves it open): the deep dive's members, from the same
 * reading of the main pool's LP (src/pipeline/derive/lp-lock.ts), null where nothing was read.
 */
export const QuickLockStatus = Type.Object({
  locked: Nullable(
    Type.Boolean({
      description:
        "At least 95% of the main pool's LP is burned or in lock programs, or its reserves sit in a bonding curve; null when not read (no pool, concentrated liquidity, or unburned LP whose holders could not be read)",
    }),
  ),
  lock_duration_days: Nullable(
    Type.Number({
      minimum: 0,
      description: `Days the LP stays locked: 0 when it is not locked; the days until the time locks release enough of it to fall below 95%; ${PERMANENT_LOCK_DAYS} (a hundred years, with \`permanent\`) when nothing can release it — burned LP, a permanent lock program, a bonding curve; null when not read or when a lock could not be dated`,
    }),
  ),
  permanent: Nullable(
    Type.Boolean({
      description: `Burned LP and permanent locks alone keep it locked (lock_duration_days is then ${PERMANENT_LOCK_DAYS})`,
    }),
  ),
  locked_pct: Nullable(
    Type.Number({ minimum: 0, maximum: 100, description: 'Burned plus lock-program share of the LP the pool minted' }),
  ),
  burned_pct: Nullable(
    Type.Number({ minimum: 0, maximum: 100, description: 'Share of the LP the pool minted that is burned' }),
  ),
  lock_program_pct: Nullable(
    Type.Number({
      minimum: 0,
      maximum: 100,
      description: 'Held by lock programs (or, for a bonding curve, its program)',
    }),
  ),
  source: Enum(
    ['lp', 'lp_burn', 'bonding_curve', 'not_applicable', 'no_pool', 'unknown'] as const,
    "lp: the pool's burned LP and the LP lock programs hold, read; lp_burn: only the burned share (who holds the rest could not be read); bonding_curve; not_applicable (concentrated liquidity); no_pool; unknown (no pool data)",
  ),
})

/** Quick-scan `launch_anomaly` (the spec leaves it open). */
export const LaunchAnomaly = Type.Object({
  detected: Nullable(Type.Boolean()),
  pair_age_hours: Nullable(Type.Number({ description: "Hours since the token's first pool opened (market data)" })),
  reasons: Type.Array(Type.String(), { description: 'Finding codes: NEW_TOKEN, VERY_NEW_TOKEN' }),
})

/** Spec §2.2, every field, with the envelope. */
export const QuickScanResult = Type.Object({
  ...envelope,
  token_address: Type.String(),
  symbol: Nullable(Type.String()),
  name: Nullable(Type.String()),
  logo_uri: Nullable(Type.String()),
  grade_type: Type.Literal('STRUCTURAL_SAFETY'),
  scope: Type.Object({ includes: Type.Array(Type.String()), excludes: Type.Array(Type.String()) }),
  ...AUTHORITIES_AND_HOLDERS,
  liquidity_check: LiquidityCheck,
  lp_burned: Nullable(Type.Boolean()),
  lp_model: Enum(LP_MODELS),
  lp_status: Enum(LP_STATUSES),
  structural_risk_grade: Grade,
  authority_exempt: Type.Boolean(),
  launch_anomaly: LaunchAnomaly,
  liquidity_lock_status: QuickLockStatus,
  factors: Type.Array(FactorItem),
  historical_flags: Type.Array(Type.String()),
  summary: Type.String(),
})
