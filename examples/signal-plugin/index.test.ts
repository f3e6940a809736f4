import { describe, expect, test } from 'bun:test'
import { SignalRegistry } from '../../src/pipeline/registry.ts'
import type { FactView } from '../../src/pipeline/signal.ts'
import { BUILTIN_SIGNALS } from '../../signals/index.ts'
import examplePackage from './index.ts'

const signal = examplePackage.signals['copycat-symbol']!
const view = (symbol: string | null, verified = false): FactView => ({
  get: ((name: string) =>
    name === 'metadata'
      ? { source: 'metaplex', name: symbol, symbol, uri: null, updateAuthority: null, isMutable: false, logoUri: null }
      : name === 'token_list'
        ? { listed: verified, verified, tags: [], logoUri: null }
        : undefined) as FactView['get'],
})
const run = (facts: FactView, mint = 'Fake1111111111111111111111111111111111111111') =>
  signal.detect(facts, signal.meta.defaults, { mint, now: 0 })

describe('example signal package', () => {
  test('registers beside the built-ins under its namespace', () => {
    const registry = new SignalRegistry(BUILTIN_SIGNALS, [examplePackage])
    expect(registry.forScanner('quick_scan').map((entry) => entry.meta.id)).toContain('example/copycat-symbol')
  })

  test.each([
    ['USDC', false, 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', []],
    ['usdc', false, undefined, ['COPYCAT_SYMBOL']],
    ['USDC', true, undefined, []],
    ['WIFHAT', false, undefined, []],
  ] as const)('symbol %s (verified %p, mint %p) → %p', (symbol, verified, mint, codes) => {
    const outcome = run(view(symbol, verified), mint)
    expect(outcome.status).toBe('ok')
    expect(outcome.factors.map((entry) => entry.code)).toEqual([...codes])
  })

  test('missing metadata gives an unknown outcome, not a verdict', () => {
    const outcome = run({ get: (() => undefined) as FactView['get'] })
    expect(outcome).toMatchObject({ status: 'unknown', missing: ['metadata'] })
  })

  test('a package for another API version, or with a foreign namespace, is refused', () => {
    expect(
      () =>
        new SignalRegistry(BUILTIN_SIGNALS, [{ ...examplePackage, meta: { ...examplePackage.meta, apiVersion: 2 } }]),
    ).toThrow('written for signal API 2')
    expect(
      () =>
        new SignalRegistry(BUILTIN_SIGNALS, [
          { ...examplePackage, meta: { ...examplePackage.meta, namespace: 'other' } },
        ]),
    ).toThrow('third-party ids are "other/<id>"')
  })
})
