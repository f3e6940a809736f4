import type { Address, Base64EncodedDataResponse } from '@solana/kit'
import { findMetadataAddress } from '../onchain/metaplex-metadata.ts'
import { findBondingCurveAddress } from '../onchain/pump.ts'
import { findCanonicalPumpPoolAddress } from '../onchain/pump-amm.ts'
import { encodeBase58 } from '../onchain/base58.ts'
import type { TokenContext } from './token-context.ts'

/** An account as read (base64), or null when nothing lives at the address. */
export interface RawAccount {
  address: string
  owner: string
  lamports: bigint
  data: Uint8Array
}

/**
 * Reads accounts with getMultipleAccounts (base64), keeping the order; null where none exists. An
 * account is decoded from base64 once per answer: the RPC source hands a cached answer out again as
 * the same (frozen) objects, so a warm scan gets the RawAccount made the first time — never to be
 * changed, as other scans read it too.
 */
export async function readAccounts(facts: TokenContext, addresses: readonly string[]): Promise<(RawAccount | null)[]> {
  if (addresses.length === 0) return []
  const { value } = await facts.rpc.getMultipleAccounts(addresses as Address[], { encoding: 'base64' }).send()
  return value.map((account, index) => {
    if (!account) return null
    let raw = RAW_ACCOUNTS.get(account)
    if (!raw) {
      raw = Object.freeze({
        address: addresses[index]!,
        owner: account.owner,
        lamports: account.lamports,
        data: new Uint8Array(Buffer.from((account.data as Base64EncodedDataResponse)[0], 'base64')),
      })
      RAW_ACCOUNTS.set(account, raw)
    }
    return raw
  })
}

const RAW_ACCOUNTS = new WeakMap<object, RawAccount>()

/**
 * `read` of an account, computed once per account as answered (a decoded layout, an owner's address):
 * what a warm scan would otherwise decode again from the same cached answer. Its value is shared by
 * every scan reading that answer: never to be changed.
 */
export function perAccount<T>(read: (account: RawAccount) => T): (account: RawAccount) => T {
  const done = new WeakMap<RawAccount, { value: T }>()
  return (account) => {
    let entry = done.get(account)
    if (!entry) {
      entry = { value: read(account) }
      done.set(account, entry)
    }
    return entry.value
  }
}

/** Where a token account names its owner (after its mint): spl-token's `Account` layout. */
const TOKEN_ACCOUNT_OWNER_OFFSET = 32

/** The wallet (or program) a token account belongs to, as an address (a token account's data only). */
export const tokenAccountOwner = perAccount((account) =>
  encodeBase58(account.data.subarray(TOKEN_ACCOUNT_OWNER_OFFSET, TOKEN_ACCOUNT_OWNER_OFFSET + 32)),
)

/**
 * The accounts derivable from the mint alone (its Metaplex metadata PDA, pump.fun bonding curve and
 * canonical PumpSwap pool), read in one call in the first round trip of every scan.
 */
export function mintDerivedAccounts(facts: TokenContext) {
  return facts.shared('mint-derived-accounts', async () => {
    const mint = facts.mint as Address
    const [[metadata], [bondingCurve], [pumpSwapPool]] = await Promise.all([
      findMetadataAddress(mint),
      findBondingCurveAddress(mint),
      findCanonicalPumpPoolAddress(mint),
    ])
    const [metadataAccount, curveAccount, poolAccount] = await readAccounts(facts, [
      metadata,
      bondingCurve,
      pumpSwapPool,
    ])
    return {
      metadata: metadataAccount ?? null,
      bondingCurve: curveAccount ?? null,
      pumpSwapPool: poolAccount ?? null,
      addresses: { metadata, bondingCurve, pumpSwapPool },
    }
  })
}
