import {
  getBase58Decoder,
  getBase64Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type EncodedAccount,
  type ReadonlyUint8Array,
} from '@solana/kit'
import type { StoredTransaction } from '../chain/chain.ts'
import { RPC_ERRORS, RpcError } from './rpc-error.ts'

const base58 = getBase58Decoder()
const base64 = getBase64Decoder()
const transactionDecoder = getTransactionDecoder()
const messageDecoder = getCompiledTransactionMessageDecoder()

/** rent_epoch of every rent-exempt account since rent collection ended (u64::MAX). */
const RENT_EXEMPT_EPOCH = 18_446_744_073_709_551_615n
/** The real RPC refuses base58 for account data longer than this. */
const MAX_BASE58_BYTES = 128

export const ACCOUNT_ENCODINGS = ['binary', 'base58', 'base64', 'base64+zstd', 'jsonParsed'] as const
export type AccountEncoding = (typeof ACCOUNT_ENCODINGS)[number]

/** Turns account data into the `jsonParsed` value for programs the sandbox can parse, else undefined. */
export type AccountParser = (owner: string, data: ReadonlyUint8Array) => unknown

/** An account as the RPC's `UiAccount`. */
export function encodeAccount(
  account: EncodedAccount,
  encoding: AccountEncoding,
  dataSlice: { offset: number; length: number } | undefined,
  parse: AccountParser,
) {
  return {
    data: encodeData(account, encoding, dataSlice, parse),
    executable: account.executable,
    lamports: account.lamports,
    owner: account.programAddress,
    rentEpoch: RENT_EXEMPT_EPOCH,
    space: BigInt(account.data.length),
  }
}

function encodeData(
  account: EncodedAccount,
  encoding: AccountEncoding,
  dataSlice: { offset: number; length: number } | undefined,
  parse: AccountParser,
): unknown {
  if (encoding === 'jsonParsed' && !dataSlice) {
    const parsed = parse(account.programAddress, account.data)
    if (parsed !== undefined) return parsed
  }
  const data = dataSlice ? account.data.slice(dataSlice.offset, dataSlice.offset + dataSlice.length) : account.data
  switch (encoding) {
    case 'binary':
    case 'base58':
      if (data.length > MAX_BASE58_BYTES)
        throw new RpcError(
          RPC_ERRORS.INVALID_REQUEST,
          `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`,
        )
      return encoding === 'binary' ? base58.decode(data) : [base58.decode(data), 'base58']
    case 'base64+zstd':
      return [base64.decode(Bun.zstdCompressSync(data as Uint8Array)), 'base64+zstd']
    default:
      return [base64.decode(data), 'base64']
  }
}

export const TRANSACTION_ENCODINGS = ['json', 'base58', 'base64', 'jsonParsed'] as const
export type TransactionEncoding = (typeof TRANSACTION_ENCODINGS)[number]

/** A stored transaction as `getTransaction` answers it. */
export function encodeTransaction(stored: StoredTransaction, encoding: TransactionEncoding) {
  return {
    slot: stored.slot,
    blockTime: BigInt(stored.blockTime),
    version: stored.version,
    transaction: encodeTransactionBody(stored, encoding),
    meta: encodeMeta(stored),
  }
}

function encodeTransactionBody(stored: StoredTransaction, encoding: TransactionEncoding): unknown {
  if (encoding === 'base64') return [base64.decode(stored.wire), 'base64']
  if (encoding === 'base58') return [base58.decode(stored.wire), 'base58']
  const transaction = transactionDecoder.decode(stored.wire)
  const message = messageDecoder.decode(transaction.messageBytes)
  const signatures = Object.values(transaction.signatures).map((bytes) =>
    bytes ? base58.decode(bytes) : base58.decode(new Uint8Array(64)),
  )
  const instructions = ('instructions' in message ? message.instructions : []).map((instruction) => ({
    programIdIndex: instruction.programAddressIndex,
    accounts: [...(instruction.accountIndices ?? [])],
    data: base58.decode(instruction.data ?? new Uint8Array()),
    stackHeight: null,
  }))
  const lookups = 'addressTableLookups' in message ? (message.addressTableLookups ?? []) : []
  return {
    signatures,
    message: {
      accountKeys: message.staticAccounts,
      header: {
        numRequiredSignatures: message.header.numSignerAccounts,
        numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
        numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
      },
      recentBlockhash: message.lifetimeToken,
      instructions,
      ...(message.version === 'legacy'
        ? {}
        : {
            addressTableLookups: lookups.map((lookup) => ({
              accountKey: lookup.lookupTableAddress,
              writableIndexes: [...lookup.writableIndexes],
              readonlyIndexes: [...lookup.readonlyIndexes],
            })),
          }),
    },
  }
}

function encodeMeta(stored: StoredTransaction) {
  const { meta } = stored
  return {
    err: meta.err,
    status: meta.err === null ? { Ok: null } : { Err: meta.err },
    fee: meta.fee,
    preBalances: meta.preBalances,
    postBalances: meta.postBalances,
    innerInstructions: meta.innerInstructions.map((entry) => ({
      index: entry.index,
      instructions: entry.instructions.map((inner) => ({
        programIdIndex: inner.programIdIndex,
        accounts: inner.accounts,
        data: base58.decode(inner.data),
        stackHeight: inner.stackHeight,
      })),
    })),
    logMessages: meta.logMessages,
    preTokenBalances: meta.preTokenBalances,
    postTokenBalances: meta.postTokenBalances,
    rewards: [],
    loadedAddresses: meta.loadedAddresses,
    computeUnitsConsumed: meta.computeUnitsConsumed,
  }
}
