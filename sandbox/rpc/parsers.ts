import type { ReadonlyUint8Array } from '@solana/kit'
import type { Chain } from '../chain/chain.ts'
import { mintAmountInfo, parseTokenAccount } from '../token/parse.ts'
import type { AccountParser } from './encode.ts'

/**
 * The `jsonParsed` encoder: Token and Token-2022 accounts in the real RPC's shape (a token account's
 * amounts need its mint, read from the chain at the chain's clock for interest-bearing and scaled
 * mints). Other programs' accounts fall back to base64, as the real RPC does for programs it cannot parse.
 */
export function accountParser(chain: Chain): AccountParser {
  return (owner: string, data: ReadonlyUint8Array) =>
    parseTokenAccount(owner, data as Uint8Array, (mint) => {
      const account = chain.getAccount(mint)
      return account ? mintAmountInfo(account.data as Uint8Array, BigInt(Math.floor(chain.unixS))) : undefined
    })
}
