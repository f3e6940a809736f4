import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { cappingFactors, gradeOf, scoreOf, type Grade } from './grade.ts'
import { GRADES } from '../kernel/vocabulary.ts'
import type { Factor } from './signal.ts'

const RANK: Record<Grade, number> = { A: 4, B: 3, C: 2, D: 1, F: 0 }

const factorArbitrary = fc
  .record({
    impact: fc.integer({ min: -100, max: 0 }),
    hard_fail: fc.boolean(),
    ceiling: fc.option(fc.constantFrom(...GRADES), { nil: null }),
  })
  .map(
    ({ impact, hard_fail, ceiling }): Factor => ({
      code: 'X',
      signal: 's',
      severity: impact < 0 ? 'high' : 'info',
      impact,
      hard_fail,
      grade_ceiling: hard_fail ? 'F' : ceiling,
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

  test("a ceiling is never lifted: the grade is at or below every finding's ceiling, whatever else is found", () => {
    fc.assert(
      fc.property(
        fc.array(factorArbitrary, { maxLength: 12 }),
        fc.array(factorArbitrary, { maxLength: 6 }),
        (factors, more) => {
          const all = [...factors, ...more]
          const grade = gradeOf(scoreOf(all), all)
          for (const entry of all)
            if (entry.grade_ceiling) expect(RANK[grade]).toBeLessThanOrEqual(RANK[entry.grade_ceiling])
        },
      ),
    )
  })

  test('a clean score under a C ceiling is C; the factors that capped it are named', () => {
    const cap: Factor = {
      code: 'FREEZE_AUTHORITY_LIVE',
      signal: 'freeze-authority',
      severity: 'high',
      impact: -15,
      hard_fail: false,
      grade_ceiling: 'C',
      title: '',
      detail: '',
      evidence: {},
    }
    expect(gradeOf(85, [cap])).toBe('C')
    expect(cappingFactors(85, [cap]).map((entry) => entry.code)).toEqual(['FREEZE_AUTHORITY_LIVE'])
    // Below the band already: the score decided, not the ceiling.
    expect(gradeOf(30, [cap])).toBe('D')
    expect(cappingFactors(30, [cap])).toEqual([])
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
