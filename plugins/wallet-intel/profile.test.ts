import { describe, expect, test } from 'bun:test'
import { type Figures, styleOf, verdictOf, worthinessOf } from './profile.ts'
import type { WalletTrade } from './wallet-trades.ts'

const figures = (overrides: Partial<Figures> = {}): Figures => ({
  total_trades: 10,
  buys: 5,
  sells: 5,
  tokens_traded: 5,
  closed_positions: 5,
  open_positions: 0,
  win_rate_pct: 60,
  realized_pnl_usd: 100,
  realized_pnl_pct: 20,
  avg_hold_time_s: 7_200,
  median_hold_time_s: 7_200,
  ...overrides,
})
const trades = (count: number, everySeconds: number): WalletTrade[] =>
  Array.from({ length: count }, (_, i) => ({
    signature: `s${i}`,
    slot: BigInt(i),
    time: 1_700_000_000 + i * everySeconds,
    mint: `M${i % 3}`,
    side: i % 2 ? 'sell' : 'buy',
    tokenAmount: 1n,
    quote: 'SOL',
    quoteAmount: 1,
    launchpad: false,
  }))
const none = { assessed: 0, sniped: 0 }

describe('behaviour style (first rule that holds)', () => {
  test.each([
    ['bot_like: 40 trades a minute apart', trades(40, 60), figures(), none, 'bot_like'],
    [
      'sniper: both assessed launches bought in their first slots',
      trades(4, 3_600),
      figures(),
      { assessed: 2, sniped: 2 },
      'sniper',
    ],
    ['sniper even with two trades', trades(2, 3_600), figures(), { assessed: 1, sniped: 1 }, 'sniper'],
    ['insufficient_data: two trades', trades(2, 3_600), figures(), { assessed: 1, sniped: 0 }, 'insufficient_data'],
    ['flipper: a 2-hour median hold', trades(10, 3_600), figures(), none, 'flipper'],
    ['holder: an 8-day median hold', trades(10, 86_400), figures({ median_hold_time_s: 8 * 86_400 }), none, 'holder'],
    ['swing: a 3-day median hold', trades(10, 86_400), figures({ median_hold_time_s: 3 * 86_400 }), none, 'swing'],
  ] as const)('%s', (_, list, numbers, launches, expected) => {
    expect(styleOf({ trades: list, figures: numbers, launches })).toBe(expected)
  })
})

describe('copy-trade worthiness and verdict', () => {
  test('too short a record: UNKNOWN, UNPROVEN', () => {
    const few = figures({ closed_positions: 2 })
    expect(worthinessOf(few, 'flipper')).toMatchObject({ label: 'UNKNOWN', score: null })
    expect(verdictOf(few, 'flipper')).toBe('UNPROVEN')
  })
  test('wins 100% and returns 22%: HIGH (60 + 22 = 82), PROFITABLE_TRADER', () => {
    const good = figures({ win_rate_pct: 100, realized_pnl_pct: 22 })
    expect(worthinessOf(good, 'flipper')).toMatchObject({ label: 'HIGH', score: 82 })
    expect(verdictOf(good, 'flipper')).toBe('PROFITABLE_TRADER')
  })
  test('a loss beyond 2%: AVOID, LOSING_TRADER; within 2%: BREAKEVEN_TRADER', () => {
    const losing = figures({ win_rate_pct: 40, realized_pnl_pct: -6 })
    expect(worthinessOf(losing, 'swing').label).toBe('AVOID')
    expect(verdictOf(losing, 'swing')).toBe('LOSING_TRADER')
    expect(verdictOf(figures({ realized_pnl_pct: 1.5 }), 'swing')).toBe('BREAKEVEN_TRADER')
  })
  test('bots and snipers: AVOID whatever their record; a rugger: AVOID with score 0, RUGGER first', () => {
    expect(worthinessOf(figures({ win_rate_pct: 100 }), 'bot_like').label).toBe('AVOID')
    expect(verdictOf(figures(), 'sniper')).toBe('SNIPER')
    expect(worthinessOf(figures(), 'sniper', 2)).toMatchObject({ label: 'AVOID', score: 0 })
    expect(verdictOf(figures(), 'bot_like', 1)).toBe('RUGGER')
  })
})
