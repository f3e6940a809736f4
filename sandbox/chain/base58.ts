import { decodeBase58, encodeBase58 } from '../../src/onchain/base58.ts'

/**
 * Cached base58 for the sandbox's hot paths: it handles a bounded set of addresses (its own keys and
 * loaded accounts) over and over, so conversions are remembered. Not for untrusted input of unbounded
 * variety (the service validates addresses with the uncached functions in src/onchain/base58.ts).
 */
const toText = new Map<string, string>()
const toBytes = new Map<string, Uint8Array>()

/** base58 text of `bytes`. */
export function base58Encode(bytes: ArrayLike<number>): string {
  const key = Buffer.from(bytes as Uint8Array).toString('latin1')
  let text = toText.get(key)
  if (text === undefined) {
    text = encodeBase58(bytes)
    toText.set(key, text)
  }
  return text
}

/** Bytes of base58 `text`; throws on a character outside the alphabet. */
export function base58Decode(text: string): Uint8Array {
  let bytes = toBytes.get(text)
  if (bytes === undefined) {
    bytes = decodeBase58(text)
    toBytes.set(text, bytes)
  }
  return bytes
}
