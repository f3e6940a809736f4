import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { compareFactors, orderFactors } from './order.ts'
import { factor, type Factor } from './signal.ts'
import { GRADES, SEVERITIES, type Grade, type Severity } from '../kernel/vocabulary.ts'

const make = (
  code: string,
  severity: Severity,
  impact: number,
  { hardFail = false, ceiling = null as Grade | null } = {},
): Factor => factor({ id: 'test' }, code, severity, impact, code, '', {}, hardFail, ceiling)

describe('compareFactors: the deciding findings first', () => {
  // [why, the one that comes first, the other]
  test.each([
    [
      'a hard fail before a heavier penalty',
      make('HONEYPOT', 'critical', 0, { hardFail: true }),
      make('PERMANENT_DELEGATE', 'critical', -40, { ceiling: 'D' }),
    ],
    [
      'a hard fail before an F ceiling that is not one',
      make('NON_TRANSFERABLE', 'info', 0, { hardFail: true }),
      make('CAPPED_F', 'critical', -50, { ceiling: 'F' }),
    ],
    [
      'a ceiling before a heavier finding that caps nothing',
      make('FREEZE_AUTHORITY_LIVE', 'high', -15, { ceiling: 'C' }),
      make('TOP10_EXTREME', 'critical', -35),
    ],
    [
      'the lower ceiling first',
      make('DEFAULT_FROZEN', 'high', -30, { ceiling: 'D' }),
      make('MINT_AUTHORITY_LIVE', 'high', -25, { ceiling: 'C' }),
    ],
    [
      'the lower ceiling first, whatever the severity',
      make('BUNDLED_LAUNCH', 'medium', -10, { ceiling: 'D' }),
      make('TRANSFER_HOOK', 'high', -20, { ceiling: 'C' }),
    ],
    ['critical before high', make('NO_MARKET', 'critical', -35), make('TRANSFER_FEE_HIGH', 'high', -40)],
    ['high before medium', make('LP_UNBURNED', 'high', -10), make('LOW_LIQUIDITY', 'medium', -20)],
    ['medium before low', make('NEW_TOKEN', 'medium', -5), make('METADATA_MUTABLE', 'low', -10)],
    ['a low risk before any information', make('METADATA_MUTABLE', 'low', -5), make('LP_BURNED', 'info', 0)],
    [
      'same severity: the larger impact first',
      make('TRANSFER_FEE_HIGH', 'high', -30),
      make('MINT_AUTHORITY_LIVE', 'high', -25),
    ],
  ] as const)('%s', (_, first, second) => {
    expect(compareFactors(first, second)).toBeLessThan(0)
    expect(compareFactors(second, first)).toBeGreaterThan(0)
    expect(orderFactors([second, first]).map((entry) => entry.code)).toEqual([first.code, second.code])
  })

  test('equal findings keep the order the signals raised them in', () => {
    const one = make('ONE', 'info', 0)
    const two = make('TWO', 'info', 0)
    expect(compareFactors(one, two)).toBe(0)
    expect(orderFactors([two, one]).map((entry) => entry.code)).toEqual(['TWO', 'ONE'])
  })

  test('any list: hard fails, then ceilings worst first, then severity, then impact', () => {
    const arbitrary = fc.record({
      severity: fc.constantFrom(...SEVERITIES),
      impact: fc.integer({ min: -60, max: 0 }),
      hardFail: fc.boolean(),
      ceiling: fc.constantFrom(null, ...GRADES.slice(1)),
    })
    fc.assert(
      fc.property(fc.array(arbitrary, { maxLength: 12 }), (specs) => {
        const ordered = orderFactors(specs.map((spec, index) => make(`F${index}`, spec.severity, spec.impact, spec)))
        const key = (entry: Factor) => [
          entry.hard_fail ? 0 : 1,
          entry.grade_ceiling === null ? GRADES.length : GRADES.length - GRADES.indexOf(entry.grade_ceiling),
          SEVERITIES.indexOf(entry.severity),
          entry.impact,
        ]
        for (let index = 1; index < ordered.length; index++) {
          const [before, after] = [key(ordered[index - 1]!), key(ordered[index]!)]
          const firstDifference = before.findIndex((value, position) => value !== after[position])
          if (firstDifference >= 0) expect(before[firstDifference]!).toBeLessThan(after[firstDifference]!)
        }
      }),
    )
  })
})
