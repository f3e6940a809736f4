/**
 * Base58 (Bitcoin alphabet) with plain byte arithmetic. @solana/kit's codec goes through BigInt and
 * costs about ten times as much per 32-byte address, which shows on hot paths (request validation,
 * the sandbox's transaction processing).
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const DIGIT = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i

/** base58 text of `bytes`. */
export function encodeBase58(bytes: ArrayLike<number>): string {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++
  const digits: number[] = [] // little-endian base-58 digits
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j]! << 8
      digits[j] = carry % 58
      carry = (carry / 58) | 0
    }
    while (carry > 0) {
      digits.push(carry % 58)
      carry = (carry / 58) | 0
    }
  }
  let text = '1'.repeat(zeros)
  for (let i = digits.length - 1; i >= 0; i--) text += ALPHABET[digits[i]!]
  return text
}

/** Bytes of base58 `text`; throws on a character outside the alphabet. */
export function decodeBase58(text: string): Uint8Array {
  let zeros = 0
  while (zeros < text.length && text.charCodeAt(zeros) === 49 /* '1' */) zeros++
  const bytes: number[] = [] // little-endian base-256 digits
  for (let i = zeros; i < text.length; i++) {
    const code = text.charCodeAt(i)
    let carry = code < 128 ? DIGIT[code]! : -1
    if (carry < 0) throw new Error(`invalid base58 character "${text[i]}"`)
    for (let j = 0; j < bytes.length; j++) {
      carry += bytes[j]! * 58
      bytes[j] = carry & 0xff
      carry >>= 8
    }
    while (carry > 0) {
      bytes.push(carry & 0xff)
      carry >>= 8
    }
  }
  const result = new Uint8Array(zeros + bytes.length)
  for (let i = 0; i < bytes.length; i++) result[result.length - 1 - i] = bytes[i]!
  return result
}
