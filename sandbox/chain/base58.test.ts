import { getBase58Codec } from '@solana/kit'
import { expect, test } from 'bun:test'
import { base58Decode, base58Encode } from './base58.ts'

test('agrees with @solana/kit both ways, leading zeros included', () => {
  const kit = getBase58Codec()
  for (let i = 0; i < 500; i++) {
    const bytes = crypto.getRandomValues(new Uint8Array(i % 3 === 0 ? 64 : 32))
    if (i % 5 === 0) bytes.fill(0, 0, i % 7)
    const text = base58Encode(bytes)
    expect(text).toBe(kit.decode(bytes))
    expect(base58Decode(text)).toEqual(new Uint8Array(kit.encode(text)))
  }
})

test('refuses characters outside the alphabet', () => {
  expect(() => base58Decode('0OIl')).toThrow('invalid base58 character "0"')
})
