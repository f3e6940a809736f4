import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BUILTIN from './issuers.json' with { type: 'json' }
import { type IssuerEntry, IssuerRegistry, IssuerRegistryError, loadIssuerRegistry } from './issuers.ts'

const entries = BUILTIN.entries as IssuerEntry[]
/** A pinned repository file (`owner/repo@<commit>:path`), one of ours, or a web page. */
const CITABLE = /^([\w.-]+\/[\w.-]+@[0-9a-f]{40}:\S+|test\/fixtures\/\S+|https:\/\/\S+)$/

describe('the built-in issuer registry', () => {
  test('loads, one entry per mint', () => {
    const registry = loadIssuerRegistry()
    expect(registry.size).toBe(entries.length)
    expect(new Set(entries.map((entry) => entry.symbol)).size).toBe(entries.length)
  })

  test('every source is citable: a pinned repository file, a recorded fixture of ours, or a web page', () => {
    for (const entry of entries)
      for (const source of entry.sources) {
        expect({ symbol: entry.symbol, ref: source.ref, citable: CITABLE.test(source.ref) }).toMatchObject({
          citable: true,
        })
        expect(source.states.length).toBeGreaterThan(20)
      }
  })

  test('covers what an agent meets most: the USD stablecoins, EURC, PYUSD, USDG, tokenized stocks, wrapped BTC/ETH, the main LSTs', () => {
    const symbols = new Set(entries.map((entry) => entry.symbol))
    for (const symbol of ['USDC', 'USDT', 'PYUSD', 'USDG', 'EURC', 'WBTC', 'cbBTC', 'WETH', 'mSOL', 'JitoSOL', 'bSOL'])
      expect(symbols).toContain(symbol)
    expect(entries.filter((entry) => entry.kind === 'tokenized_stock').length).toBeGreaterThanOrEqual(4)
    expect(entries.filter((entry) => entry.kind === 'lst').length).toBeGreaterThanOrEqual(4)
  })
})

describe('an operator registry (ISSUER_REGISTRY)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'issuers-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const source = {
    ref: 'https://issuer.example/solana',
    states: 'the issuer lists this mint as its token',
    retrieved: '2026-11-25',
  }
  const extra: IssuerEntry = {
    mint: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
    symbol: 'XYZ',
    name: 'An operator asset',
    issuer: 'Operator',
    kind: 'rwa',
    sources: [source],
  }
  const write = (name: string, content: unknown) => {
    const path = join(dir, name)
    writeFileSync(path, JSON.stringify(content))
    return path
  }

  test('adds its entries to the built-in ones, and may correct one', () => {
    const corrected = { ...entries[0]!, freezeAuthority: undefined, sources: [source] }
    const registry = loadIssuerRegistry(write('ok.json', { version: '2026-11-25', entries: [extra, corrected] }))
    expect(registry.size).toBe(entries.length + 1)
    expect(registry.get(extra.mint)?.symbol).toBe('XYZ')
    expect(registry.get(corrected.mint)?.sources).toEqual([source])
    expect(registry.versions).toEqual([
      `issuers.json (built in)@${BUILTIN.version}`,
      expect.stringContaining('2026-11-25'),
    ])
  })

  test.each([
    ['a mint that is not an address', { ...extra, mint: 'USDC' }, /mint/],
    ['a lookalike authority that is not base58', { ...extra, freezeAuthority: 'O0Il-not-base58' }, /freezeAuthority/],
    ['no source', { ...extra, sources: [] }, /source/],
    ['an unknown kind', { ...extra, kind: 'meme' }, /kind must be one of/],
  ])('refuses %s, naming the entry', (_, entry, message) => {
    const path = write('bad.json', { version: '2026-11-25', entries: [entry] })
    expect(() => loadIssuerRegistry(path)).toThrow(IssuerRegistryError)
    expect(() => loadIssuerRegistry(path)).toThrow(message)
  })

  test('refuses a file that cannot be read or is not a registry', () => {
    expect(() => loadIssuerRegistry(join(dir, 'absent.json'))).toThrow(/cannot read/)
    expect(() => new IssuerRegistry([{ name: 'x', file: [] as never }])).toThrow(/version/)
  })
})
