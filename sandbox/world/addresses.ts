import { findAssociatedTokenPda } from '@solana-program/token'
import type { Address } from '@solana/kit'

/**
 * An address string the sandbox produced itself (from a keypair, a PDA or the chain). kit's
 * `address()` re-validates through BigInt base58 on every call, which profiled as the largest single
 * cost of building the world; internal strings skip it.
 */
export function trusted(value: string): Address {
  return value as Address
}

const associated = new Map<string, Promise<Address>>()

/**
 * The associated token account of `owner` for `mint` under `tokenProgram`, cached: deriving it costs a
 * curve check in BigInt arithmetic, and the world asks for the same few thousand accounts over and over.
 */
export function associatedTokenAddress(mint: string, owner: string, tokenProgram: string): Promise<Address> {
  const key = `${mint}:${owner}:${tokenProgram}`
  let found = associated.get(key)
  if (!found) {
    found = findAssociatedTokenPda({
      mint: trusted(mint),
      owner: trusted(owner),
      tokenProgram: trusted(tokenProgram),
    }).then(([ata]) => ata)
    associated.set(key, found)
  }
  return found
}
