import { describe, expect, test } from 'bun:test'
import { formatF64Display, formatF64Fixed, formatF64Json, powF64 } from './rust-float.ts'

// Expected strings are what the Rust formatting machinery prints for the same f64.
describe('formatF64Display (Rust `{}`)', () => {
  test.each([
    [2, '2'],
    [0, '0'],
    [-0, '-0'],
    [1.5, '1.5'],
    [0.1, '0.1'],
    [1e21, '1000000000000000000000'],
    [1.2345678901234568e20, '123456789012345680000'],
    [1e-7, '0.0000001'],
    [-2.5e-10, '-0.00000000025'],
    [NaN, 'NaN'],
    [Infinity, 'inf'],
    [-Infinity, '-inf'],
  ])('%p prints %s', (x, text) => {
    expect(formatF64Display(x)).toBe(text)
  })
})

describe('formatF64Json (serde_json / ryu)', () => {
  test.each([
    [1, '1.0'],
    [0, '0.0'],
    [-0, '-0.0'],
    [0.42, '0.42'],
    [1234567.89, '1234567.89'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e16'],
    [1.5e17, '1.5e17'],
    [0.0001, '0.0001'],
    [1.23e-5, '0.0000123'],
    [1e-6, '1e-6'],
    [1e-9, '1e-9'],
    [1.5e-7, '1.5e-7'],
    [-2.5, '-2.5'],
    [1.7976931348623157e308, '1.7976931348623157e308'],
    [Infinity, 'null'],
    [NaN, 'null'],
  ])('%p prints %s', (x, text) => {
    expect(formatF64Json(x)).toBe(text)
  })
})

describe('formatF64Fixed (Rust `{:.*}`)', () => {
  test.each([
    [0.5, 0, '0'],
    [1.5, 0, '2'],
    [2.5, 0, '2'],
    [-1.5, 0, '-2'],
    [0.125, 2, '0.12'],
    [0.375, 2, '0.38'],
    // 1.05 is 1.0500000000000000444… in binary, so it rounds up
    [1.05, 1, '1.1'],
    [0.1, 20, '0.10000000000000000555'],
    [1e21, 2, '1000000000000000000000.00'],
    [5e-324, 3, '0.000'],
    [-0, 2, '-0.00'],
    [Infinity, 4, 'inf'],
    [NaN, 4, 'NaN'],
  ])('%p to %p places prints %s', (x, precision, text) => {
    expect(formatF64Fixed(x, precision)).toBe(text)
  })

  test('rounds ties to even where JavaScript toFixed rounds up', () => {
    expect((2.5).toFixed(0)).toBe('3')
    expect(formatF64Fixed(2.5, 0)).toBe('2')
  })
})

describe('powF64 (num_traits::pow)', () => {
  test('is exact where 10^n is representable', () => {
    for (let n = 0; n <= 22; n++) expect(powF64(10, n)).toBe(Number(10n ** BigInt(n)))
  })

  test('multiplies by squaring, one rounding per step, so 10^33 is off by an ulp as in Rust', () => {
    // 33 = 0b100001: 10 · (10^32 built as ((((10^2)^2)^2)^2)^2), each product rounded
    expect(powF64(10, 33)).toBe(1.0000000000000001e33)
    expect(powF64(10, 33)).not.toBe(1e33)
  })
})
