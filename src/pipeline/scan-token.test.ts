import { describe, expect, test } from 'bun:test'
import { BUILTIN_SIGNALS } from '../../signals/index.ts'
import type { TokenContext } from '../facts/index.ts'
import { DEEP_DIVE_POLICY, MARKET_INTEL_POLICY, QUICK_SCAN_POLICY } from './policies.ts'
import { SignalRegistry } from './registry.ts'
import { scanToken, withTokenScan, type ScanScope } from './scan-token.ts'

// No source is configured: every fact goes missing at once, so a scan answers without I/O.
const MINT = 'Tok1111111111111111111111111111111111111111'
const OTHER = 'Oth1111111111111111111111111111111111111111'
const signals = new SignalRegistry(BUILTIN_SIGNALS)

/** A scope whose logger keeps the mint of every context closed ('facts gathered' is logged on close). */
function scope(registry: SignalRegistry = signals): ScanScope & { closed: string[] } {
  const closed: string[] = []
  return {
    sources: {},
    signals: registry,
    closed,
    logger: {
      info(object: object, message: string) {
        if (message === 'facts gathered') closed.push((object as { mint: string }).mint)
      },
    },
  }
}

const soon = () => Date.now() + 2_000

describe('scanToken', () => {
  test('returns the scan, on a TokenContext of its own, closed before it returns', async () => {
    const using = scope()
    const scan = await scanToken(using, MINT, QUICK_SCAN_POLICY, soon())
    expect(scan.grade).toBeDefined()
    expect(scan.quality.data_quality).toBe('LIMITED')
    expect(using.closed).toEqual([MINT])
  })

  test('one TokenContext per call: beforeClose reads it open, and it is closed after', async () => {
    const using = scope()
    const seen: { facts: TokenContext; openThen: boolean }[] = []
    const answer = (scan: { grade: string }, facts: TokenContext) => {
      seen.push({ facts, openThen: !facts.meter.closed })
      return `graded ${scan.grade}`
    }
    const first = await scanToken(using, MINT, QUICK_SCAN_POLICY, soon(), { beforeClose: answer })
    await scanToken(using, OTHER, QUICK_SCAN_POLICY, soon(), { beforeClose: answer })
    expect(first).toMatch(/^graded [A-F]$/)
    expect(seen.map(({ facts }) => facts.mint)).toEqual([MINT, OTHER])
    expect(seen[0]!.facts).not.toBe(seen[1]!.facts)
    expect(seen.every(({ openThen }) => openThen)).toBe(true)
    expect(seen.every(({ facts }) => facts.meter.closed)).toBe(true)
    expect(using.closed).toEqual([MINT, OTHER])
  })

  test('the facts are closed when the scan throws, and the error is the caller’s', async () => {
    const broken = {
      forScanner() {
        throw new Error('registry broken')
      },
    } as unknown as SignalRegistry
    const using = scope(broken)
    await expect(scanToken(using, MINT, QUICK_SCAN_POLICY, soon())).rejects.toThrow('registry broken')
    expect(using.closed).toEqual([MINT])
  })

  test('the facts are closed when beforeClose throws', async () => {
    const using = scope()
    let kept: TokenContext | undefined
    const failing = scanToken(using, MINT, QUICK_SCAN_POLICY, soon(), {
      beforeClose: (_scan, facts) => {
        kept = facts
        throw new Error('answer failed')
      },
    })
    await expect(failing).rejects.toThrow('answer failed')
    expect(kept?.meter.closed).toBe(true)
    expect(using.closed).toEqual([MINT])
  })
})

describe('withTokenScan', () => {
  test('several scans and reads share one TokenContext, closed once', async () => {
    const using = scope()
    const contexts = new Set<TokenContext>()
    const grades = await withTokenScan(using, MINT, soon(), async ({ facts, scan }) => {
      contexts.add(facts)
      const scans = await Promise.all([scan(QUICK_SCAN_POLICY), scan(MARKET_INTEL_POLICY), scan(DEEP_DIVE_POLICY)])
      await facts.fact('dev_history')
      return scans.map((entry) => entry.grade)
    })
    expect(grades).toHaveLength(3)
    expect(contexts.size).toBe(1)
    expect(using.closed).toEqual([MINT])
  })

  test('closed when the work throws', async () => {
    const using = scope()
    let kept: TokenContext | undefined
    const failing = withTokenScan(using, MINT, soon(), async ({ facts }) => {
      kept = facts
      throw new Error('read failed')
    })
    await expect(failing).rejects.toThrow('read failed')
    expect(kept?.meter.closed).toBe(true)
    expect(using.closed).toEqual([MINT])
  })
})
