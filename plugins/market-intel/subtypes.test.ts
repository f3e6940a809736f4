import { describe, expect, test } from 'bun:test'
import { SIGNAL_SUBTYPES, subtypeOf, type SignalInputs, type SignalSubtype } from './subtypes.ts'

const base: SignalInputs = {
  priceKnown: true,
  tokenHealth: 'ACTIVE',
  buyPressure: 'MEDIUM',
  sellPressure: 'MEDIUM',
  priceChange24hPct: 0,
  codes: new Set(),
}

describe('signal subtype: the first rule that matches', () => {
  const table: [string, Partial<SignalInputs>, SignalSubtype][] = [
    ['no price', { priceKnown: false, codes: new Set(['PRICE_SURGE']), buyPressure: 'HIGH' }, 'INSUFFICIENT_DATA'],
    [
      'dead, even with a surge',
      { tokenHealth: 'DEAD', codes: new Set(['PRICE_SURGE']), buyPressure: 'HIGH' },
      'LOW_LIQUIDITY_NOISE',
    ],
    ['illiquid', { tokenHealth: 'ILLIQUID' }, 'LOW_LIQUIDITY_NOISE'],
    [
      'a handful of wallets, however one-sided',
      { codes: new Set(['FEW_TRADERS']), buyPressure: 'HIGH', sellPressure: 'LOW' },
      'CONCENTRATED_FLOW',
    ],
    [
      'a crash with sellers still there',
      { codes: new Set(['PRICE_CRASH']), priceChange24hPct: -40, sellPressure: 'MEDIUM' },
      'CAPITULATION',
    ],
    [
      'a crash nobody sells into any more',
      { codes: new Set(['PRICE_CRASH']), priceChange24hPct: -40, sellPressure: 'LOW', buyPressure: 'HIGH' },
      'RANGE_BOUND',
    ],
    [
      'a surge on dominant buying',
      { codes: new Set(['PRICE_SURGE']), priceChange24hPct: 60, buyPressure: 'HIGH', sellPressure: 'LOW' },
      'MOMENTUM_BREAKOUT',
    ],
    [
      'a surge without dominant buying',
      { codes: new Set(['PRICE_SURGE']), priceChange24hPct: 60, buyPressure: 'MEDIUM' },
      'RANGE_BOUND',
    ],
    [
      'buyers dominate, price holding',
      { buyPressure: 'HIGH', sellPressure: 'LOW', priceChange24hPct: -4 },
      'ACCUMULATION',
    ],
    [
      'buyers dominate while it slides',
      { buyPressure: 'HIGH', sellPressure: 'LOW', priceChange24hPct: -8 },
      'RANGE_BOUND',
    ],
    [
      'sellers dominate, price not rising',
      { buyPressure: 'LOW', sellPressure: 'HIGH', priceChange24hPct: 4 },
      'DISTRIBUTION',
    ],
    [
      'sellers dominate into a rally',
      { buyPressure: 'LOW', sellPressure: 'HIGH', priceChange24hPct: 12 },
      'RANGE_BOUND',
    ],
    ['balanced', {}, 'RANGE_BOUND'],
  ]
  for (const [name, inputs, expected] of table)
    test(`${name}: ${expected} (${SIGNAL_SUBTYPES[expected].signal})`, () => {
      expect(subtypeOf({ ...base, ...inputs })).toBe(expected)
    })

  test('every subtype is reachable and maps to one signal', () => {
    expect(new Set(table.map(([, , subtype]) => subtype))).toEqual(
      new Set(Object.keys(SIGNAL_SUBTYPES) as SignalSubtype[]),
    )
  })
})
