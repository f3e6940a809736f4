import type { Address, Signature } from '@solana/kit'
import type { TokenContext } from './token-context.ts'

/** The most signatures one getSignaturesForAddress page returns. */
export const SIGNATURES_PAGE = 1000
/** Pages walked back to reach an address's first transaction; beyond that its start is unknown. */
export const MAX_HISTORY_PAGES = 2

export interface SignatureEntry {
  signature: string
  slot: bigint
  blockTime: number | null
  failed: boolean
}

/** Newest-first signatures of `address` (one page of up to `limit`). */
export async function signatures(
  facts: TokenContext,
  address: string,
  limit = SIGNATURES_PAGE,
  before?: string,
): Promise<SignatureEntry[]> {
  const page = await facts.rpc
    .getSignaturesForAddress(address as Address, { limit, ...(before ? { before: before as Signature } : {}) })
    .send()
  return page.map((entry) => ({
    signature: entry.signature,
    slot: entry.slot,
    blockTime: entry.blockTime === null ? null : Number(entry.blockTime),
    failed: entry.err !== null,
  }))
}

/**
 * The oldest signatures of `address` (oldest first, up to `count`), walking back at most
 * MAX_HISTORY_PAGES pages; undefined when its history is longer than that (the start is unknown).
 */
export async function oldestSignatures(
  facts: TokenContext,
  address: string,
  count: number,
): Promise<SignatureEntry[] | undefined> {
  let before: string | undefined
  let collected: SignatureEntry[] = []
  for (let page = 0; page < MAX_HISTORY_PAGES; page++) {
    const entries = await signatures(facts, address, SIGNATURES_PAGE, before)
    collected = collected.concat(entries)
    if (entries.length < SIGNATURES_PAGE) return collected.reverse().slice(0, count)
    before = entries.at(-1)!.signature
  }
  return undefined
}

/** A transaction reduced to what the facts read: who paid, and how SOL and token balances moved. */
export interface ParsedTransaction {
  signature: string
  slot: bigint
  blockTime: number | null
  failed: boolean
  feePayer: string
  accountKeys: string[]
  /** Lamport change per account key (post − pre). */
  solDeltas: Map<string, bigint>
  /** Token balance changes: per token account, its owner and mint. */
  tokenDeltas: { account: string; owner: string | null; mint: string; delta: bigint }[]
  /** Top-level instructions: program and data (first byte), accounts by key. */
  instructions: { program: string; accounts: string[]; data: string }[]
}

/** Fetches transactions (json, v0 allowed); ones the RPC does not return are left out. */
export async function transactions(facts: TokenContext, list: readonly string[]): Promise<ParsedTransaction[]> {
  const fetched = await Promise.all(
    list.map((signature) =>
      facts.rpc.getTransaction(signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send(),
    ),
  )
  return fetched.flatMap((transaction, index) =>
    transaction ? [parseTransaction(list[index]!, transaction as unknown as RpcTransaction)] : [],
  )
}

interface RpcTokenBalance {
  accountIndex: number
  mint: string
  owner?: string
  uiTokenAmount: { amount: string }
}

export interface RpcTransaction {
  slot: bigint
  blockTime: bigint | null
  transaction: {
    message: {
      accountKeys: string[]
      instructions: { programIdIndex: number; accounts: number[]; data: string }[]
    }
  }
  meta: {
    err: unknown
    preBalances: bigint[]
    postBalances: bigint[]
    preTokenBalances?: RpcTokenBalance[]
    postTokenBalances?: RpcTokenBalance[]
    loadedAddresses?: { writable: string[]; readonly: string[] }
  } | null
}

/** A `getTransaction` (json) answer reduced to what the facts read; v0 loaded addresses follow the static keys. */
export function parseTransaction(signature: string, raw: RpcTransaction): ParsedTransaction {
  const meta = raw.meta
  const loaded = meta?.loadedAddresses
  const keys = [...raw.transaction.message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])]
  const solDeltas = new Map<string, bigint>()
  keys.forEach((key, index) => {
    const delta = (meta?.postBalances[index] ?? 0n) - (meta?.preBalances[index] ?? 0n)
    if (delta !== 0n) solDeltas.set(key, (solDeltas.get(key) ?? 0n) + BigInt(delta))
  })
  const byIndex = new Map<number, { mint: string; owner: string | null; pre: bigint; post: bigint }>()
  for (const [list, side] of [
    [meta?.preTokenBalances ?? [], 'pre'],
    [meta?.postTokenBalances ?? [], 'post'],
  ] as const)
    for (const balance of list) {
      const entry = byIndex.get(balance.accountIndex) ?? {
        mint: balance.mint,
        owner: balance.owner ?? null,
        pre: 0n,
        post: 0n,
      }
      entry[side] = BigInt(balance.uiTokenAmount.amount)
      byIndex.set(balance.accountIndex, entry)
    }
  const tokenDeltas = [...byIndex].flatMap(([index, entry]) =>
    entry.post === entry.pre
      ? []
      : [{ account: keys[index]!, owner: entry.owner, mint: entry.mint, delta: entry.post - entry.pre }],
  )
  return {
    signature,
    slot: BigInt(raw.slot),
    blockTime: raw.blockTime === null ? null : Number(raw.blockTime),
    failed: meta?.err !== null && meta?.err !== undefined,
    feePayer: keys[0]!,
    accountKeys: keys,
    solDeltas,
    tokenDeltas,
    instructions: raw.transaction.message.instructions.map((instruction) => ({
      program: keys[instruction.programIdIndex]!,
      accounts: instruction.accounts.map((index) => keys[index]!),
      data: instruction.data,
    })),
  }
}
