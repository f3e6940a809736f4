import type { Address, Base64EncodedDataResponse } from '@solana/kit'
import { findMetadataAddress } from '../onchain/metaplex-metadata.ts'
import { findBondingCurveAddress } from '../onchain/pump.ts'
import { findCanonicalPumpPoolAddress } from '../onchain/pump-amm.ts'
import type { TokenContext } from './token-context.ts'

/** An account as read (base64), or null when nothing lives at the address. */
export interface RawAccount {
  address: string
  owner: string
  lamports: bigint
  data: Uint8Array
}

/** Reads accounts with getMultipleAccounts (base64), keeping the order; null where none exists. */
export async function readAccounts(facts: TokenContext, addresses: readonly string[]): Promise<(RawAccount | null)[]> {
  if (addresses.length === 0) return []
  const { value } = await facts.rpc.getMultipleAccounts(addresses as Address[], { encoding: 'base64' }).send()
  return value.map((account, index) =>
    account
      ? {
          address: addresses[index]!,
          owner: account.owner,
          lamports: account.lamports,
          data: new Uint8Array(Buffer.from((account.data as Base64EncodedDataResponse)[0], 'base64')),
        }
      : null,
  )
}

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
