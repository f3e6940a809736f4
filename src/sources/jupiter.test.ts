import { describe, expect, test } from 'bun:test'
import { impactOfFraction, impactOfOrder } from './jupiter.ts'

describe('price impact as Jupiter reports it, read as percent against the trader', () => {
  test('a fraction (v1 quote, v2 /build): percent; absent, empty or not a number: not measured, never 0', () => {
    expect(impactOfFraction('0.0123')).toBe(1.23)
    expect(impactOfFraction('0')).toBe(0)
    for (const missing of [undefined, '', ' ', 'NaN', 'abc']) expect(impactOfFraction(missing)).toBeNull()
  })

  test("v2 /order: priceImpact's percentage points turned around (negative is a loss), else the deprecated fraction", () => {
    expect(impactOfOrder({ priceImpact: -0.013115995201493341 })).toBe(0.0131)
    // The output valued above the input: a negative impact, said as it is.
    expect(impactOfOrder({ priceImpact: 0.5 })).toBe(-0.5)
    // priceImpact wins over the deprecated member when both are there.
    expect(impactOfOrder({ priceImpact: -2, priceImpactPct: '-0.5' })).toBe(2)
    expect(impactOfOrder({ priceImpactPct: '-0.0001311599520149334' })).toBe(0.0131)
    expect(Object.is(impactOfOrder({ priceImpact: 0 }), 0)).toBe(true)
    expect(impactOfOrder({})).toBeNull()
  })
})
