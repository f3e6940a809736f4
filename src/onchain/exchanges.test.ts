import { describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError } from '../kernel/config.ts'
import { loadConfig } from '../settings.ts'
import BUILTIN from './exchanges.json'
import { loadExchangeList } from './exchanges.ts'

describe('exchange hot wallets', () => {
  test('the built-in list: distinct Solana addresses, each with an exchange and its source', () => {
    const list = loadExchangeList()
    expect(list.size).toBe(BUILTIN.entries.length)
    expect(list.size).toBeGreaterThan(100)
    for (const entry of BUILTIN.entries) {
      expect(entry.source.length).toBeGreaterThan(10)
      expect(list.exchangeOf(entry.address)).toBe(entry.exchange)
    }
    expect(list.exchangeOf('11111111111111111111111111111111')).toBeNull()
  })

  test("the operator's file adds entries; a bad one stops the start with the setting named", () => {
    const dir = mkdtempSync(join(tmpdir(), 'exchanges-'))
    const good = join(dir, 'good.json')
    writeFileSync(
      good,
      JSON.stringify({
        version: '2026-11-25',
        entries: [
          { address: 'Vote111111111111111111111111111111111111111', exchange: 'Desk', label: 'x', source: 'ops' },
        ],
      }),
    )
    expect(loadExchangeList(good).exchangeOf('Vote111111111111111111111111111111111111111')).toBe('Desk')
    const bad = join(dir, 'bad.json')
    writeFileSync(
      bad,
      JSON.stringify({ version: '2026-11-25', entries: [{ address: '0xabc', exchange: 'X', source: 's' }] }),
    )
    expect(() => loadConfig({ EXCHANGE_WALLETS: bad })).toThrow(ConfigError)
    expect(() => loadConfig({ EXCHANGE_WALLETS: bad })).toThrow(/EXCHANGE_WALLETS/)
  })
})
