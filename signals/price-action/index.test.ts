import { describe, expect, test } from 'bun:test'
import priceAction from './index.ts'
import {
  codesOf,
  DAY,
  market,
  MINT,
  NOW,
  pair,
  run,
  SOL,
  swap,
  tokenList,
  trades,
  unmeasuredOf,
} from '../../test/support/facts/index.ts'

const MIN = 60
const HOUR_AGO = 60 * MIN

describe('price-action: the 15-minute change is computed from trades', () => {
  test('newest trade against the last trade at or before 15 minutes ago', () => {
    const outcome = run(priceAction, {
      market: market(pair()),
      trades: trades([
        swap(30 * MIN, 'buy', 1, 0.00001),
        swap(20 * MIN, 'buy', 1, 0.000011),
        swap(5 * MIN, 'buy', 1, 0.000012),
      ]),
    })
    expect(outcome.status).toBe('ok')
    expect(outcome.fields.price_change_15m_pct).toBe(9.09) // 0.000012 / 0.000011 − 1
  })

  test('nothing traded in the window: the two ends are the same trade, 0%', () => {
    const outcome = run(priceAction, {
      market: market(pair()),
      trades: trades([swap(2 * DAY, 'buy', 1, 0.00002), swap(3 * 60 * MIN, 'sell', 1, 0.00001)]),
    })
    expect(outcome.fields.price_change_15m_pct).toBe(0)
  })

  const nulls: [string, Parameters<typeof trades>][] = [
    [
      'the trades read do not reach back 15 minutes',
      [[swap(5 * MIN, 'buy', 1), swap(8 * MIN, 'sell', 1)], NOW - 10 * MIN],
    ],
    ['the pool had not traded before the window', [[swap(5 * MIN, 'buy', 1), swap(8 * MIN, 'sell', 1)], null]],
    ['the pool never traded', [[], null]],
  ]
  for (const [why, args] of nulls)
    test(`null and listed as not measured when ${why}`, () => {
      const outcome = run(priceAction, { market: market(pair()), trades: trades(...args) })
      expect(outcome.fields.price_change_15m_pct).toBeNull()
      expect(unmeasuredOf(outcome)).toContain('price_change_15m_pct')
    })

  test('never relabels a market window: without trades it is null and `trades` is missing', () => {
    const outcome = run(priceAction, { market: market(pair({ priceChange: { m5: 4, h1: 7, h6: 9, h24: 11 } })) })
    expect(outcome).toMatchObject({ status: 'unknown', missing: ['trades'] })
    expect(outcome.fields).toMatchObject({
      price_change_5m_pct: 4,
      price_change_15m_pct: null,
      price_change_1h_pct: 7,
      price_change_24h_pct: 11,
      ath_price_usd: null,
    })
    expect(unmeasuredOf(outcome)).toEqual([])
  })

  test('without market data the 15-minute change still comes from trades', () => {
    const outcome = run(priceAction, {
      trades: trades([swap(20 * MIN, 'buy', 1, 0.00001), swap(MIN, 'buy', 1, 0.000009)]),
    })
    expect(outcome).toMatchObject({ status: 'unknown', missing: ['market'] })
    expect(outcome.fields).toMatchObject({ current_price_usd: null, price_change_15m_pct: -10 })
  })
})

describe("price-action: all-time high only over the token's whole trading life", () => {
  const life = [
    swap(20 * DAY, 'buy', 1, 0.00001),
    swap(10 * DAY, 'buy', 5, 0.00002),
    swap(HOUR_AGO, 'sell', 1, 0.00001),
  ]

  test('the highest trade, expressed in USD through the current price', () => {
    const outcome = run(priceAction, { market: market(pair({ priceUsd: '0.0015' })), trades: trades(life) })
    expect(outcome.fields.pct_from_ath).toBe(-50)
    expect(outcome.fields.ath_price_usd).toBeCloseTo(0.003, 12)
  })

  test('at the high: 0% and the high is the current price', () => {
    const outcome = run(priceAction, {
      market: market(pair({ priceUsd: '0.0015' })),
      trades: trades([swap(2 * DAY, 'buy', 1, 0.00001), swap(HOUR_AGO, 'buy', 1, 0.00002)]),
    })
    expect(outcome.fields).toMatchObject({ pct_from_ath: 0, ath_price_usd: 0.0015 })
  })

  const unknown: [string, Parameters<typeof run>[1]][] = [
    ['the pool has more history than was read', { market: market(pair()), trades: trades(life, NOW - 15 * DAY) }],
    [
      'the token traded in an older pool first (a bonding curve)',
      {
        market: market(
          pair(),
          pair({
            pairAddress: 'Curve1111111111111111111111111111111111111',
            dexId: 'pumpfun',
            liquidity: { usd: 0, base: 0, quote: 0 },
            pairCreatedAt: (NOW - 40 * DAY) * 1000,
          }),
        ),
        trades: trades(life),
      },
    ],
    ["the main pool's age is unknown", { market: market(pair({ pairCreatedAt: null })), trades: trades(life) }],
  ]
  for (const [why, facts] of unknown)
    test(`null and listed when ${why}`, () => {
      const outcome = run(priceAction, facts)
      expect(outcome.fields).toMatchObject({ ath_price_usd: null, pct_from_ath: null })
      expect(unmeasuredOf(outcome)).toEqual(expect.arrayContaining(['ath_price_usd', 'pct_from_ath']))
    })

  test('more than 80% below the high is a finding', () => {
    const outcome = run(priceAction, {
      market: market(pair()),
      trades: trades([swap(5 * DAY, 'buy', 1, 0.0001), swap(HOUR_AGO, 'sell', 1, 0.00001)]),
    })
    expect(outcome.fields.pct_from_ath).toBe(-90)
    expect(codesOf(outcome)).toContain('FAR_BELOW_ATH')
  })
})

describe('price-action: price and market windows', () => {
  /** SOL/token: the token only ever the quote, the pair's changes SOL's. */
  const usdcLike = pair({
    baseToken: { address: SOL, name: 'Wrapped SOL', symbol: 'SOL' },
    quoteToken: { address: MINT, name: 'Token', symbol: 'TOK' },
    priceNative: '150',
    priceUsd: '150',
    priceChange: { m5: 1, h1: 2, h6: 3, h24: 4 },
  })

  test('a token only ever quoted: its price is the inverse, the windows are not its own', () => {
    const outcome = run(priceAction, { market: market(usdcLike), trades: trades([]) })
    expect(outcome.fields).toMatchObject({
      current_price_usd: 1,
      price_change_5m_pct: null,
      price_change_1h_pct: null,
      price_change_24h_pct: null,
    })
    expect(unmeasuredOf(outcome)).toEqual(
      expect.arrayContaining(['price_change_5m_pct', 'price_change_1h_pct', 'price_change_24h_pct']),
    )
  })

  test("a token only ever quoted, listed: its windows are the token list's own changes, measured", () => {
    const list = { ...tokenList(true, ['verified']), priceChangePct: { m5: 0.0003, h1: -0.0005, h6: 0, h24: 0.0029 } }
    const outcome = run(priceAction, { market: market(usdcLike), trades: trades([]), token_list: list })
    expect(outcome.fields).toMatchObject({
      current_price_usd: 1,
      price_change_5m_pct: 0.0003,
      price_change_1h_pct: -0.0005,
      price_change_24h_pct: 0.0029,
    })
    expect(unmeasuredOf(outcome)).not.toContain('price_change_24h_pct')
  })

  test('prefers a pair where the token is the base, even a shallower one', () => {
    const deepQuoted = pair({
      pairAddress: 'Deep111111111111111111111111111111111111111',
      baseToken: { address: SOL, name: 'SOL', symbol: 'SOL' },
      quoteToken: { address: MINT, name: 'Token', symbol: 'TOK' },
      priceNative: '100000',
      priceUsd: '150',
    })
    const outcome = run(priceAction, {
      market: market(deepQuoted, pair({ priceUsd: '0.002', liquidity: { usd: 1_000, base: 1, quote: 1 } })),
    })
    expect(outcome.fields.current_price_usd).toBe(0.002)
  })

  test('no pair has a USD price: price and windows not measured', () => {
    const outcome = run(priceAction, { market: market(pair({ priceUsd: null })), trades: trades([]) })
    expect(outcome.fields.current_price_usd).toBeNull()
    expect(unmeasuredOf(outcome)).toEqual(
      expect.arrayContaining(['current_price_usd', 'price_change_1h_pct', 'price_change_24h_pct']),
    )
  })

  test('no pair at all: the market data is not there (market missing)', () => {
    expect(run(priceAction, { market: market(), trades: trades([]) })).toMatchObject({
      status: 'unknown',
      missing: ['market'],
    })
  })

  test('a crash and a surge are findings; a flat day is not', () => {
    expect(
      codesOf(
        run(priceAction, {
          market: market(pair({ priceChange: { m5: 0, h1: -2, h6: -20, h24: -35 } })),
          trades: trades([]),
        }),
      ),
    ).toContain('PRICE_CRASH')
    expect(
      codesOf(
        run(priceAction, {
          market: market(pair({ priceChange: { m5: 0, h1: -16, h6: -16, h24: -10 } })),
          trades: trades([]),
        }),
      ),
    ).toContain('PRICE_CRASH')
    expect(
      codesOf(
        run(priceAction, {
          market: market(pair({ priceChange: { m5: 0, h1: 2, h6: 20, h24: 45 } })),
          trades: trades([]),
        }),
      ),
    ).toContain('PRICE_SURGE')
    const flat = codesOf(run(priceAction, { market: market(pair()), trades: trades([]) }))
    expect(flat).not.toContain('PRICE_CRASH')
    expect(flat).not.toContain('PRICE_SURGE')
  })
})

describe('price-action: the high without a USD price', () => {
  test('pct_from_ath is relative and stays; ath_price_usd needs the USD price and is listed', () => {
    const outcome = run(priceAction, {
      market: market(pair({ priceUsd: null })),
      trades: trades([swap(5 * DAY, 'buy', 1, 0.00002), swap(60 * 60, 'sell', 1, 0.00001)]),
    })
    expect(outcome.fields).toMatchObject({ pct_from_ath: -50, ath_price_usd: null })
    expect(unmeasuredOf(outcome)).toContain('ath_price_usd')
  })
})
