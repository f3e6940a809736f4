import { getAddressDecoder, getBase64Decoder } from '@solana/kit'

const addressDecoder = getAddressDecoder()
const base64Decoder = getBase64Decoder()

/**
 * Little-endian field reads over account data, in the forms the RPC prints: pubkeys as base58, 64-bit
 * integers as bigint (JSON numbers that must survive past 2^53), zk-sdk pod types as standard base64.
 * Callers check lengths first: reads past the end throw, which the parser treats as "not parsable".
 */
export class ByteView {
  private readonly view: DataView

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }

  u8(offset: number): number {
    return this.view.getUint8(offset)
  }

  u16(offset: number): number {
    return this.view.getUint16(offset, true)
  }

  i16(offset: number): number {
    return this.view.getInt16(offset, true)
  }

  u32(offset: number): number {
    return this.view.getUint32(offset, true)
  }

  u64(offset: number): bigint {
    return this.view.getBigUint64(offset, true)
  }

  i64(offset: number): bigint {
    return this.view.getBigInt64(offset, true)
  }

  f64(offset: number): number {
    return this.view.getFloat64(offset, true)
  }

  /** A pod `bool` (spl-pod `PodBool`): any non-zero byte is true. */
  podBool(offset: number): boolean {
    return this.u8(offset) !== 0
  }

  /** A 32-byte public key as base58. */
  pubkey(offset: number): string {
    return addressDecoder.decode(this.slice(offset, 32))
  }

  /** An `OptionalNonZeroPubkey` / `MaybeNull<Address>`: all zero bytes mean None, printed as null. */
  optionalPubkey(offset: number): string | null {
    const key = this.slice(offset, 32)
    return key.every((b) => b === 0) ? null : addressDecoder.decode(key)
  }

  /** Bytes printed the way zk-sdk pod types implement `Display`: standard base64 with padding. */
  base64(offset: number, length: number): string {
    return base64Decoder.decode(this.slice(offset, length))
  }

  /** A sub-range, checked against the end (DataView would check reads, `subarray` does not). */
  slice(offset: number, length: number): Uint8Array {
    if (offset < 0 || length < 0 || offset + length > this.bytes.length) {
      throw new RangeError(`read of ${length} bytes at ${offset} past the end (${this.bytes.length})`)
    }
    return this.bytes.subarray(offset, offset + length)
  }
}
