import { describe, expect, test } from 'bun:test'
import type { SwapRecord } from '../../src/facts/types.ts'
import { base, buy, launch, runOn as run } from '../../test/support/facts/launch.ts'
import sniperActivity from './index.ts'

describe('sniper-activity', () => {
  const snipers = (count: number, tokenAmount = 1_000n) =>
    Array.from({ length: count }, (_, i) => buy(`s${i}`, 1 + (i % 3), tokenAmount))
  const cases: [string, SwapRecord[], string][] = [
    ['eight wallets in the three slots after opening: HIGH', snipers(8), 'HIGH'],
    ['a fifth of the supply by two wallets: HIGH', snipers(2, 100_000n), 'HIGH'],
    ['three wallets: MEDIUM', snipers(3), 'MEDIUM'],
    ['two small buys: LOW', snipers(2), 'LOW'],
    [
      'buyers in the opening slot (bundle) or after the window do not count',
      [buy('a', 0), buy('b', 0), buy('c', 0), buy('d', 4), buy('e', 5), buy('f', 6)],
      'LOW',
    ],
    ["the developer's own buys do not count", [buy('dev', 1), buy('dev', 2), buy('dev', 3)], 'LOW'],
  ]
  for (const [name, trades, level] of cases)
    test(name, () => expect(run(sniperActivity, base(trades)).fields).toEqual({ sniper_activity: level }))
  test('opening unknown (history too long): unknown, no level', () => {
    expect(run(sniperActivity, { ...base([]), launch: launch([], 'pool', null) })).toMatchObject({
      status: 'unknown',
      fields: {},
    })
  })
})
