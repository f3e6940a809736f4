import { describe, expect, test } from 'bun:test'
import type { Facts } from '../../src/facts/types.ts'
import momentum from './index.ts'

type Pair = Facts['market']['pairs'][number]
const MINT = 'm'
/** A pair of the scanned token, as the base (its changes are its own) or as the quote (they are the base's). */
const pair = (priceChange: Pair['priceChange'], volume: Pair['volume'], side: 'base' | 'quote' = 'base') =>
  ({
    pairAddress: 'p',
    baseToken: { address: side === 'base' ? MINT : 'So11111111111111111111111111111111111111112' },
    quoteToken: { address: side === 'base' ? 'So11111111111111111111111111111111111111112' : MINT },
    priceNative: side === 'base' ? '0.01' : '150',
    priceUsd: side === 'base' ? '1.5' : '150',
    priceChange,
    volume,
  }) as Pair
const detect = (pairs: Pair[] | undefined, list?: Partial<Facts['token_list']>) =>
  momentum.detect(
    { get: (name) => (name === 'market' ? (pairs ? { pairs } : undefined) : list) as never },
    momentum.meta.defaults,
    { mint: MINT, now: 0 },
  )
const score = (pairs: Pair[]) => detect(pairs).fields.momentum_score as number

describe('momentum', () => {
  test('flat price, steady volume: 50', () => {
    expect(score([pair({ h1: 0, h6: 0, h24: 0 }, { h6: 250, h24: 1_000 })])).toBe(50)
  })

  test('rising price and accelerating volume score higher than falling and fading', () => {
    const up = score([pair({ h1: 10, h6: 20, h24: 30 }, { h6: 800, h24: 1_000 })])
    const down = score([pair({ h1: -10, h6: -20, h24: -30 }, { h6: 50, h24: 1_000 })])
    expect(up).toBeGreaterThan(75)
    expect(down).toBeLessThan(25)
    for (const value of [up, down]) expect(value).toBeGreaterThanOrEqual(0)
  })

  test('no volume: the volume part is 0', () => {
    expect(score([pair({ h24: 0 }, { h24: 0 })])).toBe(30)
  })

  test('no pair trades the token: 0 momentum, 0 volume, no price change', () => {
    expect(detect([]).fields).toEqual({ momentum_score: 0, volume_24h: 0 })
  })

  test('a halving is a crash, a doubling a parabolic move', () => {
    expect(detect([pair({ h24: -60 }, { h24: 1 })]).factors.map((factor) => factor.code)).toEqual(['PRICE_CRASH_24H'])
    expect(detect([pair({ h24: 150 }, { h24: 1 })]).factors.map((factor) => factor.code)).toEqual(['PARABOLIC_24H'])
  })

  test("volume adds up over pairs; the 24 h change is the main pair's", () => {
    expect(detect([pair({ h24: 5 }, { h24: 100 }), pair({ h24: 50 }, { h24: 20.5 })]).fields).toMatchObject({
      volume_24h: 120.5,
      price_change_24h_pct: 5,
    })
  })

  test("a token only ever quoted (USDC in SOL/USDC) does not take the base token's move", () => {
    // DexScreener's changes are SOL's here: a SOL crash is not a USDC crash.
    const quoted = detect([pair({ h1: -20, h6: -40, h24: -60 }, { h6: 250, h24: 1_000 }, 'quote')])
    expect(quoted.factors).toEqual([])
    expect(quoted.fields).toEqual({ momentum_score: 50, volume_24h: 1_000 })
  })

  test("a token only ever quoted takes its own changes from the token list (Jupiter's per-token stats)", () => {
    const quoted = [pair({ h1: -20, h6: -40, h24: -60 }, { h6: 250, h24: 1_000 }, 'quote')]
    const own = { priceChangePct: { m5: 0, h1: 0.001, h6: -0.001, h24: 0.003 } }
    expect(detect(quoted, own).fields).toMatchObject({ price_change_24h_pct: 0.003, volume_24h: 1_000 })
    expect(detect(quoted, own).fields.momentum_score).toBe(50)
  })

  test('the changes come from a pair where the token is the base, wherever it sits in the list', () => {
    const pairs = [pair({ h24: -60 }, { h24: 900 }, 'quote'), pair({ h24: 12 }, { h24: 100 })]
    expect(detect(pairs).fields).toMatchObject({ price_change_24h_pct: 12, volume_24h: 1_000 })
    expect(detect(pairs).factors).toEqual([])
  })

  test('missing market: unknown, no fields', () => {
    expect(detect(undefined)).toMatchObject({ status: 'unknown', fields: {} })
  })
})
