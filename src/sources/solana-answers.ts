import { type TSchema, Type } from '@sinclair/typebox'

/**
 * The boundary schemas of the Solana JSON-RPC answers the service reads: the `result` members the
 * facts and the executor use, every other member allowed. SolanaSource checks each answer's result
 * against its method's schema before any caller sees it; a result of another shape is `malformed`.
 * Each is proven against real recorded answers (test/fixtures/recorded/solana-rpc, test/recorded.test.ts),
 * and the sandbox RPC's answers pass the same schemas. Integers arrive as bigints (the answers are
 * parsed with @solana/rpc-spec-types' bigint-preserving parser) or as numbers (a recorded file).
 */
const Int = Type.Union([Type.Integer(), Type.BigInt()])
const Context = Type.Object({ slot: Int })
const Base58 = Type.String({ minLength: 32, maxLength: 88 })

/** An account as `getAccountInfo`/`getMultipleAccounts` return it: base64 data, or jsonParsed. */
const Account = Type.Object({
  lamports: Int,
  owner: Base58,
  executable: Type.Boolean(),
  data: Type.Union([
    Type.Tuple([Type.String(), Type.Literal('base64')]),
    Type.Object({ program: Type.String(), parsed: Type.Unknown() }),
  ]),
})

const TokenBalance = Type.Object({
  accountIndex: Int,
  mint: Base58,
  owner: Type.Optional(Base58),
  uiTokenAmount: Type.Object({ amount: Type.String({ pattern: '^\\d+$' }) }),
})

/** `getTransaction` with `encoding: 'json'`: a legacy or v0 transaction, its meta, its loaded addresses. */
const Transaction = Type.Object({
  slot: Int,
  blockTime: Type.Union([Int, Type.Null()]),
  transaction: Type.Object({
    message: Type.Object({
      accountKeys: Type.Array(Base58),
      instructions: Type.Array(Type.Object({ programIdIndex: Int, accounts: Type.Array(Int), data: Type.String() })),
    }),
  }),
  meta: Type.Union([
    Type.Null(),
    Type.Object({
      err: Type.Unknown(),
      preBalances: Type.Array(Int),
      postBalances: Type.Array(Int),
      preTokenBalances: Type.Optional(Type.Array(TokenBalance)),
      postTokenBalances: Type.Optional(Type.Array(TokenBalance)),
      loadedAddresses: Type.Optional(Type.Object({ writable: Type.Array(Base58), readonly: Type.Array(Base58) })),
    }),
  ]),
})

export const RPC_RESULT_SCHEMAS: Readonly<Record<string, TSchema>> = {
  getAccountInfo: Type.Object({ context: Context, value: Type.Union([Type.Null(), Account]) }),
  getMultipleAccounts: Type.Object({ context: Context, value: Type.Array(Type.Union([Type.Null(), Account])) }),
  getBalance: Type.Object({ context: Context, value: Int }),
  getTokenLargestAccounts: Type.Object({
    context: Context,
    value: Type.Array(Type.Object({ address: Base58, amount: Type.String({ pattern: '^\\d+$' }), decimals: Int })),
  }),
  getProgramAccounts: Type.Array(Type.Object({ pubkey: Base58, account: Account })),
  getSignaturesForAddress: Type.Array(
    Type.Object({
      signature: Type.String({ minLength: 64, maxLength: 88 }),
      slot: Int,
      err: Type.Unknown(),
      /** The transaction's memos, `[<bytes>] <text>` joined with `; ` (null without one). */
      memo: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      blockTime: Type.Optional(Type.Union([Int, Type.Null()])),
    }),
  ),
  getTransaction: Type.Union([Type.Null(), Transaction]),
  sendTransaction: Type.String({ minLength: 64, maxLength: 88 }),
  // The executor's reads before it sends: the chain's height, the quote's blockhash, the simulation.
  getBlockHeight: Int,
  isBlockhashValid: Type.Object({ context: Context, value: Type.Boolean() }),
  simulateTransaction: Type.Object({
    context: Context,
    value: Type.Object({
      err: Type.Unknown(),
      logs: Type.Union([Type.Array(Type.String()), Type.Null()]),
    }),
  }),
  getSignatureStatuses: Type.Object({
    context: Context,
    value: Type.Array(
      Type.Union([
        Type.Null(),
        Type.Object({
          slot: Int,
          confirmations: Type.Union([Int, Type.Null()]),
          err: Type.Unknown(),
          confirmationStatus: Type.Optional(Type.Union([Type.String(), Type.Null()])),
        }),
      ]),
    ),
  }),
}

/** A JSON-RPC error answer (a refusal such as -32010, a preflight failure): code and message. */
export const RpcErrorSchema = Type.Object({ code: Int, message: Type.String() })
