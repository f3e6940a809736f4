/**
 * The trade suggestion's rules (POST /trade/suggest; docs/catalogue.md "The suggestion rules"): pure
 * functions from the battery's answers — quick scan, market intel, deep dive, exit check — to an
 * action, a conviction, a size and a trade plan. Hard gates come first and nothing outweighs them: a
 * grade of D or F, a token that cannot be sold or whose exit is PUNITIVE, a honeypot, a serial rugger,
 * or a deep dive that says AVOID make the answer AVOID whatever the momentum.
 */
import type { ExitRating } from '../../src/kernel/vocabulary.ts'
import { amount, pct } from '../../src/rendering/format.ts'

export const RISK_APPETITES = ['conservative', 'balanced', 'aggressive'] as const
export type RiskAppetite = (typeof RISK_APPETITES)[number]
export const ACTIONS = ['BUY', 'SMALL_BUY', 'WATCH', 'AVOID', 'NO_CANDIDATE'] as const
export type Action = (typeof ACTIONS)[number]
export const GATES = [
  'GRADE_D_OR_F',
  'NOT_SELLABLE',
  'EXIT_PUNITIVE',
  'HONEYPOT',
  'SERIAL_RUGGER',
  'DEEP_DIVE_AVOID',
  'CAPPED_BY_FINDING',
] as const
export type Gate = (typeof GATES)[number]

export interface Appetite {
  /** Quick-scan grades a candidate may have to be shortlisted. */
  grades: readonly string[]
  /** Least USD liquidity for a token from the signal radar. */
  minLiquidityUsd: number
  /** Whether launchpad coins (still on a bonding curve or just graduated) may be suggested. */
  launchpad: boolean
  /** The most of the budget a BUY puts in (at conviction 100). */
  maxShare: number
  /** The most of a pool's USD liquidity a suggested size may be. */
  liquidityShare: number
  /** Conviction at or above which the action is BUY, and SMALL_BUY. */
  buyAt: number
  smallBuyAt: number
  /** The trade plan: slippage ceiling (bps), price impact ceiling (%), stop-loss (% below entry). */
  maxSlippageBps: number
  maxPriceImpactPct: number
  stopLossPct: number
}

export const APPETITES: Record<RiskAppetite, Appetite> = {
  conservative: {
    grades: ['A', 'B'],
    minLiquidityUsd: 100_000,
    launchpad: false,
    maxShare: 0.25,
    liquidityShare: 0.005,
    buyAt: 75,
    smallBuyAt: 62,
    maxSlippageBps: 100,
    maxPriceImpactPct: 1,
    stopLossPct: 10,
  },
  balanced: {
    grades: ['A', 'B', 'C'],
    minLiquidityUsd: 25_000,
    launchpad: true,
    maxShare: 0.5,
    liquidityShare: 0.01,
    buyAt: 70,
    smallBuyAt: 55,
    maxSlippageBps: 300,
    maxPriceImpactPct: 2,
    stopLossPct: 20,
  },
  aggressive: {
    grades: ['A', 'B', 'C'],
    minLiquidityUsd: 5_000,
    launchpad: true,
    maxShare: 1,
    liquidityShare: 0.02,
    buyAt: 60,
    smallBuyAt: 45,
    maxSlippageBps: 1_000,
    maxPriceImpactPct: 5,
    stopLossPct: 35,
  },
}

/** Conviction starts here and moves by the cited factors' points; clamped to 0–100. */
export const BASE_CONVICTION = 50
/** Below this conviction the action is AVOID; from it up to SMALL_BUY, WATCH. */
export const WATCH_AT = 40
/** A suggested size under this (USD) is too small to trade: WATCH instead. */
export const MIN_SIZE_USD = 1

/** What the battery found (null: that part did not answer). */
export interface Battery {
  /**
   * Findings of the quick scan or the deep dive that cap the grade at C or below (or fail it): a token
   * a finding holds down is never a position to size, whatever its momentum (issue 28, common sense).
   */
  capped?: readonly string[]
  quick: { grade: string; score: number } | null
  market: { signal: string; token_health: string; volatility: string; liquidity_usd: number } | null
  deep: {
    grade: string
    score: number
    data_quality: string
    recommendation: string
    is_honeypot: boolean | null
    previous_rugs: boolean | null
  } | null
  exit: {
    size_usdc: number
    sellable: boolean | null
    expected_return_usdc: number | null
    exit_price_impact_pct: number | null
    /** The exit check's rating at the checked size (null: it could not say). */
    exit_rating: ExitRating | null
  } | null
}

export interface CitedFactor {
  factor: string
  points: number
  detail: string
}

/** The hard gates the battery trips (empty: none). */
export function gatesOf(battery: Battery): Gate[] {
  const gates: Gate[] = []
  const bad = (grade: string | undefined) => grade === 'D' || grade === 'F'
  if (bad(battery.quick?.grade) || bad(battery.deep?.grade)) gates.push('GRADE_D_OR_F')
  if (battery.exit?.sellable === false || battery.exit?.exit_rating === 'BLOCKED') gates.push('NOT_SELLABLE')
  // A way out that costs a fifth of the position, or that the route cannot absorb, is no position to size.
  if (battery.exit?.exit_rating === 'PUNITIVE') gates.push('EXIT_PUNITIVE')
  if (battery.deep?.is_honeypot === true) gates.push('HONEYPOT')
  if (battery.deep?.previous_rugs === true) gates.push('SERIAL_RUGGER')
  if (battery.deep?.recommendation === 'AVOID') gates.push('DEEP_DIVE_AVOID')
  if ((battery.capped?.length ?? 0) > 0) gates.push('CAPPED_BY_FINDING')
  return gates
}

/** What a round trip of the exit check's size costs, percent of it; null without both figures. */
export function roundTripCostPct(exit: Battery['exit']): number | null {
  if (!exit || exit.expected_return_usdc === null || exit.size_usdc <= 0) return null
  return Math.round(((exit.size_usdc - exit.expected_return_usdc) / exit.size_usdc) * 10_000) / 100
}

const GRADE_POINTS: Record<string, number> = { A: 10, B: 5, C: -5 }
const RECOMMENDATION_POINTS: Record<string, number> = { CONSIDER: 10, WATCH: -5, DYOR: -10 }
const SIGNAL_POINTS: Record<string, number> = { BULLISH: 10, NEUTRAL: 0, BEARISH: -15 }
const HEALTH_POINTS: Record<string, number> = { ACTIVE: 5, LOW_ACTIVITY: -5, DECLINING: -10, ILLIQUID: -20, DEAD: -30 }
const QUALITY_POINTS: Record<string, number> = { FULL: 0, PARTIAL: -5, LIMITED: -15 }

/**
 * The factors that move conviction, each with its points and why: the deep dive's safety score
 * (score − 60, halved), the grade, the deep dive's recommendation, the market signal, token health,
 * volatility, the radar's strength (0 to +10), the round trip's cost and the data quality.
 */
export function citedFactors(battery: Battery, radarScore: number): CitedFactor[] {
  const factors: CitedFactor[] = []
  const add = (factor: string, points: number, detail: string) => factors.push({ factor, points, detail })
  const { quick, market, deep, exit } = battery
  if (deep) add('SAFETY_SCORE', Math.round((deep.score - 60) / 2), `The deep dive scores it ${deep.score}/100`)
  const grade = deep?.grade ?? quick?.grade
  if (grade !== undefined && GRADE_POINTS[grade] !== undefined)
    add('GRADE', GRADE_POINTS[grade]!, `Risk grade ${grade}`)
  if (deep && RECOMMENDATION_POINTS[deep.recommendation] !== undefined)
    add('DEEP_DIVE', RECOMMENDATION_POINTS[deep.recommendation]!, `The deep dive says ${deep.recommendation}`)
  if (!deep) add('DEEP_DIVE', -15, 'The deep dive did not finish in time')
  if (market) {
    add('MARKET_SIGNAL', SIGNAL_POINTS[market.signal] ?? 0, `Market intel reads ${market.signal}`)
    add('TOKEN_HEALTH', HEALTH_POINTS[market.token_health] ?? 0, `Token health ${market.token_health}`)
    if (market.volatility === 'HIGH') add('VOLATILITY', -5, 'Volatility HIGH')
  } else add('MARKET_SIGNAL', -10, 'Market intel did not finish in time')
  add('RADAR', Math.round(Math.min(100, Math.max(0, radarScore)) / 10), `Radar strength ${Math.round(radarScore)}/100`)
  const cost = roundTripCostPct(exit)
  if (cost !== null)
    add(
      'EXIT_COST',
      cost <= 1 ? 5 : cost <= 2 ? 0 : cost <= 5 ? -5 : -15,
      `A round trip of ${amount(exit!.size_usdc, 'USDC')} costs ${pct(cost)}`,
    )
  const quality = deep?.data_quality
  if (quality && QUALITY_POINTS[quality]) add('DATA_QUALITY', QUALITY_POINTS[quality]!, `Deep dive data ${quality}`)
  return factors
}

export interface Decision {
  action: Exclude<Action, 'NO_CANDIDATE'>
  conviction: number
  suggested_size_usd: number
  gates: Gate[]
  reason: string
}

/** The most a suggestion may put in for `budgetUsd` at this appetite, capped by the pool's liquidity. */
export function sizeCapUsd(appetite: Appetite, budgetUsd: number, liquidityUsd: number | null): number {
  const byBudget = budgetUsd * appetite.maxShare
  return liquidityUsd === null ? byBudget : Math.min(byBudget, liquidityUsd * appetite.liquidityShare)
}

const cents = (usd: number) => Math.floor(usd * 100) / 100

/** Gates, then conviction bands; a buy's size scales with conviction (SMALL_BUY: half). */
export function decide(
  battery: Battery,
  factors: readonly CitedFactor[],
  appetite: Appetite,
  budgetUsd: number,
  liquidityUsd: number | null,
): Decision {
  const gates = gatesOf(battery)
  const raw = BASE_CONVICTION + factors.reduce((sum, factor) => sum + factor.points, 0)
  const conviction = Math.max(0, Math.min(100, Math.round(raw)))
  if (gates.length > 0)
    return { action: 'AVOID', conviction: 0, suggested_size_usd: 0, gates, reason: `Hard gate: ${gates.join(', ')}` }
  if (battery.exit?.sellable !== true)
    return {
      action: 'WATCH',
      conviction: Math.min(conviction, WATCH_AT),
      suggested_size_usd: 0,
      gates,
      reason: 'The exit could not be checked: no buy is suggested without a verified way out',
    }
  const action: Decision['action'] =
    conviction >= appetite.buyAt
      ? 'BUY'
      : conviction >= appetite.smallBuyAt
        ? 'SMALL_BUY'
        : conviction >= WATCH_AT
          ? 'WATCH'
          : 'AVOID'
  if (action === 'WATCH' || action === 'AVOID')
    return {
      action,
      conviction,
      suggested_size_usd: 0,
      gates,
      reason: `Conviction ${conviction} is below ${appetite.smallBuyAt}`,
    }
  const size = cents(sizeCapUsd(appetite, budgetUsd, liquidityUsd) * (conviction / 100) * (action === 'BUY' ? 1 : 0.5))
  if (size < MIN_SIZE_USD)
    return {
      action: 'WATCH',
      conviction,
      suggested_size_usd: 0,
      gates,
      reason: 'The size the pool allows is too small to trade',
    }
  return {
    action,
    conviction,
    suggested_size_usd: size,
    gates,
    reason: `Conviction ${conviction} (${action === 'BUY' ? `≥ ${appetite.buyAt}` : `≥ ${appetite.smallBuyAt}`})`,
  }
}

export interface TradePlan {
  slippage_bps: number
  max_price_impact_pct: number
  round_trip_exit_cost_pct: number | null
  stop_loss_hint: string
}

/** Slippage from the measured exit impact (1.5×, at least 50 bps, at most the appetite's ceiling). */
export function tradePlan(battery: Battery, appetite: Appetite, riskAppetite: RiskAppetite): TradePlan {
  const impact = battery.exit?.exit_price_impact_pct ?? null
  const fromImpact = impact === null ? appetite.maxSlippageBps : Math.ceil(impact * 100 * 1.5)
  return {
    slippage_bps: Math.max(50, Math.min(appetite.maxSlippageBps, fromImpact)),
    max_price_impact_pct: appetite.maxPriceImpactPct,
    round_trip_exit_cost_pct: roundTripCostPct(battery.exit),
    stop_loss_hint: `Consider selling if the price falls ${pct(appetite.stopLossPct)} below your entry (${riskAppetite}); check the way out with POST /exit/check first.`,
  }
}
