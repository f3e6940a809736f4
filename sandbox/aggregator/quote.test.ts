import { describe, expect, test } from 'bun:test'
import type { Pool } from '../world/pool-book.ts'
import { formatFraction, minimumOut, routePriceImpact, type RouteHop } from './quote.ts'

function hop(priceImpact: number): RouteHop {
  return {
    pool: {} as Pool,
    inputMint: 'a',
    outputMint: 'b',
    quote: { amountIn: 1n, amountOut: 1n, feeAmount: 0n, priceImpact },
  }
}

describe('quote arithmetic', () => {
  test('otherAmountThreshold is outAmount less the slippage, rounded down', () => {
    expect(minimumOut(999n, 50)).toBe(994n) // 994.005 → 994
    expect(minimumOut(1_000_000n, 0)).toBe(1_000_000n)
    expect(minimumOut(1_000_000n, 10_000)).toBe(0n)
    expect(minimumOut(18_446_744_073_709_551_615n, 1)).toBe(18_444_899_399_302_180_659n)
  })

  test('price impact is a plain decimal fraction, never exponent notation', () => {
    expect(formatFraction(0)).toBe('0')
    expect(formatFraction(-0.01)).toBe('0')
    expect(formatFraction(Number.NaN)).toBe('0')
    expect(formatFraction(0.25)).toBe('0.25')
    expect(formatFraction(1e-7)).toBe('0.0000001')
    expect(formatFraction(1.2345e-9)).toBe('0.0000000012345')
    expect(Number(formatFraction(3.5e-12))).toBe(3.5e-12)
  })

  test('the impacts of two legs compound', () => {
    expect(routePriceImpact([hop(0.1)])).toBeCloseTo(0.1, 12)
    expect(routePriceImpact([hop(0.1), hop(0.2)])).toBeCloseTo(1 - 0.9 * 0.8, 12)
    expect(routePriceImpact([hop(1), hop(0.2)])).toBe(1)
  })
})
