import { Type } from '@sinclair/typebox'
import { describe, expect, test } from 'bun:test'
import { BUILTIN_SIGNALS } from '../../signals/index.ts'
import { loadSignalPackages, SignalRegistry, SignalRegistryError } from './registry.ts'
import { defineSignal, ok, type Signal, type SignalMeta } from './signal.ts'

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

  test.each([
    [{ id: 'Bad_Id' }, 'id must be kebab-case'],
    [{ version: 'one' }, 'is not semver'],
    [{ facts: ['nonsense' as never] }, 'needs unknown fact "nonsense"'],
    [{ scanners: ['everything' as never] }, 'scanners must be among'],
    [{ defaults: { limit: 'x' } }, 'defaults do not match the options schema'],
    [{ impact: 'huge' as never }, 'impact must be'],
    [{ risk: '' }, 'needs a title, the risk it detects and why it matters'],
    [{ id: 'ns/sample' }, 'built-in ids have no namespace'],
    [{ riskGroup: 'vibes' as never }, 'riskGroup must be one of'],
  ])('refuses %p with a clear message', (overrides, message) => {
    expect(() => new SignalRegistry([sample(overrides)])).toThrow(message)
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
