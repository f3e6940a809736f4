import type { Address, Blockhash, EncodedAccount, ReadonlyUint8Array } from '@solana/kit'
import { Account, Clock, FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm'
import { base58Decode, base58Encode } from './base58.ts'
import { parseWire } from './wire.ts'
import { toTransactionErrorJson, type TransactionErrorJson } from './errors.ts'
import { isTokenAccountData, readTokenAccount, tokenBalances, type TokenBalance } from './token-balances.ts'

/** Slot length of mainnet-beta (the target; real slots vary around it). */
export const SLOT_MS = 400
/** A blockhash stays usable for this many blocks, as on a real cluster (MAX_PROCESSING_AGE). */
export const BLOCKHASH_VALID_BLOCKS = 150n
/** Base fee per signature on every cluster today. */
export const LAMPORTS_PER_SIGNATURE = 5_000n

const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111'
const DEFAULT_COMPUTE_UNITS_PER_INSTRUCTION = 200_000n
const MAX_COMPUTE_UNITS = 1_400_000n
const ADDRESS_LOOKUP_TABLE_META_SIZE = 56

interface NativeLiteSvm {
  getAccount(pubkey: Uint8Array): Account | null
  setAccount(pubkey: Uint8Array, account: Account): void
  getBalance(pubkey: Uint8Array): bigint | null
  sendLegacyTransaction(wire: Uint8Array): TransactionMetadata | FailedTransactionMetadata
  sendVersionedTransaction(wire: Uint8Array): TransactionMetadata | FailedTransactionMetadata
  simulateLegacyTransaction(wire: Uint8Array): { meta(): TransactionMetadata } | FailedTransactionMetadata
  simulateVersionedTransaction(wire: Uint8Array): { meta(): TransactionMetadata } | FailedTransactionMetadata
  setSigverify(on: boolean): void
}

/** A transaction's identity, keys and budget, read from its wire bytes. */
interface Decoded {
  signature: string | undefined
  version: 'legacy' | 0
  lifetimeToken: string
  blockhashOffset: number
  keys: { all: string[]; loadedWritable: string[]; loadedReadonly: string[]; signatures: bigint }
  computeBudget: { unitLimit: bigint; microLamportsPerUnit: bigint }
}

/** What the RPC's `meta` holds for a processed transaction. */
export interface TransactionMeta {
  err: TransactionErrorJson | null
  fee: bigint
  preBalances: bigint[]
  postBalances: bigint[]
  preTokenBalances: TokenBalance[]
  postTokenBalances: TokenBalance[]
  logMessages: string[]
  computeUnitsConsumed: bigint
  loadedAddresses: { writable: string[]; readonly: string[] }
  /** Cross-program invocations, per top-level instruction index. */
  innerInstructions: InnerInstructions[]
}

export interface InnerInstructions {
  index: number
  instructions: { programIdIndex: number; accounts: number[]; data: Uint8Array; stackHeight: number }[]
}

/** A transaction the chain processed, kept for getTransaction, getSignatureStatuses and history. */
export interface StoredTransaction {
  signature: string
  slot: bigint
  blockTime: number
  /** The transaction exactly as sent (signatures + message). */
  wire: Uint8Array
  version: 'legacy' | 0 | 1
  /** Static keys followed by the keys loaded from lookup tables (writable, then read-only). */
  accountKeys: string[]
  meta: TransactionMeta
}

export type SendOutcome =
  | { ok: true; signature: string; stored: StoredTransaction }
  | { ok: false; signature: string | undefined; err: TransactionErrorJson; logs: string[]; unitsConsumed: bigint }

export interface SimulateOptions {
  sigVerify?: boolean
  replaceRecentBlockhash?: boolean
}

export interface SimulateOutcome {
  err: TransactionErrorJson | null
  logs: string[]
  unitsConsumed: bigint
  /** The blockhash the simulation ran with, when it replaced the transaction's own. */
  replacementBlockhash?: { blockhash: string; lastValidBlockHeight: bigint }
}

export interface BlockEvent {
  slot: bigint
  parent: bigint
  blockHeight: bigint
  blockhash: string
}

export interface ChainOptions {
  /** Unix time (s) of the first block; scenarios replay history forward from there. */
  genesisUnixS: number
}

/**
 * A Solana chain on LiteSVM that behaves like a cluster to a client: a clock that moves forward,
 * slots and block heights, a block after each accepted transaction, recent blockhashes valid for
 * BLOCKHASH_VALID_BLOCKS blocks (LiteSVM alone accepts only its newest), and the history LiteSVM does
 * not keep (stored transactions with their meta, signatures per address).
 */
export class Chain {
  readonly svm: LiteSVM
  #unixS: number
  readonly #genesisUnixS: number
  #slot = 0n
  #blockHeight = 0n
  #blockhash: string
  readonly #blockhashHeights = new Map<string, bigint>()
  readonly #transactions = new Map<string, StoredTransaction>()
  readonly #signaturesByAddress = new Map<string, string[]>()
  readonly #blockListeners = new Set<(block: BlockEvent) => void>()
  readonly #transactionListeners = new Set<(stored: StoredTransaction) => void>()
  readonly #accountSetListeners = new Set<(key: string) => void>()
  /** Token accounts by mint and by owner, kept current on every write (the RPC's token queries read them). */
  readonly #tokenAccounts = new Map<string, { mint: string; owner: string }>()
  readonly #tokenAccountsByMint = new Map<string, Set<string>>()
  readonly #tokenAccountsByOwner = new Map<string, Set<string>>()
  #ticker: ReturnType<typeof setInterval> | undefined
  /** While positive, committed transactions share the current slot (see sameBlock). */
  #heldBlocks = 0

  constructor(options: ChainOptions) {
    // Our own window of recent blockhashes replaces LiteSVM's single-blockhash check.
    this.svm = new LiteSVM().withBlockhashCheck(false).withNativeMints()
    this.#unixS = options.genesisUnixS
    this.#genesisUnixS = options.genesisUnixS
    this.#blockhash = this.svm.latestBlockhash()
    this.#blockhashHeights.set(this.#blockhash, 0n)
    this.#writeClock()
  }

  get slot(): bigint {
    return this.#slot
  }

  get blockHeight(): bigint {
    return this.#blockHeight
  }

  /** The chain's current time, Unix seconds. */
  get unixS(): number {
    return this.#unixS
  }

  latestBlockhash(): { blockhash: Blockhash; lastValidBlockHeight: bigint } {
    return { blockhash: this.#blockhash as Blockhash, lastValidBlockHeight: this.#blockHeight + BLOCKHASH_VALID_BLOCKS }
  }

  isBlockhashValid(blockhash: string): boolean {
    const height = this.#blockhashHeights.get(blockhash)
    return height !== undefined && this.#blockHeight - height <= BLOCKHASH_VALID_BLOCKS
  }

  /**
   * Moves the clock to `unixS` (never backwards). The slot follows the time since genesis (one per
   * SLOT_MS); when it moves, a block is produced (new blockhash), as if the slots between were skipped.
   * Slots already taken by blocks produced faster than real time are not given back.
   */
  advanceTo(unixS: number): BlockEvent | undefined {
    if (unixS <= this.#unixS) return undefined
    this.#unixS = unixS
    const timeSlot = BigInt(Math.floor(((unixS - this.#genesisUnixS) * 1000) / SLOT_MS))
    if (timeSlot <= this.#slot) {
      this.#writeClock()
      return undefined
    }
    return this.#nextBlock(timeSlot)
  }

  /** Produces a block now: the slot moves on by one (and with it the blockhash and block height). */
  produceBlock(): BlockEvent {
    return this.#nextBlock(this.#slot + 1n)
  }

  #nextBlock(slot: bigint): BlockEvent {
    const parent = this.#slot
    this.#slot = slot
    this.#blockHeight += 1n
    this.svm.expireBlockhash()
    this.#blockhash = this.svm.latestBlockhash()
    this.#blockhashHeights.set(this.#blockhash, this.#blockHeight)
    this.#forgetOldBlockhashes()
    this.#writeClock()
    const block = { slot: this.#slot, parent, blockHeight: this.#blockHeight, blockhash: this.#blockhash }
    for (const listener of this.#blockListeners) listener(block)
    return block
  }

  /**
   * Runs `build` with block production held, so every transaction it commits lands in one slot (as a
   * bundle does on mainnet), then produces that block.
   */
  async sameBlock<T>(build: () => Promise<T>): Promise<T> {
    this.#heldBlocks++
    try {
      return await build()
    } finally {
      if (--this.#heldBlocks === 0) this.produceBlock()
    }
  }

  /** Follows wall time from now on: a block every SLOT_MS, as a live cluster. */
  followWallClock(): void {
    if (this.#ticker) return
    this.advanceTo(Date.now() / 1000)
    this.#ticker = setInterval(() => this.advanceTo(Date.now() / 1000), SLOT_MS)
  }

  stop(): void {
    if (this.#ticker) clearInterval(this.#ticker)
    this.#ticker = undefined
  }

  onBlock(listener: (block: BlockEvent) => void): () => void {
    this.#blockListeners.add(listener)
    return () => this.#blockListeners.delete(listener)
  }

  /**
   * Adds log lines to a processed transaction (the world writes the events of the programs its venues
   * stand in for); listeners registered after the one calling this see them.
   */
  appendLogs(signature: string, lines: readonly string[]): void {
    this.#transactions.get(signature)?.meta.logMessages.push(...lines)
  }

  onTransaction(listener: (stored: StoredTransaction) => void): () => void {
    this.#transactionListeners.add(listener)
    return () => this.#transactionListeners.delete(listener)
  }

  /**
   * Accounts written directly (setAccount: state of a program that cannot run offline), which no
   * transaction listener hears of: the RPC's account subscriptions do.
   */
  onAccountSet(listener: (key: string) => void): () => void {
    this.#accountSetListeners.add(listener)
    return () => this.#accountSetListeners.delete(listener)
  }

  getAccount(key: string): EncodedAccount | undefined {
    const account = this.#native.getAccount(base58Decode(key))
    if (account === null) return undefined
    const data = account.data()
    return {
      address: key as Address,
      executable: account.executable(),
      lamports: account.lamports() as EncodedAccount['lamports'],
      programAddress: base58Encode(account.owner()) as Address,
      space: BigInt(data.length),
      data,
    }
  }

  /** Writes an account directly: for program-owned state whose program cannot run offline. */
  setAccount(account: Omit<EncodedAccount, 'space'>): void {
    this.#native.setAccount(
      base58Decode(account.address),
      new Account(
        BigInt(account.lamports),
        Uint8Array.from(account.data),
        base58Decode(account.programAddress),
        account.executable,
        0n,
      ),
    )
    this.#indexTokenAccount(account.address)
    for (const listener of this.#accountSetListeners) listener(account.address)
  }

  /** Addresses of the token accounts (Token and Token-2022) holding `mint`. */
  tokenAccountsOfMint(mint: string): string[] {
    return [...(this.#tokenAccountsByMint.get(mint) ?? [])]
  }

  /** Addresses of the token accounts owned by `owner`. */
  tokenAccountsOfOwner(owner: string): string[] {
    return [...(this.#tokenAccountsByOwner.get(owner) ?? [])]
  }

  getBalance(key: string): bigint {
    return this.#native.getBalance(base58Decode(key)) ?? 0n
  }

  /**
   * LiteSVM's native binding, which takes and returns raw 32-byte keys. Its TypeScript wrapper converts
   * every address with @solana/kit's BigInt base58 on each call; reading through the binding with our
   * cached codec made executing a transaction about twice as fast. Pinned to litesvm 1.5.0.
   */
  get #native(): NativeLiteSvm {
    return (this.svm as unknown as { inner: NativeLiteSvm }).inner
  }

  getTransaction(signature: string): StoredTransaction | undefined {
    return this.#transactions.get(signature)
  }

  /** Signatures of transactions that touched `key`, newest first. */
  signaturesFor(key: string): readonly string[] {
    return [...(this.#signaturesByAddress.get(key) ?? [])].reverse()
  }

  /**
   * Executes a transaction and, when it is committed (succeeded, or failed after paying its fee),
   * stores it and produces a block. A transaction that cannot be committed at all (bad blockhash,
   * bad signature, unfunded fee payer, already processed) is refused with its error and no block.
   */
  send(wire: Uint8Array): SendOutcome {
    let decoded: Decoded
    try {
      decoded = this.#decode(wire)
    } catch {
      return refused(undefined, 'SanitizeFailure')
    }
    const { signature, version, keys, lifetimeToken, computeBudget } = decoded
    if (signature === undefined) return refused(undefined, 'MissingSignatureForFee')
    if (this.#transactions.has(signature)) return refused(signature, 'AlreadyProcessed')
    if (!this.isBlockhashValid(lifetimeToken)) return refused(signature, 'BlockhashNotFound')

    const before = this.#reader()
    const preBalances = keys.all.map((key) => before(key)?.lamports ?? 0n)
    const preTokenBalances = tokenBalances(keys.all, before)
    const feePayerBefore = preBalances[0] ?? 0n

    const result = this.#execute(wire, version)
    const failed = result instanceof FailedTransactionMetadata
    const metadata: TransactionMetadata = failed ? result.meta() : result
    const after = this.#reader()
    const postBalances = keys.all.map((key) => after(key)?.lamports ?? 0n)
    const err = failed ? toTransactionErrorJson(result) : null
    // LiteSVM commits a failed transaction only when it could charge the fee.
    if (failed && postBalances[0] === feePayerBefore)
      return { ok: false, signature, err: err!, logs: metadata.logs(), unitsConsumed: metadata.computeUnitsConsumed() }

    const stored: StoredTransaction = {
      signature,
      slot: this.#slot,
      blockTime: Math.floor(this.#unixS),
      wire,
      version,
      accountKeys: keys.all,
      meta: {
        err,
        fee: transactionFee(keys.signatures, computeBudget),
        preBalances,
        postBalances,
        preTokenBalances,
        postTokenBalances: tokenBalances(keys.all, after),
        logMessages: metadata.logs(),
        computeUnitsConsumed: metadata.computeUnitsConsumed(),
        loadedAddresses: { writable: keys.loadedWritable, readonly: keys.loadedReadonly },
        innerInstructions: innerInstructionsOf(metadata),
      },
    }
    this.#store(stored, after)
    if (this.#heldBlocks === 0) this.produceBlock()
    return { ok: true, signature, stored }
  }

  /** Runs a transaction without committing it. */
  simulate(wire: Uint8Array, options: SimulateOptions = {}): SimulateOutcome {
    let message = wire
    let replacementBlockhash: SimulateOutcome['replacementBlockhash']
    let decoded: Decoded
    try {
      decoded = this.#decode(wire)
    } catch {
      return { err: 'SanitizeFailure', logs: [], unitsConsumed: 0n }
    }
    if (options.replaceRecentBlockhash) {
      replacementBlockhash = this.latestBlockhash()
      message = replaceBlockhash(wire, decoded.blockhashOffset, replacementBlockhash.blockhash)
    } else if (!this.isBlockhashValid(decoded.lifetimeToken)) {
      return { err: 'BlockhashNotFound', logs: [], unitsConsumed: 0n }
    }
    const sigVerify = options.sigVerify ?? false
    this.#native.setSigverify(sigVerify)
    try {
      const result = this.#simulate(message, decoded.version)
      if (result instanceof FailedTransactionMetadata) {
        const meta = result.meta()
        return {
          err: toTransactionErrorJson(result),
          logs: meta.logs(),
          unitsConsumed: meta.computeUnitsConsumed(),
          replacementBlockhash,
        }
      }
      const meta = result.meta()
      return { err: null, logs: meta.logs(), unitsConsumed: meta.computeUnitsConsumed(), replacementBlockhash }
    } finally {
      this.#native.setSigverify(true)
    }
  }

  #indexTokenAccount(key: string, read: (key: string) => EncodedAccount | undefined = (k) => this.getAccount(k)): void {
    const previous = this.#tokenAccounts.get(key)
    const account = read(key)
    const current =
      account && isTokenAccountData(account.programAddress, account.data) ? readTokenAccount(account.data) : undefined
    if (previous && (previous.mint !== current?.mint || previous.owner !== current?.owner)) {
      this.#tokenAccountsByMint.get(previous.mint)?.delete(key)
      this.#tokenAccountsByOwner.get(previous.owner)?.delete(key)
      this.#tokenAccounts.delete(key)
    }
    if (current && (previous?.mint !== current.mint || previous?.owner !== current.owner)) {
      this.#tokenAccounts.set(key, { mint: current.mint, owner: current.owner })
      addTo(this.#tokenAccountsByMint, current.mint, key)
      addTo(this.#tokenAccountsByOwner, current.owner, key)
    }
  }

  #store(stored: StoredTransaction, read: (key: string) => EncodedAccount | undefined): void {
    for (const key of new Set(stored.accountKeys)) this.#indexTokenAccount(key, read)
    this.#transactions.set(stored.signature, stored)
    for (const key of new Set(stored.accountKeys)) {
      const list = this.#signaturesByAddress.get(key)
      if (list) list.push(stored.signature)
      else this.#signaturesByAddress.set(key, [stored.signature])
    }
    for (const listener of this.#transactionListeners) listener(stored)
  }

  #decode(wire: Uint8Array): Decoded {
    const parsed = parseWire(wire)
    const first = parsed.signatures[0]
    const signature = first?.some((byte) => byte !== 0) ? base58Encode(first) : undefined
    const loadedWritable: string[] = []
    const loadedReadonly: string[] = []
    for (const lookup of parsed.lookups) {
      const table = this.getAccount(lookup.table)
      const addresses = table ? lookupTableAddresses(table.data) : []
      for (const index of lookup.writable) if (addresses[index]) loadedWritable.push(addresses[index]!)
      for (const index of lookup.readonly) if (addresses[index]) loadedReadonly.push(addresses[index]!)
    }
    return {
      signature,
      version: parsed.version,
      lifetimeToken: parsed.blockhash,
      blockhashOffset: parsed.blockhashOffset,
      keys: {
        all: [...parsed.staticKeys, ...loadedWritable, ...loadedReadonly],
        loadedWritable,
        loadedReadonly,
        signatures: BigInt(parsed.numSigners),
      },
      computeBudget: readComputeBudget(parsed.instructions, parsed.staticKeys),
    }
  }

  /** Runs wire bytes through LiteSVM's native binding (its wrapper would decode and re-encode them). */
  #execute(wire: Uint8Array, version: StoredTransaction['version']): TransactionMetadata | FailedTransactionMetadata {
    return version === 'legacy' ? this.#native.sendLegacyTransaction(wire) : this.#native.sendVersionedTransaction(wire)
  }

  #simulate(
    wire: Uint8Array,
    version: StoredTransaction['version'],
  ): { meta(): TransactionMetadata } | FailedTransactionMetadata {
    return version === 'legacy'
      ? this.#native.simulateLegacyTransaction(wire)
      : this.#native.simulateVersionedTransaction(wire)
  }

  /** Reads accounts through a per-call cache: a transaction's snapshot reads each account once. */
  #reader(): (key: string) => EncodedAccount | undefined {
    const cache = new Map<string, EncodedAccount | undefined>()
    return (key) => {
      if (!cache.has(key)) cache.set(key, this.getAccount(key))
      return cache.get(key)
    }
  }

  #forgetOldBlockhashes(): void {
    for (const [hash, height] of this.#blockhashHeights) {
      if (this.#blockHeight - height <= BLOCKHASH_VALID_BLOCKS) break
      this.#blockhashHeights.delete(hash)
    }
  }

  #writeClock(): void {
    const unix = BigInt(Math.floor(this.#unixS))
    this.svm.setClock(new Clock(this.#slot, unix, 0n, 0n, unix))
  }
}

function innerInstructionsOf(metadata: TransactionMetadata): InnerInstructions[] {
  return metadata
    .innerInstructions()
    .map((list, index) => ({
      index,
      instructions: list.map((inner) => {
        const compiled = inner.instruction()
        return {
          programIdIndex: compiled.programIdIndex(),
          accounts: [...compiled.accounts()],
          data: compiled.data(),
          stackHeight: inner.stackHeight(),
        }
      }),
    }))
    .filter((entry) => entry.instructions.length > 0)
}

function addTo(index: Map<string, Set<string>>, key: string, value: string): void {
  const set = index.get(key)
  if (set) set.add(value)
  else index.set(key, new Set([value]))
}

function refused(signature: string | undefined, err: TransactionErrorJson): SendOutcome {
  return { ok: false, signature, err, logs: [], unitsConsumed: 0n }
}

/** Signature fees plus the priority fee (compute-unit price × limit), as the runtime charges them. */
function transactionFee(signatures: bigint, budget: { unitLimit: bigint; microLamportsPerUnit: bigint }): bigint {
  const priority = (budget.microLamportsPerUnit * budget.unitLimit + 999_999n) / 1_000_000n
  return signatures * LAMPORTS_PER_SIGNATURE + priority
}

function readComputeBudget(
  instructions: readonly { programIdIndex: number; data: Uint8Array }[],
  keys: readonly string[],
): { unitLimit: bigint; microLamportsPerUnit: bigint } {
  let unitLimit: bigint | undefined
  let microLamportsPerUnit = 0n
  let otherInstructions = 0n
  for (const instruction of instructions) {
    if (keys[instruction.programIdIndex] !== COMPUTE_BUDGET_PROGRAM) {
      otherInstructions++
      continue
    }
    const data = Uint8Array.from(instruction.data)
    const view = new DataView(data.buffer)
    if (data[0] === 2 && data.length >= 5) unitLimit = BigInt(view.getUint32(1, true))
    if (data[0] === 3 && data.length >= 9) microLamportsPerUnit = view.getBigUint64(1, true)
  }
  const limit = unitLimit ?? otherInstructions * DEFAULT_COMPUTE_UNITS_PER_INSTRUCTION
  return { unitLimit: limit > MAX_COMPUTE_UNITS ? MAX_COMPUTE_UNITS : limit, microLamportsPerUnit }
}

/** Addresses stored in an address lookup table account (after its 56-byte metadata). */
function lookupTableAddresses(data: ReadonlyUint8Array): string[] {
  const addresses: string[] = []
  for (let offset = ADDRESS_LOOKUP_TABLE_META_SIZE; offset + 32 <= data.length; offset += 32)
    addresses.push(base58Encode(data.subarray(offset, offset + 32)))
  return addresses
}

/** Byte offset of the recent blockhash inside a serialised transaction (signatures, then the message). */
function _blockhashOffset(
  wireLength: number,
  messageBytes: { length: number },
  version: unknown,
  keyCount: number,
): number {
  const messageStart = wireLength - messageBytes.length
  const versionPrefix = version === 'legacy' ? 0 : 1
  const header = 3
  return messageStart + versionPrefix + header + compactU16Size(keyCount) + keyCount * 32
}

function compactU16Size(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : 3
}

/** Returns a copy of `wire` whose message carries `blockhash` (its signatures no longer verify). */
function replaceBlockhash(wire: Uint8Array, offset: number, blockhash: string): Uint8Array {
  const copy = Uint8Array.from(wire)
  copy.set(base58Decode(blockhash), offset)
  return copy
}
