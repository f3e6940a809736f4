import { describe, expect, test } from 'bun:test'
import { codesOf, DAY, market, pair, run, swap, trades } from '../../test/support/facts/index.ts'
import tokenHealth from './index.ts'

const HOUR = 3_600
const txns = (h6: number, h24: number) => ({
  m5: { buys: 0, sells: 0 },
  h1: { buys: 0, sells: 0 },
  h6: { buys: h6, sells: 0 },
  h24: { buys: h24, sells: 0 },
})
/** A day of trades by `wallets` distinct wallets, the newest an hour ago. */
const day = (count: number, wallets: number) =>
  Array.from({ length: count }, (_, i) => swap(HOUR + i * 600, i % 2 ? 'sell' : 'buy', 1, 0.00001, `w${i % wallets}`))

describe('token-health: the first rule that matches', () => {
  const table: [string, Parameters<typeof run>[1], string, string][] = [
    ['a steady day by many wallets', { market: market(pair()), trades: trades(day(30, 12)) }, 'ACTIVE', 'ACTIVE'],
    [
      'no trade for 8 days',
      {
        market: market(pair({ txns: txns(0, 0), volume: { h1: 0, h24: 0 } })),
        trades: trades([swap(8 * DAY, 'sell', 0.1)]),
      },
      'DEAD',
      'TOKEN_DEAD',
    ],
    [
      'never traded, pool a month old',
      { market: market(pair({ txns: txns(0, 0) })), trades: trades([]) },
      'DEAD',
      'TOKEN_DEAD',
    ],
    [
      'never traded, pool three days old',
      {
        market: market(pair({ txns: txns(0, 0), pairCreatedAt: (1_800_000_000 - 3 * DAY) * 1000 })),
        trades: trades([]),
      },
      'LOW_ACTIVITY',
      'LOW_ACTIVITY',
    ],
    [
      '$500 of liquidity',
      { market: market(pair({ liquidity: { usd: 500, base: 1, quote: 1 } })), trades: trades(day(30, 12)) },
      'ILLIQUID',
      'ILLIQUID',
    ],
    [
      'a third of the price gone in a day',
      { market: market(pair({ priceChange: { m5: 0, h1: -1, h6: -5, h24: -35 } })), trades: trades(day(30, 12)) },
      'DECLINING',
      'DECLINING',
    ],
    [
      'a busy day gone silent for six hours',
      {
        market: market(pair({ txns: txns(0, 25) })),
        trades: trades(day(25, 12).map((entry) => ({ ...entry, blockTime: entry.blockTime! - 6 * HOUR }))),
      },
      'DECLINING',
      'DECLINING',
    ],
    [
      'five trades a day',
      { market: market(pair({ txns: txns(2, 5), volume: { h1: 0, h24: 800 } })), trades: trades(day(5, 5)) },
      'LOW_ACTIVITY',
      'LOW_ACTIVITY',
    ],
    [
      'busy, but under $10k',
      { market: market(pair({ volume: { h1: 0, h24: 9_000 } })), trades: trades(day(30, 12)) },
      'LOW_ACTIVITY',
      'LOW_ACTIVITY',
    ],
    [
      'heavy volume by three wallets',
      { market: market(pair({ volume: { h1: 0, h24: 100_000 } })), trades: trades(day(30, 3)) },
      'LOW_ACTIVITY',
      'FEW_TRADERS',
    ],
  ]
  for (const [name, facts, health, code] of table)
    test(`${name}: ${health}`, () => {
      const outcome = run(tokenHealth, facts)
      expect(outcome.status).toBe('ok')
      expect(outcome.fields.token_health).toBe(health)
      expect(codesOf(outcome)).toContain(code)
    })

  test('volume and liquidity are summed over every pair', () => {
    const second = pair({
      pairAddress: 'Other11111111111111111111111111111111111111',
      volume: { h1: 100, h24: 1_000 },
      liquidity: { usd: 5_000, base: 1, quote: 1 },
    })
    expect(run(tokenHealth, { market: market(pair(), second), trades: trades(day(30, 12)) }).fields).toMatchObject({
      volume_24h_usd: 26_000,
      volume_1h_usd: 1_000,
      liquidity_usd: 205_000,
    })
  })

  test('without the trades, a quiet day is not proof of death', () => {
    const outcome = run(tokenHealth, { market: market(pair({ txns: txns(0, 0), volume: { h1: 0, h24: 0 } })) })
    expect(outcome).toMatchObject({ status: 'unknown', missing: ['trades'], fields: { token_health: 'LOW_ACTIVITY' } })
  })

  test('no pool at all: NO_MARKET and the market counted missing', () => {
    const outcome = run(tokenHealth, { market: market(), trades: trades([]) })
    expect(outcome).toMatchObject({ status: 'unknown', missing: ['market'], fields: { token_health: null } })
    expect(codesOf(outcome)).toContain('NO_MARKET')
  })
})
