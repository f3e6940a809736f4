import { base58Encode } from './base58.ts'

/** A serialised transaction taken apart (legacy or v0), without validating signatures. */
export interface ParsedWire {
  version: 'legacy' | 0
  signatures: Uint8Array[]
  numSigners: number
  staticKeys: string[]
  blockhash: string
  /** Offset of the recent blockhash in the wire bytes. */
  blockhashOffset: number
  instructions: { programIdIndex: number; accounts: number[]; data: Uint8Array }[]
  lookups: { table: string; writable: number[]; readonly: number[] }[]
}

const VERSION_MASK = 0x7f
const VERSIONED_FLAG = 0x80

/**
 * Reads the wire format (compact-u16 lengths, signatures, then the message). The sandbox parses every
 * transaction it executes; @solana/kit's decoder converts each key through BigInt base58, which cost
 * more than executing the transaction. Throws on truncated or unsupported input.
 */
export function parseWire(wire: Uint8Array): ParsedWire {
  let offset = 0
  const byte = () => {
    if (offset >= wire.length) throw new Error('transaction is truncated')
    return wire[offset++]!
  }
  const length = () => {
    let value = 0
    for (let shift = 0; shift < 21; shift += 7) {
      const next = byte()
      value |= (next & 0x7f) << shift
      if ((next & 0x80) === 0) return value
    }
    throw new Error('bad compact-u16 length')
  }
  const take = (size: number) => {
    if (offset + size > wire.length) throw new Error('transaction is truncated')
    const slice = wire.subarray(offset, offset + size)
    offset += size
    return slice
  }
  const signatures = Array.from({ length: length() }, () => take(64))
  let version: ParsedWire['version'] = 'legacy'
  if (wire[offset]! & VERSIONED_FLAG) {
    const number = byte() & VERSION_MASK
    if (number !== 0) throw new Error(`transaction version ${number} is not supported`)
    version = 0
  }
  const numSigners = byte()
  byte() // read-only signed
  byte() // read-only unsigned
  const staticKeys = Array.from({ length: length() }, () => base58Encode(take(32)))
  const blockhashOffset = offset
  const blockhash = base58Encode(take(32))
  const instructions = Array.from({ length: length() }, () => {
    const programIdIndex = byte()
    const accounts = Array.from(take(length()))
    const data = take(length())
    return { programIdIndex, accounts, data }
  })
  const lookups =
    version === 0
      ? Array.from({ length: length() }, () => ({
          table: base58Encode(take(32)),
          writable: Array.from(take(length())),
          readonly: Array.from(take(length())),
        }))
      : []
  return { version, signatures, numSigners, staticKeys, blockhash, blockhashOffset, instructions, lookups }
}
