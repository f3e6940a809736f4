import { describe, expect, test } from 'bun:test'
import { getBase58Codec, getBase58Encoder } from '@solana/kit'
import { checkSolanaAddress } from './address.ts'
import { decodeBase58, encodeBase58 } from './base58.ts'

describe('checkSolanaAddress', () => {
  test.each([
    ['DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263'],
    ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
    ['So11111111111111111111111111111111111111112'],
    ['11111111111111111111111111111111'],
  ])('accepts %s', (address) => {
    expect(checkSolanaAddress(address)).toEqual({ ok: true, address })
  })

  test.each([
    [undefined, 'token_address is required'],
    [null, 'token_address is required'],
    [42, 'must be a string holding a base58 Solana SPL mint address, not a number'],
    [['x'], 'not an array'],
    [{ mint: 'x' }, 'not an object'],
    ['0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 'EVM addresses are not supported: send a Solana SPL mint address'],
    ['BONK', `"BONK" looks like a ticker: send the token's mint address, not its ticker`],
    ['$WIF', 'looks like a ticker'],
    ['abc-def', 'must be 32 to 44 characters long (got 7)'],
    ['D'.repeat(45), 'must be 32 to 44 characters long (got 45)'],
    [' DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263', 'leading or trailing whitespace'],
    ['DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB260', 'contains "0", which is not in the base58 alphabet'],
    ['DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPBl63', 'contains "l"'],
    // 44 base58 characters that decode to more than 32 bytes.
    ['zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', 'decodes to 33 bytes, not 32'],
    // 32 ones decode to 32 zero bytes; 33 ones to 33 bytes.
    ['1'.repeat(33), 'decodes to 33 bytes, not 32'],
  ])('rejects %p with an actionable message', (value, message) => {
    const check = checkSolanaAddress(value)
    expect(check.ok).toBe(false)
    if (!check.ok) expect(check.message).toContain(message)
  })

  test('names the field and noun it was asked about', () => {
    const check = checkSolanaAddress('0xabc', 'PAY_TO_SOLANA', 'Solana address')
    expect(check).toEqual({ ok: false, message: 'EVM addresses are not supported: send a Solana address' })
  })
})

describe('base58', () => {
  test('decoding agrees with @solana/kit on random strings of every address length', () => {
    const kit = getBase58Encoder()
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
    for (let i = 0; i < 2000; i++) {
      const length = 1 + (i % 50)
      let text = ''
      for (let j = 0; j < length; j++) text += alphabet[Math.floor(Math.random() * (i % 7 === 0 ? 3 : 58))]
      expect(decodeBase58(text)).toEqual(new Uint8Array(kit.encode(text)))
    }
  })
})

test('encoding agrees with @solana/kit both ways, leading zeros included', () => {
  const kit = getBase58Codec()
  for (let i = 0; i < 500; i++) {
    const bytes = crypto.getRandomValues(new Uint8Array(i % 3 === 0 ? 64 : 32))
    if (i % 5 === 0) bytes.fill(0, 0, i % 7)
    expect(encodeBase58(bytes)).toBe(kit.decode(bytes))
  }
  expect(() => decodeBase58('0OIl')).toThrow('invalid base58 character "0"')
})
