import { describe, expect, test } from 'bun:test'
import {
  codesOf,
  market,
  MINT,
  pair,
  run,
  SOL,
  swap,
  trades,
  unmeasuredOf,
  NOW,
} from '../../test/support/facts/index.ts'
import pressure from './index.ts'

const HOUR = 3_600
const counts = (buys: number, sells: number) => ({
  m5: { buys: 0, sells: 0 },
  h1: { buys: 0, sells: 0 },
  h6: { buys: 0, sells: 0 },
  h24: { buys, sells },
})

describe('buy-sell-pressure: the ratio counts transactions', () => {
  const table: [string, number, number, number][] = [
    ['twice as many buys', 20, 10, 2],
    ['no sells: buys per one sell', 7, 0, 7],
    ['nothing bought', 0, 4, 0],
    ['nothing traded', 0, 0, 0],
  ]
  for (const [name, buys, sells, ratio] of table)
    test(`${name}: ${ratio}`, () => {
      expect(
        run(pressure, { market: market(pair({ txns: counts(buys, sells) })), trades: trades([]) }).fields
          .buy_sell_ratio,
      ).toBe(ratio)
    })

  test('where the token is the quote, a buy of the pair is a sale of the token', () => {
    const quoted = pair({
      baseToken: { address: SOL, name: 'SOL', symbol: 'SOL' },
      quoteToken: { address: MINT, name: 'Token', symbol: 'TOK' },
      priceNative: '150',
      priceUsd: '150',
      txns: counts(30, 10),
    })
    expect(run(pressure, { market: market(quoted), trades: trades([]) }).fields.buy_sell_ratio).toBe(0.33)
  })
})

describe('buy-sell-pressure: pressure weighs the value traded', () => {
  test('ten small buys against three large sells: more buys, but sellers dominate', () => {
    const swaps = [
      ...Array.from({ length: 10 }, (_, i) => swap(HOUR + i, 'buy', 0.1)),
      ...[1, 2, 3].map((i) => swap(2 * HOUR + i, 'sell', 5)),
    ]
    const outcome = run(pressure, { market: market(pair({ txns: counts(10, 3) })), trades: trades(swaps) })
    expect(outcome.fields).toMatchObject({ buy_sell_ratio: 3.33, buy_pressure: 'LOW', sell_pressure: 'HIGH' })
    expect(codesOf(outcome)).toContain('SELL_PRESSURE_HIGH')
    expect(outcome.factors.find((entry) => entry.code === 'SELL_PRESSURE_HIGH')!.evidence).toMatchObject({
      basis: 'trade_value',
    })
  })

  test('balanced value: both MEDIUM', () => {
    const swaps = [1, 2, 3].flatMap((i) => [swap(HOUR * i, 'buy', 1), swap(HOUR * i + 60, 'sell', 1)])
    expect(run(pressure, { market: market(pair()), trades: trades(swaps) }).fields).toMatchObject({
      buy_pressure: 'MEDIUM',
      sell_pressure: 'MEDIUM',
    })
  })

  test('without the trades, the share of transactions decides (and `trades` is missing)', () => {
    const outcome = run(pressure, { market: market(pair({ txns: counts(30, 10) })) })
    expect(outcome).toMatchObject({
      status: 'unknown',
      missing: ['trades'],
      fields: { buy_pressure: 'HIGH', sell_pressure: 'LOW' },
    })
  })

  test('fewer than five trades: no pressure either way', () => {
    const outcome = run(pressure, {
      market: market(pair({ txns: counts(3, 1) })),
      trades: trades([swap(HOUR, 'buy', 50)]),
    })
    expect(outcome.fields).toMatchObject({ buy_pressure: 'LOW', sell_pressure: 'LOW' })
    expect(codesOf(outcome)).toContain('FEW_TRADES')
  })

  test('trades older than a day do not count', () => {
    const old = Array.from({ length: 6 }, (_, i) => swap(30 * HOUR + i, 'sell', 5))
    const outcome = run(pressure, { market: market(pair({ txns: counts(8, 2) })), trades: trades(old) })
    expect(outcome.factors.some((entry) => entry.evidence.basis === 'trade_count')).toBe(true)
    expect(outcome.fields.buy_pressure).toBe('HIGH')
  })
})

describe('buy-sell-pressure: without market data', () => {
  test('the ratio comes from trades spanning the day', () => {
    const swaps = [swap(HOUR, 'buy', 1), swap(2 * HOUR, 'buy', 1), swap(3 * HOUR, 'sell', 1)]
    expect(run(pressure, { trades: trades(swaps) })).toMatchObject({
      status: 'unknown',
      missing: ['market'],
      fields: { buy_sell_ratio: 2 },
    })
  })

  test('trades not spanning the day: the ratio is not measured', () => {
    const outcome = run(pressure, {
      trades: trades(
        Array.from({ length: 6 }, (_, i) => swap(60 * (i + 1), 'buy', 1)),
        NOW - 2 * HOUR,
      ),
    })
    expect(outcome.fields).toMatchObject({ buy_sell_ratio: null, buy_pressure: 'HIGH' })
    expect(unmeasuredOf(outcome)).toEqual(['buy_sell_ratio'])
  })
})
