import { describe, expect, test } from 'bun:test'
import { CLEAN_EXIT_LOSS_PCT, exitRatingOf, PUNITIVE_EXIT_LOSS_PCT } from './service.ts'

describe('the exit rating', () => {
  const cases: [string, boolean | null, number | null, number | null, string | null][] = [
    ['not sellable', false, null, null, 'BLOCKED'],
    ['not sellable, whatever a quote said', false, 1, 0.5, 'BLOCKED'],
    ['unchecked (no mint, no quote)', null, null, null, null],
    ['a liquid round trip', true, 0.6, 0.2, 'CLEAN'],
    ['just under the clean bound', true, CLEAN_EXIT_LOSS_PCT - 0.01, 1, 'CLEAN'],
    ['at the clean bound', true, CLEAN_EXIT_LOSS_PCT, 1, 'COSTLY'],
    ['at the punitive bound', true, PUNITIVE_EXIT_LOSS_PCT, 5, 'COSTLY'],
    ['beyond it', true, PUNITIVE_EXIT_LOSS_PCT + 0.01, 5, 'PUNITIVE'],
    ['the dead token at 500 USDC (94% lost)', true, 94.2, 93, 'PUNITIVE'],
    ['a cheap round trip the route cannot absorb (the sale alone moves the price 25%)', true, 2, 25, 'PUNITIVE'],
    ['a round trip that returns more than it cost', true, -0.4, 0.1, 'CLEAN'],
  ]
  for (const [name, sellable, loss, impact, rating] of cases)
    test(`${name} → ${rating}`, () => {
      expect(exitRatingOf(sellable, loss, impact)).toBe(rating as never)
    })

  test('a Token-2022 transfer fee is paid on the buy and on the sale: a 1% quote with a 12% fee is PUNITIVE (23.3% lost), with 10% COSTLY (19.8%)', () => {
    expect(exitRatingOf(true, 1, 0.5, 1_200)).toBe('PUNITIVE')
    expect(exitRatingOf(true, 1, 0.5, 1_000)).toBe('COSTLY')
    expect(exitRatingOf(true, 1, 0.5, 100)).toBe('CLEAN')
    expect(exitRatingOf(true, 1, 0.5, 150)).toBe('COSTLY')
  })

  test('the mint unread: a cheap exit is not vouched for (null), a dear one stays dear', () => {
    expect(exitRatingOf(true, 0.6, 0.2, 0, false)).toBeNull()
    expect(exitRatingOf(true, 10, 2, 0, false)).toBeNull()
    expect(exitRatingOf(true, 94.2, 93, 0, false)).toBe('PUNITIVE')
    expect(exitRatingOf(false, null, null, 0, false)).toBe('BLOCKED')
  })
})
