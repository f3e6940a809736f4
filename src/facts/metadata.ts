import { decodeMetadata } from '../onchain/metaplex-metadata.ts'
import { TOKEN_METADATA_PROGRAM_ADDRESS } from '../onchain/programs.ts'
import type { TokenContext } from './token-context.ts'
import { mintDerivedAccounts, perAccount } from './onchain-accounts.ts'
import type { MetadataFact } from './types.ts'

/** The Metaplex metadata of an account, decoded once per answer. */
const metadataOf = perAccount((account) => decodeMetadata(account.data))

/**
 * Name, symbol, URI, update authority and mutability: the Metaplex metadata PDA when it exists,
 * else the Token-2022 metadata extension (which stays mutable while it has an update authority); the
 * logo from the token list or the market data. Off-chain URIs are never fetched.
 */
export async function loadMetadata(facts: TokenContext): Promise<MetadataFact> {
  const [accounts, mint, list, market] = await Promise.all([
    mintDerivedAccounts(facts),
    facts.fact('mint'),
    facts.fact('token_list'),
    facts.fact('market'),
  ])
  const pairLogo = market?.pairs.find((pair) => pair.baseToken.address === facts.mint && pair.info?.imageUrl)?.info
    ?.imageUrl
  const logoUri = list?.logoUri ?? pairLogo ?? null
  const account = accounts.metadata
  if (account && account.owner === TOKEN_METADATA_PROGRAM_ADDRESS) {
    const metadata = metadataOf(account)
    if (metadata)
      return {
        source: 'metaplex',
        name: metadata.data.name,
        symbol: metadata.data.symbol,
        uri: metadata.data.uri,
        updateAuthority: metadata.updateAuthority,
        isMutable: metadata.isMutable,
        logoUri,
      }
  }
  const extension = mint?.extensions.tokenMetadata
  if (extension)
    return {
      source: 'token-2022',
      name: extension.name,
      symbol: extension.symbol,
      uri: extension.uri,
      updateAuthority: extension.updateAuthority,
      isMutable: extension.updateAuthority !== null,
      logoUri,
    }
  return { source: 'none', name: null, symbol: null, uri: null, updateAuthority: null, isMutable: null, logoUri }
}
