import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { gradeOf, scoreOf, type Grade } from './grade.ts'
import type { Factor } from './signal.ts'

const RANK: Record<Grade, number> = { A: 4, B: 3, C: 2, D: 1, F: 0 }

const factorArbitrary = fc
  .record({
    impact: fc.integer({ min: -100, max: 0 }),
    hard_fail: fc.boolean(),
  })
  .map(
    ({ impact, hard_fail }): Factor => ({
      code: 'X',
      signal: 's',
      severity: impact < 0 ? 'high' : 'info',
      impact,
      hard_fail,
      title: '',
      detail: '',
      evidence: {},
    }),
  )

describe('grading properties', () => {
  test('adding a risk never improves the grade or the score', () => {
    fc.assert(
      fc.property(fc.array(factorArbitrary, { maxLength: 12 }), factorArbitrary, (factors, risk) => {
        const before = gradeOf(scoreOf(factors), factors)
        const after = gradeOf(scoreOf([...factors, risk]), [...factors, risk])
        expect(RANK[after]).toBeLessThanOrEqual(RANK[before])
        expect(scoreOf([...factors, risk])).toBeLessThanOrEqual(scoreOf(factors))
      }),
    )
  })

  test('the score stays within 0–100 and a hard fail is always F', () => {
    fc.assert(
      fc.property(fc.array(factorArbitrary, { maxLength: 20 }), (factors) => {
        const score = scoreOf(factors)
        expect(score).toBeGreaterThanOrEqual(0)
        expect(score).toBeLessThanOrEqual(100)
        if (factors.some((entry) => entry.hard_fail)) expect(gradeOf(score, factors)).toBe('F')
      }),
    )
  })

  test.each([
    [100, 'A'],
    [80, 'A'],
    [79, 'B'],
    [60, 'B'],
    [40, 'C'],
    [20, 'D'],
    [19, 'F'],
  ] as const)('score %i is grade %s', (score, grade) => {
    expect(gradeOf(score, [])).toBe(grade)
  })
})
