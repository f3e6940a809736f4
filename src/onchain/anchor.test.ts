import { describe, expect, test } from 'bun:test'
import { getStructCodec, getU8Codec } from '@solana/kit'
import {
  anchorAccountDiscriminator,
  decodeOrUndefined,
  startsWith,
  withAnchorDiscriminator,
  zeroPadded,
} from './anchor.ts'

describe('anchorAccountDiscriminator', () => {
  test('matches the discriminator pump.fun publishes for BondingCurve', () => {
    expect([...anchorAccountDiscriminator('BondingCurve')]).toEqual([23, 183, 248, 55, 96, 216, 172, 96])
  })

  test('depends on the account name', () => {
    expect(anchorAccountDiscriminator('Pool')).not.toEqual(anchorAccountDiscriminator('PoolState'))
  })
})

describe('withAnchorDiscriminator', () => {
  const codec = withAnchorDiscriminator(new Uint8Array([9, 8, 7, 6, 5, 4, 3, 2]), getStructCodec([['x', getU8Codec()]]))

  test('writes the discriminator before the body and counts it in the size', () => {
    expect([...codec.encode({ x: 1 })]).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1])
    expect(codec.fixedSize).toBe(9)
  })

  test('refuses bytes with another discriminator', () => {
    expect(() => codec.decode(new Uint8Array([0, 8, 7, 6, 5, 4, 3, 2, 1]))).toThrow()
    expect(decodeOrUndefined(codec, new Uint8Array([0, 8, 7, 6, 5, 4, 3, 2, 1]))).toBeUndefined()
    expect(decodeOrUndefined(codec, new Uint8Array([9, 8, 7, 6, 5, 4, 3, 2, 1]))).toEqual({ x: 1 })
  })
})

describe('zeroPadded', () => {
  test('extends short data with zeros and leaves long data whole', () => {
    expect([...zeroPadded(new Uint8Array([1, 2]), 4)]).toEqual([1, 2, 0, 0])
    expect([...zeroPadded(new Uint8Array([1, 2, 3]), 2)]).toEqual([1, 2, 3])
  })
})

describe('startsWith', () => {
  test.each([
    [[1, 2, 3], [1, 2], true],
    [[1, 2, 3], [1, 3], false],
    [[1], [1, 2], false],
  ])('%p starts with %p: %p', (data, prefix, expected) => {
    expect(startsWith(new Uint8Array(data), new Uint8Array(prefix))).toBe(expected)
  })
})
