import { describe, expect, test } from 'bun:test'
import { CLEAN_EXIT_LOSS_PCT, exitRatingOf, PUNITIVE_EXIT_LOSS_PCT } from './exit-check.ts'

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
})
