import { type Static, Type } from '@sinclair/typebox'
import { AUTHORITIES_AND_HOLDERS, Enum, envelope, FactorItem, Grade, Nullable } from '../../src/pipeline/schemas.ts'
import {
  DEV_WALLET_SOURCES,
  LP_MODELS,
  LP_STATUSES,
  RISK_GROUPS,
  PERMANENT_LOCK_DAYS,
  type RiskGroup,
} from '../../src/kernel/vocabulary.ts'

/** The levels of `risk_breakdown` and `sniper_activity` (spec §2.4). */
export const RISK_LEVELS = ['LOW', 'MEDIUM', 'HIGH'] as const
export const RiskLevel = Enum(RISK_LEVELS)

/** The risk groups of `risk_breakdown`, in the spec's order (src/kernel/vocabulary.ts). */
export { RISK_GROUPS, type RiskGroup }

export const RiskBreakdown = Type.Object(
  Object.fromEntries(RISK_GROUPS.map((group) => [group, RiskLevel])) as Record<RiskGroup, typeof RiskLevel>,
  {
    description:
      "Each group from its signals' findings (docs/scoring/deep-dive.md); MEDIUM when none of its signals could run",
  },
)

/** `recommendation.action` (spec §2.4's response schema). BUY is never emitted, though clients should tolerate it. */
export const ACTIONS = ['AVOID', 'WATCH', 'CONSIDER', 'DYOR'] as const
export const TIME_HORIZONS = ['SHORT_TERM', 'MEDIUM_TERM', 'LONG_TERM'] as const
export const LAUNCH_PATTERNS = ['STEALTH_LAUNCH', 'FAIR_LAUNCH', 'UNKNOWN'] as const

export const Recommendation = Type.Object({
  action: Enum(ACTIONS),
  reason: Type.String(),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  time_horizon: Enum(TIME_HORIZONS),
  rule: Type.String({ description: 'The rule of docs/scoring/deep-dive.md that decided the action' }),
})

export const WalletAnalysis = Type.Object({
  clustered_wallets: Type.Integer({
    minimum: 0,
    description:
      'Traced wallets (largest holders, first buyers) linked to another or to the developer by their funding',
  }),
  insider_control_percent: Nullable(
    Type.Number({
      minimum: 0,
      maximum: 100,
      description: 'Supply share of the developer and its linked wallets among the largest accounts',
    }),
  ),
  dev_wallet_linked: Type.Boolean({ description: 'A traced wallet was funded by the developer wallet, or funded it' }),
  wallets_traced: Type.Integer({ minimum: 0, description: 'Wallets whose first funding was looked up' }),
})

export const DevWalletAnalysis = Type.Object({
  address: Type.String({
    description:
      "The developer wallet: fee payer of the mint's creation, or the creator its pump.fun bonding curve records when the creation could not be read (address_source)",
  }),
  address_source: Enum(DEV_WALLET_SOURCES, 'Where the address comes from'),
  sol_balance: Nullable(Type.Number({ description: 'SOL' })),
  created_tokens_count: Nullable(
    Type.Integer({
      minimum: 0,
      description:
        'Other tokens this wallet created; a floor when history_complete is false, null when that partial history showed none',
    }),
  ),
  previous_rugs: Type.Boolean({
    description: 'It pulled the liquidity of one of its own earlier tokens (within the history read)',
  }),
  history_complete: Type.Boolean({ description: "Whether the wallet's whole history was read" }),
})

/** Deep-dive `liquidity_lock_status` (spec §2.4: `locked`, `lock_duration_days` and `locked_pct` numbers and a boolean). */
export const DeepLockStatus = Type.Object({
  locked: Type.Boolean({
    description:
      "At least 95% of the main pool's LP is burned or in lock programs, or its reserves sit in a bonding curve",
  }),
  lock_duration_days: Type.Number({
    minimum: 0,
    description: `Days the LP stays locked: 0 when it is not locked; the days until the time locks release enough of it to fall below 95%; ${PERMANENT_LOCK_DAYS} (a hundred years, with \`permanent\`) when nothing can release it — burned LP, a permanent lock program, a bonding curve. A lock that could not be dated gives 0 and \`lock_duration_days\` in missing_fields (docs/data-quality.md)`,
  }),
  permanent: Type.Boolean({
    description: `Burned LP and permanent locks alone keep it locked (lock_duration_days is then ${PERMANENT_LOCK_DAYS})`,
  }),
  locked_pct: Type.Number({
    minimum: 0,
    maximum: 100,
    description: 'Burned plus lock-program share of the LP the pool minted',
  }),
  burned_pct: Type.Number({ minimum: 0, maximum: 100 }),
  lock_program_pct: Type.Number({
    minimum: 0,
    maximum: 100,
    description: 'Held by lock programs (or, for a bonding curve, its program)',
  }),
  source: Enum(['lp', 'bonding_curve'] as const),
})

export const TradingPattern = Type.Object({
  buy_sell_ratio_1h: Type.Number({
    minimum: 0,
    description:
      'Buys per sell over the last hour on the main pool (sells counted as at least one): 0 when nothing was bought, also when nothing traded (see swaps_1h)',
  }),
  unique_buyers_24h: Type.Integer({ minimum: 0, description: 'Distinct buyer wallets over 24 h on the main pool' }),
  wash_trading_score: Type.Number({ minimum: 0, maximum: 100 }),
  swaps_1h: Type.Integer({ minimum: 0, description: 'Swaps on the main pool in the last hour' }),
  swaps_24h: Type.Integer({ minimum: 0 }),
  window_complete: Type.Boolean({ description: 'False when the 24 h window was read in part (the counts are floors)' }),
})

/** An item of `key_drivers`: one of the findings that moved the verdict most. */
export const KeyDriver = Type.Object({
  code: Type.String(),
  signal: Type.String(),
  risk_group: Enum(RISK_GROUPS),
  severity: FactorItem.properties.severity,
  impact: Type.Number({ description: 'Score points (negative)' }),
  hard_fail: Type.Boolean(),
  title: Type.String(),
})

/**
 * Spec §2.4, every field, with the envelope. Fields that could not be measured are absent (the spec
 * requires only the seven below); booleans the quick scan also answers follow its conservative rule.
 */
export const DeepDiveResult = Type.Object({
  ...envelope,
  token_address: Type.String(),
  is_honeypot: Type.Optional(
    Type.Boolean({ description: 'Selling is blocked now; absent when it could not be determined' }),
  ),
  ...AUTHORITIES_AND_HOLDERS,
  authority_exempt: Type.Boolean(),
  lp_burned: Nullable(Type.Boolean()),
  lp_status: Enum(
    LP_STATUSES.filter((status) => status !== 'CUSTODIAL'),
    'A bonding curve has no LP: NOT_APPLICABLE',
  ),
  lp_model: Enum(LP_MODELS),
  risk_grade: Grade,
  risk_breakdown: RiskBreakdown,
  wallet_analysis: Type.Optional(WalletAnalysis),
  dev_wallet_analysis: Type.Optional(DevWalletAnalysis),
  launch_pattern: Enum(LAUNCH_PATTERNS),
  sniper_activity: Type.Optional(RiskLevel),
  liquidity_lock_status: Type.Optional(DeepLockStatus),
  trading_pattern: Type.Optional(TradingPattern),
  pump_launchpad_launched: Type.Optional(
    Type.Boolean({ description: 'A pump.fun bonding curve exists for the mint (read on chain)' }),
  ),
  bundled_launch_detected: Type.Optional(Type.Boolean()),
  volume_24h: Type.Optional(Type.Number({ description: "USD over the token's pairs" })),
  price_change_24h_pct: Type.Optional(Type.Number({ description: 'Main (deepest) pair' })),
  momentum_score: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 100,
      description: '0 collapsing, 50 flat, 100 surging (docs/scoring/deep-dive.md)',
    }),
  ),
  factors: Type.Array(FactorItem),
  historical_flags: Type.Array(Type.String()),
  key_drivers: Type.Array(KeyDriver),
  recommendation: Recommendation,
  full_risk_report: Type.String(),
})

/** A deep dive's answer, as its schema types it. */
export type DeepDiveAnswer = Static<typeof DeepDiveResult>
