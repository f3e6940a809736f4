import { describe, expect, test } from 'bun:test'
import { parseBodyInteger, parseBool, parsePubkey, parseQueryInteger, U16_MAX } from './params.ts'

describe('parsers that fail as Jupiter (Rust) reports it', () => {
  const QUERY_INTEGERS: [string, bigint | undefined, ReturnType<typeof parseQueryInteger>][] = [
    ['0', undefined, { ok: true, value: 0n }],
    ['+42', undefined, { ok: true, value: 42n }],
    ['18446744073709551615', undefined, { ok: true, value: 18_446_744_073_709_551_615n }],
    ['18446744073709551616', undefined, { ok: false, reason: 'ParseIntError { kind: PosOverflow }' }],
    ['', undefined, { ok: false, reason: 'ParseIntError { kind: Empty }' }],
    ['-1', undefined, { ok: false, reason: 'ParseIntError { kind: InvalidDigit }' }],
    ['1e9', undefined, { ok: false, reason: 'ParseIntError { kind: InvalidDigit }' }],
    [' 5', undefined, { ok: false, reason: 'ParseIntError { kind: InvalidDigit }' }],
    ['65535', U16_MAX, { ok: true, value: 65_535n }],
    ['65536', U16_MAX, { ok: false, reason: 'ParseIntError { kind: PosOverflow }' }],
  ]
  for (const [text, max, expected] of QUERY_INTEGERS)
    test(`query integer ${JSON.stringify(text)}${max === undefined ? '' : ` (max ${max})`}`, () => {
      expect(parseQueryInteger(text, max)).toEqual(expected)
    })

  test("body integers fail with serde's Display text", () => {
    expect(parseBodyInteger('12.5')).toEqual({ ok: false, reason: 'invalid digit found in string' })
    expect(parseBodyInteger('')).toEqual({ ok: false, reason: 'cannot parse integer from empty string' })
    expect(parseBodyInteger('99999999999999999999')).toEqual({
      ok: false,
      reason: 'number too large to fit in target type',
    })
  })

  const PUBKEYS: [string, ReturnType<typeof parsePubkey>][] = [
    ['So11111111111111111111111111111111111111112', { ok: true, value: 'So11111111111111111111111111111111111111112' }],
    ['11111111111111111111111111111111', { ok: true, value: '11111111111111111111111111111111' }],
    ['', { ok: false, reason: 'WrongSize' }],
    ['9WzDXwBbmkg8ZTbN', { ok: false, reason: 'WrongSize' }],
    ['So111111111111111111111111111111111111111123', { ok: false, reason: 'WrongSize' }],
    ['0OIl111111111111111111111111111111111111111', { ok: false, reason: 'Invalid' }],
  ]
  for (const [text, expected] of PUBKEYS)
    test(`pubkey ${JSON.stringify(text)}`, () => {
      expect(parsePubkey(text)).toEqual(expected)
    })

  test('bools are exactly true or false', () => {
    expect(parseBool('true')).toEqual({ ok: true, value: true })
    expect(parseBool('false')).toEqual({ ok: true, value: false })
    expect(parseBool('True')).toEqual({ ok: false, reason: 'provided string was not `true` or `false`' })
  })
})
