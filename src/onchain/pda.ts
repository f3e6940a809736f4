import { getAddressEncoder, getProgramDerivedAddress, type Address, type ProgramDerivedAddress } from '@solana/kit'
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from './programs.ts'

/** A seed: UTF-8 text, bytes, or an address (its 32 bytes, decoded only when the derivation is not known yet). */
export type PdaSeed = string | Uint8Array | { readonly address: Address }

/** An address as a seed. */
export const addressSeed = (address: Address): PdaSeed => ({ address })

/** Derivations kept: plenty for the accounts a busy instance reads, bounded (cleared when full). */
const MAX_KEPT = 50_000
const kept = new Map<string, Promise<ProgramDerivedAddress>>()

const seedKey = (seed: PdaSeed) =>
  typeof seed === 'string'
    ? `s${seed}`
    : seed instanceof Uint8Array
      ? `b${Buffer.from(seed.buffer, seed.byteOffset, seed.byteLength).toString('hex')}`
      : `a${seed.address}`

/**
 * The program-derived address of `seeds` under `programAddress`, as `getProgramDerivedAddress` finds it,
 * kept for the next ask. A derivation hashes and tries bumps until the point is off the curve, and an
 * address seed is base58-decoded first: measured under warm quick scans, deriving the same accounts
 * again took a third of the CPU (docs/benchmarks.md, "Warm quick scans"). The answer depends on its
 * inputs alone, so keeping it changes nothing but the time.
 */
export function derivePda(programAddress: Address, seeds: readonly PdaSeed[]): Promise<ProgramDerivedAddress> {
  const key = `${programAddress}|${seeds.map(seedKey).join('|')}`
  let found = kept.get(key)
  if (!found) {
    if (kept.size >= MAX_KEPT) kept.clear()
    const encoder = getAddressEncoder()
    found = getProgramDerivedAddress({
      programAddress,
      seeds: seeds.map((seed) =>
        typeof seed === 'string' || seed instanceof Uint8Array ? seed : encoder.encode(seed.address),
      ),
    })
    kept.set(key, found)
    found.catch(() => kept.delete(key))
  }
  return found
}

/**
 * The associated token account of `owner` for `mint`: seeds `[owner, tokenProgram, mint]` under the
 * Associated Token program. `tokenProgram` matters: the same owner and mint give a different account
 * under Token-2022 (pump.fun `create_v2` coins are Token-2022 mints).
 */
export function findAssociatedTokenAddress(
  owner: Address,
  mint: Address,
  tokenProgram: Address = TOKEN_PROGRAM_ADDRESS,
): Promise<ProgramDerivedAddress> {
  return derivePda(ASSOCIATED_TOKEN_PROGRAM_ADDRESS, [addressSeed(owner), addressSeed(tokenProgram), addressSeed(mint)])
}
