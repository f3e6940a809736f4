/**
 * Base58 for 32-byte addresses on the sandbox's hot paths. @solana/kit's codec goes through BigInt and
 * took a third of the time of executing a transaction (bun --cpu-prof); the sandbox handles a bounded
 * set of addresses, so conversions are cached and computed with plain byte arithmetic.
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const DIGIT = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i

const toText = new Map<string, string>()
const toBytes = new Map<string, Uint8Array>()

/** base58 text of `bytes`. */
export function base58Encode(bytes: ArrayLike<number>): string {
  const key = Buffer.from(bytes as Uint8Array).toString('latin1')
  const cached = toText.get(key)
  if (cached !== undefined) return cached
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
  toText.set(key, text)
  return text
}

/** Bytes of base58 `text`; throws on a character outside the alphabet. */
export function base58Decode(text: string): Uint8Array {
  const cached = toBytes.get(text)
  if (cached !== undefined) return cached
  let zeros = 0
  while (zeros < text.length && text.charCodeAt(zeros) === 49) zeros++
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
  toBytes.set(text, result)
  return result
}
