import { describe, expect, test } from 'bun:test'
import type { Facts, SwapRecord } from '../../src/facts/types.ts'
import type { FactView } from '../../src/pipeline/signal.ts'
import washTrading, { washFinding } from './index.ts'
import { washScore } from './score.ts'

const NOW = 1_000_000
const view = (facts: Partial<Facts>): FactView => ({ get: (name) => facts[name] as never })
const swap = (wallet: string, side: 'buy' | 'sell', secondsAgo: number, quote = 1_000n): SwapRecord => ({
  signature: `${wallet}-${side}-${secondsAgo}`,
  slot: 1n,
  blockTime: NOW - secondsAgo,
  side,
  wallet,
  tokenAmount: 1n,
  quoteMint: 'So11111111111111111111111111111111111111112',
  quoteAmount: quote,
})
const self = (wallet: string) => wallet

describe('washScore', () => {
  test('one wallet flipping the same size back and forth scores 100', () => {
    const swaps = Array.from({ length: 10 }, (_, i) => [
      swap('w', 'buy', 10_000 - i * 600),
      swap('w', 'sell', 9_900 - i * 600),
    ]).flat()
    expect(washScore(swaps, self)).toMatchObject({ score: 100, roundTripShare: 1, roundTrips: 10, traders: 1 })
  })

  test('a single quick flip is trading, not wash', () => {
    expect(washScore([swap('w', 'buy', 100), swap('w', 'sell', 50), swap('v', 'buy', 40)], self).roundTripShare).toBe(0)
  })

  test('legs of different sizes or more than an hour apart are not round trips', () => {
    const swaps = [
      swap('w', 'buy', 9_000, 1_000n),
      swap('w', 'sell', 8_900, 500n),
      swap('w', 'buy', 8_000),
      swap('w', 'sell', 1_000),
    ]
    expect(washScore(swaps, self).roundTrips).toBe(0)
  })

  test('linked wallets trade as one trader', () => {
    const swaps = Array.from({ length: 4 }, (_, i) => [
      swap(`w${i}`, 'buy', 5_000 - i * 600),
      swap(`w${i}`, 'sell', 4_900 - i * 600),
    ]).flat()
    expect(washScore(swaps, self).roundTripShare).toBe(0)
    expect(washScore(swaps, () => 'operator')).toMatchObject({ roundTripShare: 1, traders: 1 })
  })

  test('independent traders buying once each score about zero', () => {
    expect(
      washScore(
        Array.from({ length: 20 }, (_, i) => swap(`w${i}`, 'buy', i * 60)),
        self,
      ).score,
    ).toBe(0)
  })
})

describe('wash-trading signal', () => {
  const market = { pairs: [] }
  const pools = { pools: [] }
  const launchpad = { pumpFun: null }
  const trades = (swaps: SwapRecord[], pool: string | null = 'pool'): Facts['trades'] => ({
    pool,
    swaps,
    coveredSince: null,
    complete24h: true,
  })
  const detect = (facts: Partial<Facts>) =>
    washTrading.detect(view(facts), washTrading.meta.defaults, { mint: 'm', now: NOW })

  test('unique buyers are distinct wallets, not buys; the hour ratio counts trades', () => {
    const outcome = detect({
      trades: trades([
        swap('a', 'buy', 60),
        swap('a', 'buy', 120),
        swap('b', 'buy', 200),
        swap('c', 'sell', 300),
        swap('d', 'buy', 30_000),
      ]),
      funding: { wallets: [] },
      launch: { creator: 'dev' } as Facts['launch'],
      market,
      pools,
      launchpad,
    })
    expect(outcome.status).toBe('ok')
    expect(outcome.fields.trading_pattern).toMatchObject({
      unique_buyers_24h: 3,
      buy_sell_ratio_1h: 3,
      swaps_24h: 5,
      window_complete: true,
    })
  })

  test('no trade in the hour: ratio 0 with swaps_1h 0 (defined, as the spec types it); no sell: sells count as one', () => {
    expect(
      detect({
        trades: trades([swap('a', 'buy', 7_200)]),
        funding: { wallets: [] },
        launch: { creator: 'dev' } as Facts['launch'],
      }).fields.trading_pattern as any,
    ).toMatchObject({ buy_sell_ratio_1h: 0, swaps_1h: 0 })
    expect(
      (
        detect({
          trades: trades([swap('a', 'buy', 60), swap('b', 'buy', 70)]),
          funding: { wallets: [] },
          launch: { creator: 'dev' } as Facts['launch'],
        }).fields.trading_pattern as any
      ).buy_sell_ratio_1h,
    ).toBe(2)
  })

  test('an empty trades fact whose pool is unknown (pools missing) is unknown, not "no trades"', () => {
    expect(
      detect({
        trades: trades([], null),
        funding: { wallets: [] },
        launch: { creator: 'dev' } as Facts['launch'],
        market,
        launchpad,
      }),
    ).toMatchObject({ status: 'unknown', missing: ['pools'], fields: {} })
    expect(
      detect({
        trades: trades([], null),
        funding: { wallets: [] },
        launch: { creator: 'dev' } as Facts['launch'],
        market,
        pools,
        launchpad,
      }),
    ).toMatchObject({ status: 'ok' })
  })

  test('without funding the score is per wallet, reported with an unknown status', () => {
    const outcome = detect({ trades: trades([swap('a', 'buy', 60)]) })
    expect(outcome).toMatchObject({ status: 'unknown', missing: ['funding', 'launch'] })
    expect(outcome.fields.trading_pattern).toBeDefined()
  })

  test('flags only with enough swaps', () => {
    const washing = Array.from({ length: 10 }, (_, i) => [
      swap('w', 'buy', 10_000 - i * 600),
      swap('w', 'sell', 9_900 - i * 600),
    ]).flat()
    expect(
      detect({
        trades: trades(washing),
        funding: { wallets: [] },
        launch: { creator: 'dev' } as Facts['launch'],
      }).factors.map((entry) => entry.code),
    ).toEqual(['WASH_TRADING_EXTREME'])
    expect(
      detect({
        trades: trades(washing.slice(0, 8)),
        funding: { wallets: [] },
        launch: { creator: 'dev' } as Facts['launch'],
      }).factors,
    ).toEqual([])
  })
})

describe('wash-trading: which finding a day of trading earns', () => {
  const defaults = washTrading.meta.defaults
  test.each<[string, number, number, number, string | undefined]>([
    // [case, score, round-trip share of the volume, swaps in the day, finding]
    ['nearly all the volume fake (score 100)', 100, 1, 90, 'WASH_TRADING_EXTREME'],
    ['score exactly 90', 90, 0.5, 10, 'WASH_TRADING_EXTREME'],
    ['score 89: stays at the C cap', 89, 0.79, 10, 'WASH_TRADING'],
    ['four fifths of the volume in round trips, whatever the score', 56, 0.8, 10, 'WASH_TRADING_EXTREME'],
    ['just under four fifths, score under 60', 59, 0.79, 10, 'WASH_TRADING_SUSPECTED'],
    ['score exactly 60', 60, 0.6, 10, 'WASH_TRADING'],
    ['score exactly 30', 30, 0.2, 10, 'WASH_TRADING_SUSPECTED'],
    ['score 29', 29, 0.2, 10, undefined],
    ['score 100 but under ten swaps: no volume worth faking', 100, 1, 9, undefined],
  ])('%s', (_, score, roundTripShare, swaps, expected) => {
    expect(washFinding({ score, roundTripShare }, swaps, defaults)).toBe(expected as never)
  })

  test('the extreme finding caps the grade at D, so the deep dive avoids the token; 60–89 caps at C', () => {
    expect(washTrading.meta.findings.WASH_TRADING_EXTREME).toMatchObject({ ceiling: 'D', severity: 'critical' })
    expect(washTrading.meta.findings.WASH_TRADING).toMatchObject({ ceiling: 'C' })
    expect(defaults).toMatchObject({ extremeScore: 90, extremeSharePct: 80, highScore: 60 })
  })

  test('a churning operator raises the extreme finding alone, with its ceiling', () => {
    const washing = Array.from({ length: 10 }, (_, i) => [
      swap('w', 'buy', 10_000 - i * 600),
      swap('w', 'sell', 9_900 - i * 600),
    ]).flat()
    const outcome = washTrading.detect(
      view({
        trades: { pool: 'pool', swaps: washing, coveredSince: null, complete24h: true },
        funding: { wallets: [] },
        launch: { creator: 'dev' } as Facts['launch'],
      }),
      defaults,
      { mint: 'm', now: NOW },
    )
    expect(outcome.factors).toEqual([
      expect.objectContaining({
        code: 'WASH_TRADING_EXTREME',
        grade_ceiling: 'D',
        title: 'Wash trading score 100: the volume is fake',
      }),
    ])
  })
})
