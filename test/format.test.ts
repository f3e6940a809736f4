import { describe, expect, test } from 'bun:test'
import { num, pct, tokenAmount, usd } from '../client/format.ts'

// The one number formatter of the page and the CLI (client/format.ts).
describe('readable numbers', () => {
  test.each([
    [0.0000154431195186701, '$0.0000154'],
    [0.5126, '$0.513'],
    [1, '$1.00'],
    [1234.5, '$1,234.50'],
    [48_213_992.4, '$48,213,992.40'],
    [0, '$0'],
    [-2.5, '-$2.50'],
    [-0.000012, '-$0.000012'],
    [Number.NaN, '—'],
    [null, '—'],
  ])('usd(%p) = %p', (value, text) => {
    expect(usd(value)).toBe(text)
  })

  test.each([
    [1234567, '1,234,567'],
    [1234567.891, '1,234,567.89'],
    [0.000123456, '0.000123'],
    [-42, '-42'],
    [undefined, '—'],
  ])('num(%p) = %p', (value, text) => {
    expect(num(value)).toBe(text)
  })

  test.each([
    [-38.83, '-38.8%'],
    [5, '+5.0%'],
    [0, '0.0%'],
    [-0.01, '0.0%'],
    [12345.6, '+12,346%'],
    [Number.POSITIVE_INFINITY, '—'],
  ])('pct(%p) = %p, the sign once', (value, text) => {
    expect(pct(value)).toBe(text)
  })

  test('a share is not signed', () => {
    expect(pct(45.25, { sign: false })).toBe('45.3%')
    expect(pct(-3, { sign: false })).toBe('-3.0%')
  })

  test.each([
    ['1500000', 6, 'USDC', '1.5 USDC'],
    [1_000_000_000n, 9, 'SOL', '1 SOL'],
    ['123456789012345678', 6, 'BONK', '123,456,789,012.3456 BONK'],
    ['1234', 9, 'SOL', '0.00000123 SOL'],
    ['0', 6, null, '0'],
    ['-2500000', 6, undefined, '-2.5'],
    ['12', 0, 'NFT', '12 NFT'],
    ['not a number', 6, 'X', '—'],
  ])('tokenAmount(%p, %p, %p) = %p, exactly', (atomic, decimals, symbol, text) => {
    expect(tokenAmount(atomic, decimals, symbol)).toBe(text)
  })
})
