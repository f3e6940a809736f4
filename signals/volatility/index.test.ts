import { describe, expect, test } from 'bun:test'
import { market, MINT, pair, run, SOL, swap, trades, unmeasuredOf } from '../../test/support/facts/index.ts'
import volatility from './index.ts'

const HOUR = 3_600
const changes = (h1: number, h6: number, h24: number) => ({ m5: 0, h1, h6, h24 })

describe('volatility: the widest swing of the day, in bands', () => {
  const table: [string, Parameters<typeof run>[1], string][] = [
    ['a calm day', { market: market(pair({ priceChange: changes(1, 2, 3) })), trades: trades([]) }, 'LOW'],
    ['+15% over 24 h', { market: market(pair({ priceChange: changes(1, 2, 15) })), trades: trades([]) }, 'MEDIUM'],
    [
      '−40% over 6 h, back by the end of the day',
      { market: market(pair({ priceChange: changes(1, -40, 2) })), trades: trades([]) },
      'HIGH',
    ],
    [
      'flat windows but trades 40% apart within the day',
      {
        market: market(pair({ priceChange: changes(0, 0, 0) })),
        trades: trades([swap(5 * HOUR, 'buy', 1, 0.00001), swap(HOUR, 'buy', 1, 0.000014)]),
      },
      'HIGH',
    ],
    [
      'at the band edge: a 10% fall is MEDIUM',
      { market: market(pair({ priceChange: changes(0, 0, -10) })), trades: trades([]) },
      'MEDIUM',
    ],
  ]
  for (const [name, facts, expected] of table)
    test(`${name}: ${expected}`, () => {
      const outcome = run(volatility, facts)
      expect(outcome.status).toBe('ok')
      expect(outcome.fields.volatility).toBe(expected)
    })

  test('trades older than a day do not count', () => {
    const outcome = run(volatility, {
      market: market(pair({ priceChange: changes(0, 0, 0) })),
      trades: trades([swap(30 * HOUR, 'buy', 1, 0.00001), swap(HOUR, 'buy', 1, 0.000014)]),
    })
    expect(outcome.fields.volatility).toBe('LOW')
  })

  test('nothing to measure (only quoted, under two trades): null, listed', () => {
    const quoted = pair({
      baseToken: { address: SOL, name: 'SOL', symbol: 'SOL' },
      quoteToken: { address: MINT, name: 'Token', symbol: 'TOK' },
      priceNative: '150',
      priceUsd: '150',
    })
    const outcome = run(volatility, { market: market(quoted), trades: trades([swap(HOUR, 'buy', 1)]) })
    expect(outcome.fields.volatility).toBeNull()
    expect(unmeasuredOf(outcome)).toEqual(['volatility'])
  })

  test('without market data, from trades alone; the missing market is named', () => {
    const outcome = run(volatility, {
      trades: trades([swap(5 * HOUR, 'buy', 1, 0.00001), swap(HOUR, 'buy', 1, 0.000012)]),
    })
    expect(outcome).toMatchObject({ status: 'unknown', missing: ['market'], fields: { volatility: 'MEDIUM' } })
  })
})
