import { describe, expect, test } from 'bun:test'
import recorded from '../../test/fixtures/recorded/jupiter/tokens-v2-category-toptrending-1h-orbytlab.json'
import type { JupiterToken } from '../../src/sources/jupiter.ts'
import { flagsOf, readSignals } from './service.ts'

// The signals read off real ranking entries: Jupiter's toptrending/1h answer recorded 2026-09-28.
const entries = recorded.answer as unknown as JupiterToken[]
const entry = (symbol: string) => entries.find((token) => token.symbol === symbol)!
const fired = (symbol: string) =>
  readSignals(entry(symbol), '1h')
    .filter((reading) => reading.fired)
    .map((reading) => reading.signal)

describe('signal radar readings on recorded Jupiter entries', () => {
  test('CARDS: a 1 813% volume spike, +30% price, organic 94, +4% holders, +51% liquidity; buying 54.9% is not pressure', () => {
    const readings = readSignals(entry('CARDS'), '1h')
    expect(fired('CARDS')).toEqual([
      'VOLUME_SPIKE',
      'PRICE_MOMENTUM',
      'ORGANIC_ACTIVITY',
      'HOLDER_GROWTH',
      'LIQUIDITY_GROWTH',
    ])
    // 4 594 070.64 bought of 8 362 465.86 traded.
    expect(readings.find((reading) => reading.signal === 'BUY_PRESSURE')!.value).toBe(54.94)
    // 4 568 traders for 47 358 trades: 9.6 per hundred, a crowd of repeat traders.
    expect(readings.find((reading) => reading.signal === 'BROAD_PARTICIPATION')!.value).toBe(9.65)
    expect(readings.every((reading) => reading.measured)).toBe(true)
  })

  test('SI: momentum, buying 60%, organic 89 and 24 traders per hundred trades; volume falling', () => {
    expect(fired('SI')).toEqual(['PRICE_MOMENTUM', 'BUY_PRESSURE', 'ORGANIC_ACTIVITY', 'BROAD_PARTICIPATION'])
  })

  test('an entry without organic or holder figures cannot fire those: unmeasured, value null', () => {
    const bare = {
      ...entry('SI'),
      organicScore: undefined,
      stats1h: { ...entry('SI').stats1h, holderChange: undefined },
    }
    const readings = readSignals(bare as JupiterToken, '1h')
    for (const signal of ['ORGANIC_ACTIVITY', 'HOLDER_GROWTH'])
      expect(readings.find((reading) => reading.signal === signal)).toMatchObject({
        measured: false,
        fired: false,
        value: null,
      })
  })

  test('flags: thin liquidity, a spike with a low organic score, a D grade, selling', () => {
    const thin = { ...entry('CARDS'), liquidity: 5_000, organicScore: 10 } as JupiterToken
    const grade = { grade: 'D' as const, score: 40, data_quality: 'FULL' as const, authority_exempt: false, risks: [] }
    expect(flagsOf(thin, readSignals(thin, '1h'), grade)).toEqual(['THIN_LIQUIDITY', 'INORGANIC_VOLUME', 'RISKY_GRADE'])
    const selling = {
      ...entry('SI'),
      stats1h: { ...entry('SI').stats1h, buyVolume: 10, sellVolume: 90 },
    } as JupiterToken
    expect(flagsOf(selling, readSignals(selling, '1h'), null)).toEqual(['SELL_PRESSURE'])
  })
})
