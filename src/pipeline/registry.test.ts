import { Type } from '@sinclair/typebox'
import { describe, expect, test } from 'bun:test'
import { BUILTIN_SIGNALS } from '../../signals/index.ts'
import { loadSignalPackages, SignalRegistry, SignalRegistryError } from './registry.ts'
import { defineSignal, finding, ok, type Signal, type SignalMeta, signalMeta } from './signal.ts'

const base: SignalMeta = {
  id: 'sample',
  version: '1.0.0',
  title: 'Sample',
  risk: 'r',
  why: 'w',
  scanners: ['quick_scan'],
  facts: ['mint'],
  impact: 'low',
  confidence: 'high',
  options: Type.Object({ limit: Type.Number() }),
  defaults: { limit: 1 },
  findings: { SAMPLE: { severity: 'low', points: -5, when: 'always' } },
}
const sample = (overrides: Partial<SignalMeta>): Signal =>
  defineSignal({ meta: { ...base, ...overrides }, detect: () => ok([], {}) })

describe('SignalRegistry', () => {
  test('accepts every built-in signal', () => {
    const registry = new SignalRegistry(BUILTIN_SIGNALS)
    expect(registry.all().length).toBe(BUILTIN_SIGNALS.length)
    expect(registry.forScanner('quick_scan').length).toBeGreaterThan(0)
  })

  test('every built-in signal declares the risk group its findings count in', () => {
    expect(
      BUILTIN_SIGNALS.filter((signal) => signal.meta.riskGroup === undefined).map((signal) => signal.meta.id),
    ).toEqual([])
  })

  test.each<[Partial<SignalMeta>, string]>([
    [{ id: 'Bad_Id' }, 'id must be kebab-case'],
    [{ version: 'one' }, 'is not semver'],
    [{ facts: ['nonsense' as never] }, 'needs unknown fact "nonsense"'],
    [{ scanners: ['everything' as never] }, 'scanners must be among'],
    [{ defaults: { limit: 'x' } }, 'defaults do not match the options schema'],
    [{ impact: 'huge' as never }, 'impact must be'],
    [{ risk: '' }, 'needs a title, the risk it detects and why it matters'],
    [{ id: 'ns/sample' }, 'built-in ids have no namespace'],
    [{ riskGroup: 'vibes' as never }, 'riskGroup must be one of'],
    [{ findings: {} }, 'needs a findings catalogue'],
    [{ findings: { sample: { severity: 'low', points: -5, when: 'w' } } }, 'must be UPPER_SNAKE_CASE'],
    [{ findings: { UNKNOWN: { severity: 'info', points: 0, when: 'w' } } }, "is the pipeline's own code"],
    [{ findings: { SAMPLE: { severity: 'grave' as never, points: -5, when: 'w' } } }, 'severity must be one of'],
    [{ findings: { SAMPLE: { severity: 'low', points: 5, when: 'w' } } }, 'points must be a number ≤ 0'],
    [{ findings: { SAMPLE: { severity: 'low', points: 'nope', when: 'w' } } }, 'points must be a number ≤ 0'],
    [{ findings: { SAMPLE: { severity: 'low', points: 'limit', when: 'w' } } }, 'points must be a number ≤ 0'],
    [{ findings: { SAMPLE: { severity: 'low', points: -5, when: '' } } }, 'needs "when"'],
    [
      { findings: { SAMPLE: { severity: 'low', points: -5, when: 'w', excludes: 'OTHER' as never } } },
      'excludes is a list',
    ],
    [
      { findings: { SAMPLE: { severity: 'low', points: -5, when: 'w', excludes: ['lower'] } } },
      'not CODE or signal-id/CODE',
    ],
    [
      { findings: { SAMPLE: { severity: 'low', points: -5, when: 'w', excludes: ['OTHER'] } } },
      'its own catalogue does not declare',
    ],
    [{ findings: { SAMPLE: { severity: 'low', points: -5, when: 'w', excludes: ['SAMPLE'] } } }, 'excludes itself'],
    [
      { findings: { SAMPLE: { severity: 'low', points: -5, when: 'w', excludes: ['nowhere/SAMPLE'] } } },
      'excludes nowhere/SAMPLE, which no registered signal declares',
    ],
  ])('refuses %p with a clear message', (overrides, message) => {
    expect(() => new SignalRegistry([sample(overrides)])).toThrow(message)
  })

  test('a finding raised from the catalogue takes its severity, points and hard fail from it', () => {
    const meta = signalMeta({
      ...base,
      options: Type.Object({ penalty: Type.Number() }),
      defaults: { penalty: -7 },
      findings: {
        TUNED: { severity: 'high', points: 'penalty', when: 'w' },
        FATAL: { severity: 'critical', points: -100, hardFail: true, when: 'w' },
      },
    })
    expect(finding(meta, { penalty: -3 }, 'TUNED', 't', 'd')).toMatchObject({
      code: 'TUNED',
      severity: 'high',
      impact: -3,
      hard_fail: false,
    })
    expect(finding(meta, meta.defaults, 'FATAL', 't', 'd', { x: 1 })).toMatchObject({
      impact: -100,
      hard_fail: true,
      evidence: { x: 1 },
    })
    expect(() => finding(meta, meta.defaults, 'OTHER' as never, 't', 'd')).toThrow('does not declare')
  })

  test('exclusions are pairs of declared findings, once each whichever side declares them', () => {
    const other = defineSignal({
      meta: {
        ...base,
        id: 'other',
        findings: {
          HIGH: { severity: 'high', points: -10, when: 'w', excludes: ['LOW', 'sample/SAMPLE'] },
          LOW: { severity: 'low', points: -5, when: 'w', excludes: ['HIGH'] },
        },
      },
      detect: () => ok([], {}),
    })
    const registry = new SignalRegistry([
      sample({ findings: { SAMPLE: { severity: 'low', points: -5, when: 'w', excludes: ['other/HIGH'] } } }),
      other,
    ])
    expect(registry.exclusions()).toEqual([
      ['other/HIGH', 'other/LOW'],
      ['other/HIGH', 'sample/SAMPLE'],
    ])
    const raised = (signal: string, code: string) => ({ signal, code })
    expect(registry.conflicts([raised('other', 'HIGH'), raised('sample', 'SAMPLE')])).toEqual([
      ['other/HIGH', 'sample/SAMPLE'],
    ])
    expect(registry.conflicts([raised('other', 'LOW'), raised('sample', 'SAMPLE')])).toEqual([])
  })

  test("the built-in signals' exclusions: one LP story, one wash story", () => {
    const pairs = new SignalRegistry(BUILTIN_SIGNALS).exclusions().map((pair) => pair.join(' ⟂ '))
    expect(pairs).toContain('liquidity-lock/LP_PULLABLE ⟂ lp-status/LP_LOCK_ENDING')
    expect(pairs).toContain('lp-status/LP_LOCK_ENDING ⟂ lp-status/LP_UNBURNED')
    expect(pairs).toContain('wash-trading/WASH_TRADING ⟂ wash-trading/WASH_TRADING_EXTREME')
    expect(pairs).not.toContain('liquidity-lock/LP_PULLABLE ⟂ lp-status/LP_UNBURNED')
  })

  test('refuses a duplicate id', () => {
    expect(() => new SignalRegistry([sample({}), sample({})])).toThrow('signal sample: registered twice')
  })

  test('SIGNAL_PLUGINS loads packages by path and names one that cannot load', async () => {
    const [pkg] = await loadSignalPackages('./examples/signal-plugin/index.ts')
    expect(pkg?.meta.namespace).toBe('example')
    await expect(loadSignalPackages('./no/such/package.ts')).rejects.toBeInstanceOf(SignalRegistryError)
  })
})
