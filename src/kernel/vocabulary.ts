/**
 * The enumerations of the wire and the pipeline, each written once as a const array: TypeScript types
 * and TypeBox schemas (`Enum(GRADES)`, src/pipeline/schemas.ts) both derive from these.
 */

/** Letter grades, best first (docs/scoring.md). */
export const GRADES = ['A', 'B', 'C', 'D', 'F'] as const
export type Grade = (typeof GRADES)[number]

/** Completeness of the source data (docs/data-quality.md). */
export const DATA_QUALITIES = ['FULL', 'PARTIAL', 'LIMITED'] as const
export type DataQuality = (typeof DATA_QUALITIES)[number]

/** Three levels: data confidence, buy/sell pressure, volatility. */
export const LEVELS = ['HIGH', 'MEDIUM', 'LOW'] as const
export type Level = (typeof LEVELS)[number]
export type DataConfidence = Level

/** A finding's severity, worst first. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const
export type Severity = (typeof SEVERITIES)[number]

/** Liquidity rating bands (signals/liquidity), UNKNOWN when the market could not be read. */
export const LIQUIDITY_RATINGS = ['DEEP', 'ADEQUATE', 'THIN', 'CRITICAL', 'UNKNOWN'] as const
export type LiquidityRating = (typeof LIQUIDITY_RATINGS)[number]

/** The market intel's direction (docs/scoring/market-intel.md). */
export const MARKET_SIGNALS = ['BULLISH', 'BEARISH', 'NEUTRAL'] as const
export type MarketSignal = (typeof MARKET_SIGNALS)[number]

/** How a pool holds its liquidity: fungible LP tokens, or positions (NFTs); UNKNOWN without a pool read. */
export const LP_MODELS = ['TRADITIONAL_AMM', 'CLMM_DLMM', 'UNKNOWN'] as const
export type LpModel = (typeof LP_MODELS)[number]
/** A pool's model as read from chain (never UNKNOWN: a pool read has one). */
export type PoolModel = Exclude<LpModel, 'UNKNOWN'>

/**
 * The LP's state (signals/lp-status): CUSTODIAL when a bonding curve holds the liquidity (the quick
 * scan's word; the deep dive reports it NOT_APPLICABLE and explains the curve in its lock status).
 */
export const LP_STATUSES = ['BURNED', 'UNBURNED', 'CUSTODIAL', 'NOT_APPLICABLE', 'UNKNOWN'] as const
export type LpStatus = (typeof LP_STATUSES)[number]

/**
 * The deep dive's risk groups (`risk_breakdown`): each signal declares in its meta the one its findings
 * count in (SignalMeta.riskGroup).
 */
export const RISK_GROUPS = ['contract_risk', 'liquidity_risk', 'market_risk', 'behavioral_risk'] as const
export type RiskGroup = (typeof RISK_GROUPS)[number]

/**
 * How dear the way out is (the exit check's `exit_rating`; thresholds and reasons in
 * plugins/exit-check/service.ts, docs/catalogue.md): CLEAN, COSTLY, PUNITIVE (a fifth or more lost, or the route
 * cannot absorb the size), BLOCKED (not sellable).
 */
export const EXIT_RATINGS = ['CLEAN', 'COSTLY', 'PUNITIVE', 'BLOCKED'] as const
export type ExitRating = (typeof EXIT_RATINGS)[number]

/** Where the holder figures come from (the holders fact's `source`, the answers' `holders_source`). */
export const HOLDERS_SOURCES = ['rpc', 'token_list'] as const
export type HoldersSource = (typeof HOLDERS_SOURCES)[number]

/** How the developer wallet is known (the dev_history fact's `walletSource`, the deep dive's `address_source`). */
export const DEV_WALLET_SOURCES = ['creation', 'launchpad'] as const
export type DevWalletSource = (typeof DEV_WALLET_SOURCES)[number]

/**
 * `lock_duration_days` of a lock nothing can release — burned LP, a permanent lock program, a bonding
 * curve's custody: a hundred years, the documented stand-in for "forever" (docs/data-quality.md).
 */
export const PERMANENT_LOCK_DAYS = 36_500
