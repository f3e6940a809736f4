import { Type } from '@sinclair/typebox'
import { Enum, envelope, FactorItem, Grade, Nullable, NullableEnum } from '../../pipeline/schemas.ts'
import {
  HOLDERS_SOURCES,
  LIQUIDITY_RATINGS,
  LP_MODELS,
  LP_STATUSES,
  PERMANENT_LOCK_DAYS,
} from '../../pipeline/vocabulary.ts'

export const LiquidityCheck = Type.Object({
  rating: Enum(LIQUIDITY_RATINGS),
  meaning: Type.String(),
  threshold_usd: Nullable(
    Type.Number({ description: 'Floor (USD) of the rating band; for CRITICAL the THIN floor it failed to reach' }),
  ),
  action_guidance: Type.String(),
})

/** Quick-scan `liquidity_lock_status` (the spec leaves it open). */
export const QuickLockStatus = Type.Object({
  locked: Nullable(
    Type.Boolean({
      description:
        'True when the LP is burned (locked for good) or the liquidity is held by a bonding curve; null when not determined by the quick scan',
    }),
  ),
  locked_pct: Nullable(Type.Number({ description: 'Share of LP in lock programs: read by the deep dive, null here' })),
  burned_pct: Nullable(Type.Number({ description: 'Share of the LP the pool minted that is burned' })),
  lock_duration_days: Nullable(
    Type.Number({
      description: `When the LP is burned or a bonding curve holds the reserves: ${PERMANENT_LOCK_DAYS} (a hundred years, the stand-in for forever); null otherwise (the quick scan does not read lock programs; the deep dive does)`,
    }),
  ),
  source: Enum(['lp_burn', 'bonding_curve', 'not_applicable', 'no_pool', 'unknown'] as const),
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
