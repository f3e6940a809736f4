import { setTimeout as sleep } from 'node:timers/promises'
/**
 * Finding out, on the chain itself, whether a payment whose settlement is not known to have succeeded
 * moved the money — a facilitator that answered `settlement_pending` (it sent the transfer but could
 * not see it confirm), one that did not answer at all, a restart mid-settle — so a `pending` payment
 * becomes `settled` or `failed` without ever being sent again.
 *
 * - EVM (EIP-3009): the token's `authorizationState(from, nonce)` is true once the authorization was
 *   used. Still false after its `validBefore` → it can never be used: failed.
 * - Solana: the settlement transaction the facilitator named is asked for by its signature
 *   (`getSignatureStatuses`, history searched). Without one, or when it is unknown, the payment is
 *   looked for in the payer's history, paged back from the newest until the window before the payment
 *   could land is passed — however many unrelated transactions the wallet has — matched by the memo
 *   the payment carries, else by fetching each transaction of the window. Not found once its
 *   blockhash has expired → it can never land: failed.
 */
import { decodeTransactionFromPayload } from '@x402/svm'
import { eip3009ABI } from '@x402/evm'
import {
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  type Address,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
} from '@solana/kit'
import { bigintSafe } from '../onchain/bigint-json.ts'
import { confirmedStatus } from '../onchain/signature-status.ts'
import { MEMO_PROGRAM_ADDRESS, MEMO_V1_PROGRAM_ADDRESS } from '../onchain/programs.ts'
import { Type } from '@sinclair/typebox'
import { decodeFunctionResult, encodeFunctionData, pad, toEventSelector, type Hex } from 'viem'
import type { HttpJsonSource } from '../sources/http-json.ts'
import { CallMeter } from '../sources/upstream.ts'
import type { OfferV2 } from './challenge.ts'
import type { PaymentV1, PaymentV2 } from './payment-header.ts'

export type Evidence =
  | { chain: 'evm'; token: string; from: string; nonce: string; validBefore: number }
  | {
      chain: 'svm'
      payer: string
      signature: string
      blockhash: string
      /**
       * The text of the payment's memo instruction, when it has one (the official v2 client writes 16
       * random bytes in hex): what finds it among the payer's transactions without fetching each.
       */
      memo?: string
      /**
       * What the payment pays: `amount` (atomic units) of the mint `asset` to the wallet `payTo`. A
       * transaction is taken for the payment only if it moved that much there (records claimed before
       * these were kept are taken on the payer's signature alone).
       */
      payTo?: string
      asset?: string
      amount?: string
    }

export type Outcome =
  | { state: 'settled'; transaction: string | null; how: string }
  | { state: 'failed'; reason: string }
  | { state: 'pending'; reason: string }

/** What identifies the payment on its chain, taken from the payload when it is claimed. */
export function evidenceOf(payment: PaymentV1 | PaymentV2, offer: OfferV2): Evidence | undefined {
  const payload = payment.payload
  const authorization = payload.authorization as { from?: unknown; nonce?: unknown; validBefore?: unknown } | undefined
  if (typeof authorization?.from === 'string' && typeof authorization.nonce === 'string') {
    const validBefore = Number(authorization.validBefore)
    if (!Number.isFinite(validBefore)) return undefined
    return { chain: 'evm', token: offer.asset, from: authorization.from, nonce: authorization.nonce, validBefore }
  }
  if (typeof payload.transaction !== 'string') return undefined
  try {
    const transaction = decodeTransactionFromPayload({ transaction: payload.transaction })
    // The payer signed; the facilitator's fee-payer slot is still empty.
    const signed = Object.entries(transaction.signatures).find(([, signature]) => signature !== null)
    if (!signed) return undefined
    const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes)
    const memo = memoOf(message)
    return {
      chain: 'svm',
      payer: signed[0],
      signature: getBase58Decoder().decode(signed[1]!),
      blockhash: message.lifetimeToken,
      ...(memo === undefined ? {} : { memo }),
      payTo: offer.payTo,
      asset: offer.asset,
      amount: offer.amount,
    }
  } catch {
    return undefined
  }
}

type CompiledMessage = ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>['decode']>
const MEMO_PROGRAMS: readonly string[] = [MEMO_PROGRAM_ADDRESS, MEMO_V1_PROGRAM_ADDRESS]

/** The text of a message's single memo instruction (UTF-8), if it has exactly one. */
function memoOf(message: CompiledMessage): string | undefined {
  // Legacy and v0 messages list their instructions; the x402 clients build v0.
  if (!('instructions' in message)) return undefined
  const memos = message.instructions.filter((instruction) =>
    MEMO_PROGRAMS.includes(message.staticAccounts[instruction.programAddressIndex] ?? ''),
  )
  if (memos.length !== 1 || !memos[0]!.data) return undefined
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(memos[0]!.data))
  } catch {
    return undefined
  }
}

/**
 * Whether a `getSignaturesForAddress` entry's `memo` carries `memo`. The RPC writes each memo
 * instruction of the transaction as `[<byte length>] <text>`, joined with `; ` (agave
 * transaction-status `extract_and_fmt_memos`, read 2026-11-27).
 */
function carriesMemo(entryMemo: string | null | undefined, memo: string): boolean {
  if (!entryMemo) return false
  const written = `[${new TextEncoder().encode(memo).length}] ${memo}`
  return entryMemo.split('; ').includes(written)
}

/** Clock slack allowed between this machine and the chain's block times. */
const CLOCK_SLACK_MS = 120_000
/** `getSignaturesForAddress`'s largest page: the fewest calls for a busy wallet. */
const HISTORY_PAGE = 1_000
/**
 * How long one check may read a payer's history (pages and transactions, paced to the provider's
 * limits by the Solana source): past it the check answers pending and the next one resumes where it
 * stopped. The resolver runs every 30 s, so a flood of transactions only delays the answer.
 */
const SEARCH_BUDGET_MS = 10_000
/** Transactions of a page fetched at once when no memo narrows the window's candidates. */
const FETCH_CONCURRENCY = 8
/** A transaction signature as the RPC takes it (base58, 64 bytes). */
const SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/
/** Between two reads of a settlement's status while a call waits for it (`confirm`). */
const CONFIRM_POLL_MS = 400

const JsonRpcAnswer = Type.Object({ result: Type.Optional(Type.String()), error: Type.Optional(Type.Unknown()) })
const LogsAnswer = Type.Object({
  result: Type.Optional(Type.Array(Type.Object({ transactionHash: Type.String() }))),
  error: Type.Optional(Type.Unknown()),
})

/** EIP-3009's event for a used authorization (FiatTokenV2: `AuthorizationUsed(address indexed, bytes32 indexed)`). */
const AUTHORIZATION_USED = toEventSelector('AuthorizationUsed(address,bytes32)')
/**
 * How far back the settlement's log is looked for: ~5.5 hours of Base blocks (2 s), far beyond an
 * authorization's life (minutes), and within what public RPCs serve in one eth_getLogs.
 */
const LOG_LOOKBACK_BLOCKS = 10_000n

type FoundTransaction = NonNullable<Awaited<ReturnType<ReturnType<Rpc<SolanaRpcApi>['getTransaction']>['send']>>>

/**
 * Whether a landed transaction moved the payment's amount of its asset to its payTo (the token
 * balances of accounts the payTo owns, before and after). A record without these is taken on the
 * payer's signature alone.
 */
function paidBy(tx: FoundTransaction, evidence: Extract<Evidence, { chain: 'svm' }>): boolean {
  const { payTo, asset, amount } = evidence
  if (!payTo || !asset || !amount) return true
  const held = (
    balances: readonly { owner?: string; mint: string; uiTokenAmount: { amount: string } }[] | null | undefined,
  ) =>
    (balances ?? [])
      .filter((balance) => balance.owner === payTo && balance.mint === asset)
      .reduce((sum, balance) => sum + BigInt(balance.uiTokenAmount.amount), 0n)
  const meta = tx.meta as unknown as {
    preTokenBalances?: Parameters<typeof held>[0]
    postTokenBalances?: Parameters<typeof held>[0]
  } | null
  return held(meta?.postTokenBalances) - held(meta?.preTokenBalances) >= BigInt(amount)
}

/** The outcome of the payment's transaction, found on chain. */
function landed(signature: string, err: unknown, paid: boolean, how: string): Outcome {
  if (err)
    return {
      state: 'failed',
      reason: `the payment transaction ${signature} failed on chain: ${JSON.stringify(err, bigintSafe)}`,
    }
  if (!paid)
    return {
      state: 'failed',
      reason: `the payment transaction ${signature} landed but moved less than the price to the payTo: nothing was received`,
    }
  return { state: 'settled', transaction: signature, how }
}

/** Where a search of a payer's history stopped, to resume from on the next check. */
interface SearchCursor {
  before: string
  read: number
}

type Search =
  | { kind: 'found'; signature: string; err: unknown; paid: boolean }
  | { kind: 'absent'; read: number }
  | { kind: 'incomplete'; read: number }

export class SettlementChecker {
  readonly #solana: Rpc<SolanaRpcApi> | undefined
  readonly #evm: HttpJsonSource | undefined
  /**
   * Searches to resume, by the payer's signature: only once the payment's blockhash has expired, when
   * nothing new can land in its window (newer transactions only add pages above it).
   */
  readonly #cursors = new Map<string, SearchCursor>()
  readonly #searchBudgetMs: number

  /**
   * `solana`: a Solana RPC client; `evm`: the JSON-RPC endpoint of the EVM rail's chain;
   * `searchBudgetMs`: how long one check may read a payer's history (SEARCH_BUDGET_MS).
   */
  constructor(readers: { solana?: Rpc<SolanaRpcApi>; evm?: HttpJsonSource; searchBudgetMs?: number }) {
    this.#solana = readers.solana
    this.#evm = readers.evm
    this.#searchBudgetMs = readers.searchBudgetMs ?? SEARCH_BUDGET_MS
  }

  /**
   * The payment's fate as its chain records it; `pending` while it could still go either way.
   * `transaction`: the settlement the facilitator named, when it named one. Throws when the chain
   * cannot be read.
   */
  async check(
    evidence: Evidence,
    claimedAtMs: number,
    nowMs = Date.now(),
    transaction?: string | null,
  ): Promise<Outcome> {
    return evidence.chain === 'evm'
      ? this.#authorization(evidence, nowMs, transaction)
      : this.#checkSvm(evidence, claimedAtMs, transaction)
  }

  /**
   * While a call waits for it (`waitMs`): whether a settlement the facilitator did not confirm has
   * landed, by what is cheap to read — the EIP-3009 authorization's state, or the status of the Solana
   * transaction the facilitator named; never a history search (without a named transaction a Solana
   * payment is left to the resolver). `pending` when it has not within the wait (or the chain could
   * not be read): the resolver goes on from there.
   */
  async confirm(evidence: Evidence, transaction: string | null, waitMs: number): Promise<Outcome> {
    const until = Date.now() + waitMs
    let reason = 'the settlement has not confirmed yet'
    if (evidence.chain === 'svm' && !transaction)
      return { state: 'pending', reason: "no transaction was named: the payer's history is searched by the resolver" }
    for (;;) {
      try {
        const outcome =
          evidence.chain === 'evm'
            ? await this.#authorization(evidence, Date.now(), transaction)
            : await this.#status(transaction!, evidence)
        if (outcome && outcome.state !== 'pending') return outcome
      } catch (error) {
        reason = `the chain could not be read: ${(error as Error).message}`
      }
      if (Date.now() + CONFIRM_POLL_MS > until) return { state: 'pending', reason }
      await sleep(CONFIRM_POLL_MS)
    }
  }

  /** The authorization's state on its token: used (settled), unused past its deadline (failed), or pending. */
  async #authorization(
    evidence: Extract<Evidence, { chain: 'evm' }>,
    nowMs: number,
    transaction: string | null | undefined,
  ): Promise<Outcome> {
    if (!this.#evm) return { state: 'pending', reason: 'no RPC for the EVM rail is configured (BASE_RPC_URL)' }
    // Read the deadline before the state: an authorization unused after its deadline stays unused.
    const expired = nowMs / 1000 > evidence.validBefore + CLOCK_SLACK_MS / 1000
    const data = encodeFunctionData({
      abi: eip3009ABI,
      functionName: 'authorizationState',
      args: [evidence.from as Hex, evidence.nonce as Hex],
    })
    const answer = await this.#evm.post(
      '',
      { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: evidence.token, data }, 'latest'] },
      JsonRpcAnswer,
      new CallMeter(),
    )
    if (answer.result === undefined)
      throw new Error(`eth_call authorizationState failed: ${JSON.stringify(answer.error)}`)
    const used = decodeFunctionResult({
      abi: eip3009ABI,
      functionName: 'authorizationState',
      data: answer.result as Hex,
    })
    if (used)
      return {
        state: 'settled',
        // The facilitator's transaction when it named one; else the AuthorizationUsed log's.
        transaction: transaction || (await this.#usedIn(evidence)),
        how: 'the token reports the authorization used',
      }
    if (expired) return { state: 'failed', reason: 'the authorization expired unused: it can never settle' }
    return { state: 'pending', reason: 'the authorization is unused and still valid' }
  }

  /** The transaction that used the authorization (its AuthorizationUsed log), or null when the RPC cannot say. */
  async #usedIn(evidence: Extract<Evidence, { chain: 'evm' }>): Promise<string | null> {
    const rpc = this.#evm!
    try {
      const height = await rpc.post(
        '',
        { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
        JsonRpcAnswer,
        new CallMeter(),
      )
      const latest = BigInt(height.result ?? '0x0')
      const fromBlock = `0x${(latest > LOG_LOOKBACK_BLOCKS ? latest - LOG_LOOKBACK_BLOCKS : 0n).toString(16)}`
      const filter = {
        address: evidence.token,
        fromBlock,
        toBlock: 'latest',
        topics: [AUTHORIZATION_USED, pad(evidence.from as Hex), evidence.nonce],
      }
      const logs = await rpc.post(
        '',
        { jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [filter] },
        LogsAnswer,
        new CallMeter(),
      )
      return logs.result?.at(-1)?.transactionHash ?? null
    } catch {
      return null
    }
  }

  async #checkSvm(
    evidence: Extract<Evidence, { chain: 'svm' }>,
    claimedAtMs: number,
    transaction: string | null | undefined,
  ): Promise<Outcome> {
    const rpc = this.#solana
    if (!rpc) return { state: 'pending', reason: 'no Solana RPC is configured' }
    // Whether it can still land is read first: a transaction absent after its blockhash expired never lands.
    const { context, value: canLand } = await rpc
      .isBlockhashValid(evidence.blockhash as never, { commitment: 'confirmed' })
      .send()
    if (transaction) {
      // Its status unreadable (the status service failing): the payer's history may still show it.
      const named = await this.#status(transaction, evidence).catch(() => undefined)
      if (named) return named
    }
    const search = await this.#search(evidence, claimedAtMs, !canLand, context.slot)
    if (search.kind === 'found') {
      this.#cursors.delete(evidence.signature)
      return landed(search.signature, search.err, search.paid, 'the payment transaction is on chain')
    }
    if (canLand) return { state: 'pending', reason: 'not on chain yet, and its blockhash is still valid' }
    if (search.kind === 'incomplete')
      return {
        state: 'pending',
        reason: `still reading the payer's history (${search.read} transactions so far): resumed on the next check`,
      }
    this.#cursors.delete(evidence.signature)
    return { state: 'failed', reason: 'not on chain and its blockhash has expired: it can never settle' }
  }

  /**
   * A named settlement's outcome once confirmed (settled, or failed on chain); undefined while unknown,
   * or when the transaction named is not this payment (it does not carry the payer's signature): a
   * facilitator's word is not trusted, the payment is then looked for by search.
   */
  async #status(transaction: string, evidence: Extract<Evidence, { chain: 'svm' }>): Promise<Outcome | undefined> {
    if (!this.#solana || !SIGNATURE.test(transaction)) return undefined
    const found = await confirmedStatus(this.#solana, transaction)
    if (!found) return undefined
    const tx = await this.#transaction(transaction)
    // Not readable yet from the node answering (it lags the status service): asked again later.
    if (!tx?.transaction.signatures.includes(evidence.signature as Signature)) return undefined
    return landed(transaction, found.err, paidBy(tx, evidence), 'the settlement transaction is confirmed on chain')
  }

  #transaction(signature: string) {
    return this.#solana!.getTransaction(signature as Signature, {
      commitment: 'confirmed',
      encoding: 'json',
      maxSupportedTransactionVersion: 0,
    }).send()
  }

  /**
   * Looks for the transaction carrying the payer's signature in the payer's history, newest first,
   * page after page, until the entries are older than the claim (the payment cannot land before the
   * facilitator co-signs it, after the claim): never a fixed count. Bounded by SEARCH_BUDGET_MS;
   * resumed from its cursor when `windowClosed` (the blockhash expired: nothing new lands in the window).
   * `slot`: the slot at which the blockhash was judged; the history read is at least that recent.
   */
  async #search(
    evidence: Extract<Evidence, { chain: 'svm' }>,
    claimedAtMs: number,
    windowClosed: boolean,
    slot: bigint,
  ): Promise<Search> {
    const rpc = this.#solana!
    const since = (claimedAtMs - CLOCK_SLACK_MS) / 1000
    const deadline = Date.now() + this.#searchBudgetMs
    const saved = windowClosed ? this.#cursors.get(evidence.signature) : undefined
    let before = saved?.before
    let read = saved?.read ?? 0
    for (;;) {
      const page = await rpc
        .getSignaturesForAddress(evidence.payer as Address, {
          limit: HISTORY_PAGE,
          commitment: 'confirmed',
          // Read by a node at least as far along as the one that judged the blockhash (a load-balanced
          // RPC may answer from another), and never from a copy cached before that slot.
          minContextSlot: slot,
          ...(before ? { before: before as Signature } : {}),
        })
        .send()
      // Newest first: once an entry is older than the window, every later one is too.
      const inWindow = page.filter((entry) => entry.blockTime === null || Number(entry.blockTime) >= since)
      const memo = evidence.memo
      // An entry without a memo field (an RPC that leaves it out) cannot be ruled out by it.
      const candidates =
        memo === undefined
          ? inWindow
          : inWindow.filter((entry) => entry.memo === undefined || carriesMemo(entry.memo, memo))
      const found = await this.#carrying(candidates, evidence, deadline)
      // A listed transaction the node could not return, or no time left: not "absent", ask again later.
      if (found === 'out_of_time' || found === 'unreadable') return { kind: 'incomplete', read }
      if (found) return { kind: 'found', ...found }
      read += page.length
      if (page.length < HISTORY_PAGE || inWindow.length < page.length) return { kind: 'absent', read }
      before = page.at(-1)!.signature
      if (windowClosed) this.#cursors.set(evidence.signature, { before, read })
      if (Date.now() > deadline) return { kind: 'incomplete', read }
    }
  }

  /**
   * The candidate whose transaction carries the payer's signature, fetched a few at a time: null when
   * none does; 'unreadable' when one could not be read (the node lags its own index); 'out_of_time'
   * past the deadline.
   */
  async #carrying(
    candidates: readonly { signature: string }[],
    evidence: Extract<Evidence, { chain: 'svm' }>,
    deadline: number,
  ): Promise<{ signature: string; err: unknown; paid: boolean } | null | 'unreadable' | 'out_of_time'> {
    let unreadable = false
    for (let at = 0; at < candidates.length; at += FETCH_CONCURRENCY) {
      if (at > 0 && Date.now() > deadline) return 'out_of_time'
      const fetched = await Promise.all(
        candidates
          .slice(at, at + FETCH_CONCURRENCY)
          .map((entry) => this.#transaction(entry.signature).then((tx) => ({ entry, tx }))),
      )
      if (fetched.some(({ tx }) => tx === null)) unreadable = true
      const hit = fetched.find(({ tx }) => tx?.transaction.signatures.includes(evidence.signature as Signature))
      if (hit?.tx)
        return { signature: hit.entry.signature, err: hit.tx.meta?.err ?? null, paid: paidBy(hit.tx, evidence) }
    }
    return unreadable ? 'unreadable' : null
  }
}
