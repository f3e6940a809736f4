import { describe, expect, test } from 'bun:test'
import { CLEAN_BATTERY } from '../../test/support/battery.ts'
import { APPETITES, type Battery, citedFactors, decide, gatesOf, tradePlan } from './rules.ts'

/** A clean, liquid, well-graded token: every part of the battery answered. */
const clean = CLEAN_BATTERY
const balanced = APPETITES.balanced
const decision = (battery: Battery, radar = 50, budget = 100, liquidity: number | null = 1_000_000) =>
  decide(battery, citedFactors(battery, radar), balanced, budget, liquidity)

describe('hard gates: AVOID whatever the momentum', () => {
  test.each([
    ['quick grade D', { quick: { grade: 'D', score: 30 } }, 'GRADE_D_OR_F'],
    ['deep grade F', { deep: { ...clean.deep!, grade: 'F' } }, 'GRADE_D_OR_F'],
    ['not sellable', { exit: { ...clean.exit!, sellable: false, exit_rating: 'BLOCKED' } }, 'NOT_SELLABLE'],
    [
      'a PUNITIVE exit (sellable, but 94% lost on the way out)',
      { exit: { ...clean.exit!, expected_return_usdc: 3, exit_price_impact_pct: 93, exit_rating: 'PUNITIVE' } },
      'EXIT_PUNITIVE',
    ],
    [
      'a PUNITIVE exit the route cannot absorb, the round trip cheap',
      { exit: { ...clean.exit!, exit_price_impact_pct: 25, exit_rating: 'PUNITIVE' } },
      'EXIT_PUNITIVE',
    ],
    ['a honeypot', { deep: { ...clean.deep!, is_honeypot: true } }, 'HONEYPOT'],
    ['a serial rugger', { deep: { ...clean.deep!, previous_rugs: true } }, 'SERIAL_RUGGER'],
    ['the deep dive says AVOID', { deep: { ...clean.deep!, recommendation: 'AVOID' } }, 'DEEP_DIVE_AVOID'],
    [
      'a grade C held there by a finding (a live freeze authority), the score an A',
      { capped: ['FREEZE_AUTHORITY_LIVE'], quick: { grade: 'C', score: 95 } },
      'CAPPED_BY_FINDING',
    ],
  ] as const)('%s → AVOID (%s), conviction 0, no size', (_, change, gate) => {
    const battery = { ...clean, ...change } as Battery
    expect(gatesOf(battery)).toContain(gate)
    // The strongest radar and a huge budget change nothing.
    expect(decision(battery, 100, 1_000_000)).toMatchObject({ action: 'AVOID', conviction: 0, suggested_size_usd: 0 })
  })

  test('an exit that could not be checked is never a buy: WATCH, conviction at most 40', () => {
    const result = decision({ ...clean, exit: null })
    expect(result.action).toBe('WATCH')
    expect(result.conviction).toBeLessThanOrEqual(40)
  })
})

describe('conviction, action and size', () => {
  test('the clean token: BUY, sized by conviction within the appetite’s share of the budget', () => {
    const result = decision(clean)
    expect(result.action).toBe('BUY')
    expect(result.suggested_size_usd).toBeLessThanOrEqual(100 * balanced.maxShare)
    expect(result.suggested_size_usd).toBe(Math.floor(50 * (result.conviction / 100) * 100) / 100)
  })

  test('the size never exceeds the appetite’s share of the pool’s liquidity', () => {
    expect(decision(clean, 50, 1_000_000, 10_000).suggested_size_usd).toBeLessThanOrEqual(
      10_000 * balanced.liquidityShare,
    )
  })

  test('weaker readings lower conviction: SMALL_BUY at half size, then WATCH, then AVOID', () => {
    const middling: Battery = {
      ...clean,
      deep: { ...clean.deep!, grade: 'B', score: 70, recommendation: 'WATCH' },
      market: { ...clean.market!, signal: 'NEUTRAL', token_health: 'LOW_ACTIVITY' },
    }
    const weak: Battery = { ...middling, market: { ...middling.market!, signal: 'BEARISH', volatility: 'HIGH' } }
    const poor: Battery = {
      ...weak,
      deep: { ...weak.deep!, grade: 'C', score: 55, recommendation: 'DYOR', data_quality: 'LIMITED' },
    }
    const actions = [clean, middling, weak, poor].map((battery) => decision(battery).action)
    expect(actions).toEqual(['BUY', 'SMALL_BUY', 'WATCH', 'AVOID'])
    const convictions = [clean, middling, weak, poor].map((battery) => decision(battery).conviction)
    expect(convictions).toEqual([...convictions].sort((a, b) => b - a))
  })

  test('every factor is cited with its points; conviction is 50 plus their sum, clamped', () => {
    const factors = citedFactors(clean, 50)
    expect(factors.map((factor) => factor.factor)).toEqual([
      'SAFETY_SCORE',
      'GRADE',
      'DEEP_DIVE',
      'MARKET_SIGNAL',
      'TOKEN_HEALTH',
      'RADAR',
      'EXIT_COST',
    ])
    const sum = factors.reduce((total, factor) => total + factor.points, 0)
    expect(decision(clean).conviction).toBe(Math.min(100, 50 + sum))
  })
})

describe('the trade plan', () => {
  test('slippage from the measured impact (1.5×), within 50 bps and the appetite’s ceiling', () => {
    expect(tradePlan(clean, balanced, 'balanced').slippage_bps).toBe(60)
    const rough = { ...clean, exit: { ...clean.exit!, exit_price_impact_pct: 9 } }
    expect(tradePlan(rough, APPETITES.conservative, 'conservative').slippage_bps).toBe(100)
    expect(tradePlan(rough, APPETITES.aggressive, 'aggressive').slippage_bps).toBe(1_000)
    const calm = { ...clean, exit: { ...clean.exit!, exit_price_impact_pct: 0.01 } }
    expect(tradePlan(calm, balanced, 'balanced').slippage_bps).toBe(50)
  })
  test('round-trip cost from the exit check; the stop-loss hint by appetite', () => {
    const plan = tradePlan(clean, APPETITES.aggressive, 'aggressive')
    expect(plan.round_trip_exit_cost_pct).toBe(1)
    expect(plan.stop_loss_hint).toContain('35%')
    expect(plan.max_price_impact_pct).toBe(5)
  })
})
