import {
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  type KeyPairSigner,
  partiallySignTransaction,
} from '@solana/kit'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

/** Signs a base64 transaction the service built, locally with `signer`'s key, as the caller's wallet does. */
export async function signLocally(unsigned: string, signer: KeyPairSigner): Promise<string> {
  const transaction = getTransactionDecoder().decode(Buffer.from(unsigned, 'base64'))
  return getBase64EncodedWireTransaction(await partiallySignTransaction([signer.keyPair], transaction))
}

/**
 * Balances read from the chain at `rpcUrl` over plain JSON-RPC (not the service's client: what a test
 * checks the service against): a token held in every account of it, and lamports.
 */
export function chainBalances(rpcUrl: string) {
  async function rpc(method: string, params: unknown[]): Promise<Json> {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    return ((await response.json()) as { result: Json }).result
  }
  return {
    /** What `owner` holds of `mint`, every account of it. */
    async tokensOf(owner: string, mint: string): Promise<bigint> {
      const { value } = await rpc('getTokenAccountsByOwner', [owner, { mint }, { encoding: 'jsonParsed' }])
      return value.reduce(
        (sum: bigint, entry: Json) => sum + BigInt(entry.account.data.parsed.info.tokenAmount.amount),
        0n,
      )
    },
    /** `owner`'s SOL, in lamports. */
    lamportsOf: async (owner: string) => BigInt((await rpc('getBalance', [owner])).value),
  }
}
