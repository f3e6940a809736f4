import type { EncodedAccount, ReadonlyUint8Array } from '@solana/kit'
import { base58Encode } from './base58.ts'
import { tokenAmountToUiAmount } from '../token/ui-amount.ts'

import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '../../src/onchain/programs.ts'

/** The token programs' ids as plain strings (src/onchain/programs.ts). */
export const TOKEN_PROGRAM: string = TOKEN_PROGRAM_ADDRESS
export const TOKEN_2022_PROGRAM: string = TOKEN_2022_PROGRAM_ADDRESS

/** Base sizes of SPL token state; Token-2022 extends them with an account-type byte and TLV extensions. */
export const MINT_SIZE = 82
export const TOKEN_ACCOUNT_SIZE = 165
const ACCOUNT_TYPE_OFFSET = 165
const ACCOUNT_TYPE_MINT = 1
const ACCOUNT_TYPE_ACCOUNT = 2

/** `uiTokenAmount` as the RPC prints it: `1234500` with 6 decimals → `{ uiAmount: 1.2345, uiAmountString: "1.2345" }`. */
export function uiTokenAmount(amount: bigint, decimals: number) {
  return tokenAmountToUiAmount(amount, { decimals })
}

export function isTokenProgram(owner: string): boolean {
  return owner === TOKEN_PROGRAM || owner === TOKEN_2022_PROGRAM
}

/** True when `data` owned by a token program is a token account (not a mint or multisig). */
export function isTokenAccountData(owner: string, data: ReadonlyUint8Array): boolean {
  if (owner === TOKEN_PROGRAM) return data.length === TOKEN_ACCOUNT_SIZE
  if (owner === TOKEN_2022_PROGRAM)
    return (
      data.length === TOKEN_ACCOUNT_SIZE ||
      (data.length > TOKEN_ACCOUNT_SIZE && data[ACCOUNT_TYPE_OFFSET] === ACCOUNT_TYPE_ACCOUNT)
    )
  return false
}

/** True when `data` owned by a token program is a mint. */
export function isMintData(owner: string, data: ReadonlyUint8Array): boolean {
  if (owner === TOKEN_PROGRAM) return data.length === MINT_SIZE
  if (owner === TOKEN_2022_PROGRAM)
    return (
      data.length === MINT_SIZE || (data.length > TOKEN_ACCOUNT_SIZE && data[ACCOUNT_TYPE_OFFSET] === ACCOUNT_TYPE_MINT)
    )
  return false
}

/** The fields of a token account every reader needs (mint, owner, amount), read from its fixed base layout. */
export function readTokenAccount(data: ReadonlyUint8Array): {
  mint: string
  owner: string
  amount: bigint
  state: number
} {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  return {
    mint: base58Encode(data.subarray(0, 32)),
    owner: base58Encode(data.subarray(32, 64)),
    amount: view.getBigUint64(64, true),
    state: data[108]!,
  }
}

/** A mint's supply and decimals from its fixed base layout. */
export function readMint(data: ReadonlyUint8Array): { supply: bigint; decimals: number } {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  return { supply: view.getBigUint64(36, true), decimals: data[44]! }
}

export interface TokenBalance {
  accountIndex: number
  mint: string
  owner: string
  programId: string
  uiTokenAmount: ReturnType<typeof uiTokenAmount>
}

/** The `preTokenBalances`/`postTokenBalances` entries for the token accounts among `keys`. */
export function tokenBalances(
  keys: readonly string[],
  getAccount: (address: string) => EncodedAccount | undefined,
): TokenBalance[] {
  const balances: TokenBalance[] = []
  keys.forEach((key, accountIndex) => {
    const account = getAccount(key)
    if (!account || !isTokenAccountData(account.programAddress, account.data)) return
    const { mint, owner, amount } = readTokenAccount(account.data)
    const mintAccount = getAccount(mint)
    if (!mintAccount || !isMintData(mintAccount.programAddress, mintAccount.data)) return
    const { decimals } = readMint(mintAccount.data)
    balances.push({
      accountIndex,
      mint,
      owner,
      programId: account.programAddress,
      uiTokenAmount: uiTokenAmount(amount, decimals),
    })
  })
  return balances
}
