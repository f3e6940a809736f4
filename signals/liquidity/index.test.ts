import { describe, expect, test } from 'bun:test'
import type { Severity } from '../../src/pipeline/signal.ts'
import { market, pair, run } from '../../test/support/facts/index.ts'
import type { DexPair } from '../../src/sources/dexscreener.ts'
import liquidity from './index.ts'

const usd = (amount: number | null, pairAddress = `Pool-${amount}`): DexPair =>
  pair({ pairAddress, liquidity: { usd: amount, base: 1, quote: 1 } })

const DEEP = {
  rating: 'DEEP',
  threshold_usd: 500_000,
  meaning: 'Deep liquidity: large trades move the price little.',
  action_guidance: 'Position sizes up to a few thousand USD exit with little slippage.',
}
const ADEQUATE = {
  rating: 'ADEQUATE',
  threshold_usd: 50_000,
  meaning: 'Adequate liquidity for ordinary trades.',
  action_guidance: 'Keep single trades under about 1% of the pool; split larger exits.',
}
const THIN = {
  rating: 'THIN',
  threshold_usd: 5_000,
  meaning: 'Thin liquidity: a few hundred dollars move the price several percent.',
  action_guidance: 'Trade small, set tight slippage, expect a hard exit.',
}
const CRITICAL = {
  rating: 'CRITICAL',
  threshold_usd: 5_000,
  meaning: 'Critical: the pool is nearly empty; selling may be impossible at any useful price.',
  action_guidance: 'Avoid buying: there is no exit.',
}

type Expected = { code: string; severity: Severity; impact: number; evidence: Record<string, unknown> }
const critical = (amount: number): Expected => ({
  code: 'LIQUIDITY_CRITICAL',
  severity: 'critical',
  impact: -35,
  evidence: { liquidity_usd: amount },
})
const low = (amount: number): Expected => ({
  code: 'LIQUIDITY_LOW',
  severity: 'high',
  impact: -20,
  evidence: { liquidity_usd: amount },
})

describe('liquidity', () => {
  const cases: { name: string; pairs: DexPair[]; band: typeof DEEP; total: number; factors: Expected[] }[] = [
    { name: 'deep pool: clean', pairs: [usd(2_000_000)], band: DEEP, total: 2_000_000, factors: [] },
    {
      name: 'exactly $500k: DEEP (the floor is inclusive)',
      pairs: [usd(500_000)],
      band: DEEP,
      total: 500_000,
      factors: [],
    },
    { name: 'just under $500k: ADEQUATE', pairs: [usd(499_999.99)], band: ADEQUATE, total: 499_999.99, factors: [] },
    { name: 'exactly $50k: ADEQUATE', pairs: [usd(50_000)], band: ADEQUATE, total: 50_000, factors: [] },
    { name: 'just under $50k: THIN, no penalty yet', pairs: [usd(49_999)], band: THIN, total: 49_999, factors: [] },
    { name: 'exactly $10k: THIN, not low', pairs: [usd(10_000)], band: THIN, total: 10_000, factors: [] },
    { name: 'just under $10k: THIN and low', pairs: [usd(9_999)], band: THIN, total: 9_999, factors: [low(9_999)] },
    { name: 'exactly $5k: THIN and low', pairs: [usd(5_000)], band: THIN, total: 5_000, factors: [low(5_000)] },
    {
      name: 'just under $5k: CRITICAL band, still only the low finding',
      pairs: [usd(4_999)],
      band: CRITICAL,
      total: 4_999,
      factors: [low(4_999)],
    },
    {
      name: 'exactly $1k: CRITICAL band, low finding',
      pairs: [usd(1_000)],
      band: CRITICAL,
      total: 1_000,
      factors: [low(1_000)],
    },
    {
      name: 'just under $1k: CRITICAL band and critical finding',
      pairs: [usd(999)],
      band: CRITICAL,
      total: 999,
      factors: [critical(999)],
    },
    { name: 'an empty pool: critical', pairs: [usd(0)], band: CRITICAL, total: 0, factors: [critical(0)] },
    {
      name: 'liquidity is summed over every pair',
      pairs: [usd(300_000, 'PoolA'), usd(150_000, 'PoolB'), usd(50_000, 'PoolC')],
      band: DEEP,
      total: 500_000,
      factors: [],
    },
    {
      name: 'pairs without a USD liquidity count as zero',
      pairs: [usd(60_000, 'PoolA'), usd(null, 'PoolB'), pair({ pairAddress: 'PoolC', liquidity: undefined })],
      band: ADEQUATE,
      total: 60_000,
      factors: [],
    },
    {
      name: 'the total is rounded to cents in the field, exact in the evidence',
      pairs: [usd(1_234.567)],
      band: CRITICAL,
      total: 1_234.57,
      factors: [low(1_234.567)],
    },
  ]

  test.each(cases)('$name', ({ pairs, band, total, factors }) => {
    const outcome = run(liquidity, { market: market(...pairs) })
    expect(outcome.status).toBe('ok')
    expect(outcome.fields).toEqual({ liquidity_check: band, liquidity_usd: total })
    expect(
      outcome.factors.map(({ code, severity, impact, evidence }) => ({ code, severity, impact, evidence })),
    ).toEqual(factors)
    for (const entry of outcome.factors) {
      expect(entry.signal).toBe('liquidity')
      expect(entry.hard_fail).toBe(false)
    }
  })

  test('the finding titles the dollar amount as people read it (cents, thousands separators)', () => {
    expect(run(liquidity, { market: market(usd(999.6)) }).factors[0]?.title).toBe('Liquidity $999.60')
    expect(run(liquidity, { market: market(usd(4_321.456)) }).factors[0]?.title).toBe('Liquidity $4,321.46')
  })

  test('no pair trades the token: CRITICAL, no market, zero liquidity', () => {
    const outcome = run(liquidity, { market: market() })
    expect(outcome.status).toBe('ok')
    expect(outcome.fields).toEqual({
      liquidity_check: {
        rating: 'CRITICAL',
        meaning: 'No pool trades this token: there is no exit.',
        threshold_usd: 5_000,
        action_guidance: 'Avoid buying: there is no exit.',
      },
      liquidity_usd: 0,
    })
    expect(outcome.factors).toEqual([
      expect.objectContaining({ code: 'NO_MARKET', severity: 'critical', impact: -35, evidence: {} }),
    ])
  })

  test('penalty thresholds come from the options', () => {
    const detect = (amount: number) =>
      liquidity
        .detect(
          { get: (name) => (name === 'market' ? market(usd(amount)) : undefined) as never },
          { criticalUsd: 100, lowUsd: 2_000 },
          { mint: 'm', now: 0 },
        )
        .factors.map((entry) => entry.code)
    expect(detect(99)).toEqual(['LIQUIDITY_CRITICAL'])
    expect(detect(1_999)).toEqual(['LIQUIDITY_LOW'])
    expect(detect(2_000)).toEqual([])
  })

  test('market missing: unknown naming it, UNKNOWN rating, null liquidity, no penalty', () => {
    const outcome = run(liquidity, {})
    expect(outcome).toMatchObject({ status: 'unknown', missing: ['market'] })
    expect(outcome.fields).toEqual({
      liquidity_check: {
        rating: 'UNKNOWN',
        meaning: 'Liquidity could not be measured: market data is unavailable.',
        threshold_usd: null,
        action_guidance: 'Check the pools yourself before trading.',
      },
      liquidity_usd: null,
    })
    expect(outcome.factors).toEqual([
      expect.objectContaining({ code: 'UNKNOWN', severity: 'info', impact: 0, evidence: { missing: ['market'] } }),
    ])
  })
})
