import { createHash } from 'node:crypto'
import {
  getConstantCodec,
  getHiddenPrefixCodec,
  type Codec,
  type Decoder,
  type FixedSizeCodec,
  type ReadonlyUint8Array,
} from '@solana/kit'

/** Anchor prefixes every `#[account]` with this many bytes of `sha256("account:<Name>")`. */
export const ANCHOR_DISCRIMINATOR_SIZE = 8

/**
 * The Anchor account discriminator of `accountName`: the first 8 bytes of `sha256("account:<Name>")`.
 * Layout modules hard-code theirs (a constant cannot drift); tests recompute them with this, and the
 * data layer can use it to build `memcmp` filters.
 */
export function anchorAccountDiscriminator(accountName: string): Uint8Array {
  const digest = createHash('sha256').update(`account:${accountName}`).digest()
  return new Uint8Array(digest.subarray(0, ANCHOR_DISCRIMINATOR_SIZE))
}

/**
 * Wraps the codec of an account body so that it writes `discriminator` first and, when decoding,
 * refuses (throws) any bytes that do not start with it. The discriminator is not part of the value.
 */
export function withAnchorDiscriminator<T>(
  discriminator: ReadonlyUint8Array,
  body: FixedSizeCodec<T>,
): FixedSizeCodec<T>
export function withAnchorDiscriminator<T>(discriminator: ReadonlyUint8Array, body: Codec<T>): Codec<T>
export function withAnchorDiscriminator<T>(discriminator: ReadonlyUint8Array, body: Codec<T>): Codec<T> {
  return getHiddenPrefixCodec(body, [getConstantCodec(discriminator)])
}

/** Whether `data` begins with `prefix`. */
export function startsWith(data: ReadonlyUint8Array, prefix: ReadonlyUint8Array): boolean {
  if (data.length < prefix.length) return false
  for (let i = 0; i < prefix.length; i++) if (data[i] !== prefix[i]) return false
  return true
}

/**
 * `data` extended with zero bytes to `size` (or `data` itself when already that long). Programs that
 * append fields to an account and grow it with `realloc` read a shorter, older account as if the
 * missing tail were zero (`0`, `false`, the all-zero key); padding reproduces that reading, and pads
 * an encoded value out to the size the program allocates.
 */
export function zeroPadded(data: ReadonlyUint8Array, size: number): Uint8Array {
  const out = new Uint8Array(Math.max(size, data.length))
  out.set(data)
  return out
}

/**
 * A codec (or anything costly to build and never changed) built on first use and kept: building a
 * struct codec costs as much as decoding with it, and the layouts decode on every scan.
 */
export function once<T>(build: () => T): () => T {
  let built: T | undefined
  return () => {
    built ??= build()
    return built
  }
}

/**
 * Runs `decoder` on `data` and returns `undefined` instead of throwing: account bytes come from the
 * network, and a malformed account is a fact to report, not a crash.
 */
export function decodeOrUndefined<T>(decoder: Decoder<T>, data: ReadonlyUint8Array): T | undefined {
  try {
    return decoder.decode(data)
  } catch {
    return undefined
  }
}
