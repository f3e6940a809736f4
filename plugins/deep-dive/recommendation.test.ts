import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { GRADES } from '../../src/kernel/vocabulary.ts'
import { type RecommendationInput, recommend } from './recommendation.ts'

/** How favourable an action is to a buyer: a worse grade must never move up this scale. */
const FAVOUR = { CONSIDER: 3, WATCH: 2, DYOR: 1, AVOID: 0 } as const
const level = fc.constantFrom('LOW' as const, 'MEDIUM' as const, 'HIGH' as const)

/** Everything but the grade: the other inputs a recommendation reads. */
const context = fc.record({
  quality: fc.constantFrom('FULL' as const, 'PARTIAL' as const, 'LIMITED' as const),
  breakdown: fc.record({ contract_risk: level, liquidity_risk: level, market_risk: level, behavioral_risk: level }),
  isHoneypot: fc.boolean(),
  previousRugs: fc.boolean(),
  ageDays: fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }),
  permanentSafety: fc.boolean(),
  completeness: fc.double({ min: 0, max: 1, noNaN: true }),
})
type Context = typeof context extends fc.Arbitrary<infer T> ? T : never
const input = (grade: (typeof GRADES)[number], rest: Context): RecommendationInput => ({
  ...rest,
  grade,
  hardFail: false,
  missing: rest.quality === 'LIMITED' ? ['launch'] : [],
  capping: [],
  drivers: [],
})

describe('deep-dive recommendation properties', () => {
  test('a worse grade never yields a more favourable action, everything else equal', () => {
    fc.assert(
      fc.property(fc.constantFrom(...GRADES), fc.constantFrom(...GRADES), context, (one, other, rest) => {
        const [better, worse] = GRADES.indexOf(one) <= GRADES.indexOf(other) ? [one, other] : [other, one]
        expect(FAVOUR[recommend(input(worse, rest)).action]).toBeLessThanOrEqual(
          FAVOUR[recommend(input(better, rest)).action],
        )
      }),
    )
  })

  test('no token capped at C or below (a finding that lets the developer take your money) is CONSIDER', () => {
    fc.assert(
      fc.property(fc.constantFrom('C' as const, 'D' as const, 'F' as const), context, (grade, rest) => {
        expect(recommend(input(grade, rest)).action).not.toBe('CONSIDER')
      }),
    )
  })
})

describe('deep-dive recommendation table (docs/scoring/deep-dive.md)', () => {
  const LOW = { contract_risk: 'LOW', liquidity_risk: 'LOW', market_risk: 'LOW', behavioral_risk: 'LOW' } as const
  const base: RecommendationInput = {
    grade: 'A',
    hardFail: false,
    quality: 'FULL',
    missing: [],
    completeness: 1,
    breakdown: LOW,
    capping: [],
    ageDays: 40,
    permanentSafety: true,
    drivers: [],
  }
  const FREEZE = { code: 'FREEZE_AUTHORITY_LIVE', title: 'Freeze authority live' }

  test.each([
    ['a hard fail', { grade: 'F', hardFail: true }, 'AVOID', 'AVOID_CERTAIN'],
    [
      'a honeypot, even on limited data',
      { isHoneypot: true, quality: 'LIMITED', missing: ['launch'] },
      'AVOID',
      'AVOID_CERTAIN',
    ],
    ['grade D', { grade: 'D' }, 'AVOID', 'AVOID_GRADE'],
    ['grade D on limited data', { grade: 'D', quality: 'LIMITED', missing: ['launch'] }, 'AVOID', 'AVOID_GRADE'],
    ['grade A on limited data', { quality: 'LIMITED', missing: ['launch'] }, 'DYOR', 'DYOR_LIMITED_DATA'],
    ['grade C, clean otherwise', { grade: 'C', capping: [FREEZE] }, 'WATCH', 'WATCH'],
    [
      'grade C with behavioural risk HIGH (wash trading)',
      { grade: 'C', breakdown: { ...LOW, behavioral_risk: 'HIGH' } },
      'WATCH',
      'WATCH',
    ],
    [
      'grade B with thin liquidity (liquidity HIGH, nothing capping)',
      { grade: 'B', breakdown: { ...LOW, liquidity_risk: 'HIGH' } },
      'WATCH',
      'WATCH',
    ],
    ['grade A, clean, a month old', {}, 'CONSIDER', 'CONSIDER'],
    ['grade A, clean, an hour old', { ageDays: 0 }, 'WATCH', 'WATCH'],
  ] as const)('%s → %s', (_, change, action, rule) => {
    expect(recommend({ ...base, ...(change as Partial<RecommendationInput>) })).toMatchObject({ action, rule })
  })

  test('an AVOID by grade names the finding that capped it', () => {
    const capped = recommend({ ...base, grade: 'D', capping: [{ code: 'BUNDLED_LAUNCH', title: 'Bundled launch' }] })
    expect(capped.reason).toContain('Bundled launch (BUNDLED_LAUNCH)')
    expect(recommend({ ...base, grade: 'D' }).reason).toContain('the risks found add up')
  })
})
