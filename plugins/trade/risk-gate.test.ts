import { describe, expect, test } from 'bun:test'
import type { Grade } from '../../src/pipeline/grade.ts'
import { factor, type Severity } from '../../src/pipeline/signal.ts'
import { gateVerdict } from './risk-gate.ts'

const finding = (code: string, severity: Severity, hardFail = false) =>
  factor({ id: 'test' }, code, severity, 0, code, `${code} found`, {}, hardFail)
const scan = (
  grade: Grade,
  factors = [] as ReturnType<typeof finding>[],
  dataQuality: 'FULL' | 'PARTIAL' | 'LIMITED' = 'FULL',
) => ({ grade, dataQuality, missing: dataQuality === 'LIMITED' ? ['holders'] : [], factors })

describe('the risk gate verdict', () => {
  test.each([
    ['PASS', 'a clean A', scan('A')],
    ['PASS', 'a B with only low findings', scan('B', [finding('LP_UNLOCKED_SHORT', 'low')])],
    ['PASS', 'partial data', scan('A', [], 'PARTIAL')],
    ['WARN', 'grade C', scan('C')],
    ['WARN', 'grade D', scan('D')],
    ['WARN', 'a high finding on an A', scan('A', [finding('MINT_AUTHORITY_LIVE', 'high')])],
    ['WARN', 'the issuer can block sales', scan('A', [finding('SELL_BLOCKABLE', 'info')])],
    ['WARN', 'a LIMITED scan vouches for nothing', scan('A', [], 'LIMITED')],
    ['BLOCK', 'grade F', scan('F')],
    ['BLOCK', 'a hard fail whatever the grade', scan('B', [finding('NON_TRANSFERABLE', 'critical', true)])],
    ['BLOCK', 'a honeypot', scan('A', [finding('HONEYPOT', 'critical')])],
    ['BLOCK', 'a copy of a registered asset on another mint', scan('D', [finding('IMPERSONATES_ASSET', 'critical')])],
  ] as const)('%s: %s', (verdict, _, input) => {
    expect(gateVerdict(input).verdict).toBe(verdict)
  })

  test('the reasons name what decided it, and say when the scan was limited', () => {
    const { reasons } = gateVerdict(
      scan('A', [finding('LP_UNLOCKED_SHORT', 'low'), finding('MINT_AUTHORITY_LIVE', 'high')], 'LIMITED'),
    )
    expect(reasons.map((reason) => reason.code)).toEqual(['MINT_AUTHORITY_LIVE', 'SCAN_LIMITED'])
    expect(reasons[1]!.detail).toContain('holders')
  })
})
