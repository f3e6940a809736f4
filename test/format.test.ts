import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as client from '../client/format.ts'
import {
  amount,
  count,
  duration,
  howMany,
  inAbout,
  missingInWords,
  NOT_MEASURED,
  num,
  parseTokenAmount,
  pct,
  shortAddress,
  tokenAmount,
  usd,
  words,
} from '../src/rendering/format.ts'
import * as formatter from '../src/rendering/format.ts'
import { NOT_MEASURED_TEXT } from '../src/rendering/answer-prose.ts'

// The one number formatter (src/rendering/format.ts): the service's own prose, the CLI and the web page
// (through client/format.ts, its re-export) print numbers through it.
describe('src/rendering/format.ts', () => {
  test('imports nothing and uses no Node API: the browser bundle and the client take it as it is', () => {
    const source = readFileSync(join(import.meta.dir, '..', 'src', 'rendering', 'format.ts'), 'utf8')
    expect(source).not.toMatch(/^\s*import\s/m)
    expect(source).not.toMatch(/\b(Buffer|process|require)\b|node:/)
  })

  test("the client's formatter is this one, every function the same", () => {
    expect(Object.keys(client).sort()).toEqual(Object.keys(formatter).sort())
    for (const [name, value] of Object.entries(formatter)) expect((client as Record<string, unknown>)[name]).toBe(value)
  })

  test('a value not measured reads "not measured", the same words as the renderers', () => {
    expect(NOT_MEASURED).toBe(NOT_MEASURED_TEXT)
    for (const missing of [null, undefined, Number.NaN]) {
      expect(usd(missing)).toBe('not measured')
      expect(num(missing)).toBe('not measured')
      expect(pct(missing, { signed: true })).toBe('not measured')
    }
    expect(tokenAmount(null, 9, 'SOL')).toBe('not measured')
    expect(usd(null, { missing: '–' })).toBe('–')
  })

  test('usd: thousands separators and cents from a dollar up, three significant digits under one', () => {
    expect(usd(0.0000154431195186701)).toBe('$0.0000154')
    expect(usd(0.5)).toBe('$0.50')
    expect(usd(21148.1)).toBe('$21,148.10')
    expect(usd(2_500_000, { compact: true })).toBe('$2.5M')
    expect(usd(0)).toBe('$0')
    expect(usd(1234567.891)).toBe('$1,234,567.89')
    expect(usd(-12.5)).toBe('-$12.50')
    expect(usd(2_500_000, { compact: true })).toBe('$2.5M')
    expect(usd(12_345, { compact: true })).toBe('$12.3k')
    expect(usd(999, { compact: true })).toBe('$999')
  })

  test('num: the same rules without the dollar', () => {
    expect(num(1234.5)).toBe('1,234.5')
    expect(num(0.004213)).toBe('0.00421')
    expect(num(-3_400_000_000, { compact: true })).toBe('-3.4B')
    expect(num(42)).toBe('42')
  })

  test('pct: a sign only when asked (a change), the magnitude for words that say the direction', () => {
    expect(pct(-38.834)).toBe('38.83%')
    expect(pct(-38.834, { signed: true })).toBe('-38.83%')
    expect(pct(12.5, { signed: true })).toBe('+12.5%')
    expect(pct(0.001, { signed: true })).toBe('0%')
    expect(pct(250.55)).toBe('250.6%')
    expect(pct(1234.4)).toBe('1,234%')
  })

  test('tokenAmount: exact from atomic units, trailing zeros dropped, the symbol after', () => {
    expect(tokenAmount('100000000', 9, 'SOL')).toBe('0.1 SOL')
    expect(tokenAmount(1234567891n, 6)).toBe('1,234.567891')
    expect(tokenAmount('1', 9, 'SOL')).toBe('0.000000001 SOL')
    expect(tokenAmount('25000000', 6, 'USDC')).toBe('25 USDC')
    expect(tokenAmount('18446744073709551615', 0, 'X')).toBe('18,446,744,073,709,551,615 X')
    expect(tokenAmount(-150000n, 6)).toBe('-0.15')
  })

  test('parseTokenAmount: a person’s amount in atomic units, or why it is not one', () => {
    expect(parseTokenAmount('0.1', 9)).toEqual({ atomic: 100_000_000n })
    expect(parseTokenAmount('1,000', 6)).toEqual({ atomic: 1_000_000_000n })
    expect(parseTokenAmount('.5', 2)).toEqual({ atomic: 50n })
    expect(parseTokenAmount('25', 0)).toEqual({ atomic: 25n })
    expect(parseTokenAmount('0.0000000001', 9)).toEqual({
      error: "0.0000000001 has more decimals than the token's 9: its smallest unit is 0.000000001",
    })
    expect(parseTokenAmount('0', 9)).toEqual({ error: 'the amount must be more than zero' })
    for (const wrong of ['', '.', 'abc', '-1', '1e9', '0x10', '1.2.3'])
      expect('error' in parseTokenAmount(wrong, 9)).toBe(true)
  })

  test('count and shortAddress: "1 token", never "1 tokens"; a mint in nine characters', () => {
    expect(count(1, 'token')).toBe('1 token')
    expect(count(0, 'token')).toBe('0 tokens')
    expect(count(1200, 'buy')).toBe('1,200 buys')
    expect(count(2, 'push', 'pushes')).toBe('2 pushes')
    expect(howMany(0, 'proven wallet')).toBe('no proven wallets')
    expect(howMany(1, 'curve')).toBe('1 curve')
    expect(howMany(1, 'launchpad coin')).toBe('1 launchpad coin')
    expect(howMany(2, 'entry', 'entries')).toBe('2 entries')
    expect(shortAddress('DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263')).toBe('DezX…B263')
    expect(shortAddress('short')).toBe('short')
  })

  test('amount: a token amount in human units, USDC with cents as money', () => {
    expect(amount(2547.551541, 'USDC')).toBe('2,547.55 USDC')
    expect(amount(9.89989, 'USDC')).toBe('9.90 USDC')
    expect(amount(0.0001234567, 'SOL')).toBe('0.000123 SOL')
    expect(amount(-1.5, 'SOL')).toBe('-1.5 SOL')
    expect(amount(null, 'SOL')).toBe('not measured')
  })

  test('duration and inAbout: one unit read at a glance; "under a minute", never "~0 min"', () => {
    expect(duration(45)).toBe('45 s')
    expect(duration(13 * 60)).toBe('13 min')
    expect(duration(413 * 60)).toBe('7 h')
    expect(duration(3 * 86_400)).toBe('3 days')
    expect(duration(null)).toBe('not measured')
    expect(inAbout(20)).toBe('in under a minute')
    expect(inAbout(0)).toBe('in under a minute')
    expect(inAbout(19 * 60)).toBe('in about 19 min')
    expect(inAbout(413 * 60)).toBe('in about 7 h')
  })

  test('words and missingInWords: codes and unread facts as people read them', () => {
    expect(words('THIN_LIQUIDITY')).toBe('thin liquidity')
    expect(missingInWords('ranking:toporganicscore')).toBe('the top organic score ranking')
    expect(missingInWords('ranking:newcategory')).toBe('the newcategory ranking')
    expect(missingInWords('holder_count')).toBe('holder count')
  })
})
