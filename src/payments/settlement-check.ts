/**
 * Finding out, on the chain itself, whether a payment whose settlement went unanswered (a facilitator
 * time-out, a restart mid-settle) moved the money — so a `pending` payment becomes `settled` or
 * `failed` without ever being sent again.
 *
 * - EVM (EIP-3009): the token's `authorizationState(from, nonce)` is true once the authorization was
 *   used. Still false after its `validBefore` → it can never be used: failed.
 * - Solana: the payment transaction carries the payer's signature; it is looked for among the payer's
 *   recent transactions. Not there once its blockhash has expired → it can never land: failed.
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
import { Type } from '@sinclair/typebox'
import { decodeFunctionResult, encodeFunctionData, pad, toEventSelector, type Hex } from 'viem'
import type { HttpJsonSource } from '../sources/http-json.ts'
import { CallMeter } from '../sources/upstream.ts'
import type { OfferV2 } from './challenge.ts'
import type { PaymentV1, PaymentV2 } from './payment-header.ts'

export type Evidence =
  | { chain: 'evm'; token: string; from: string; nonce: string; validBefore: number }
  | { chain: 'svm'; payer: string; signature: string; blockhash: string }

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
    const { lifetimeToken } = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes)
    return {
      chain: 'svm',
      payer: signed[0],
      signature: getBase58Decoder().decode(signed[1]!),
      blockhash: lifetimeToken,
    }
  } catch {
    return undefined
  }
}

/** How far back the payer's history is read for a Solana payment, and the clock slack allowed. */
const HISTORY_LIMIT = 100
const CLOCK_SLACK_MS = 120_000

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

export class SettlementChecker {
  readonly #solana: Rpc<SolanaRpcApi> | undefined
  readonly #evm: HttpJsonSource | undefined

  /** `solana`: a Solana RPC client; `evm`: the JSON-RPC endpoint of the EVM rail's chain. */
  constructor(readers: { solana?: Rpc<SolanaRpcApi>; evm?: HttpJsonSource }) {
    this.#solana = readers.solana
    this.#evm = readers.evm
  }

  /** The payment's fate as its chain records it; `pending` while it could still go either way. Throws when the chain cannot be read. */
  async check(evidence: Evidence, claimedAtMs: number, nowMs = Date.now()): Promise<Outcome> {
    return evidence.chain === 'evm' ? this.#checkEvm(evidence, nowMs) : this.#checkSvm(evidence, claimedAtMs)
  }

  async #checkEvm(evidence: Extract<Evidence, { chain: 'evm' }>, nowMs: number): Promise<Outcome> {
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
        transaction: await this.#usedIn(evidence),
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

  async #checkSvm(evidence: Extract<Evidence, { chain: 'svm' }>, claimedAtMs: number): Promise<Outcome> {
    const rpc = this.#solana
    if (!rpc) return { state: 'pending', reason: 'no Solana RPC is configured' }
    // Whether it can still land is read first: a transaction absent after its blockhash expired never lands.
    const { value: canLand } = await rpc
      .isBlockhashValid(evidence.blockhash as never, { commitment: 'confirmed' })
      .send()
    const history = await rpc
      .getSignaturesForAddress(evidence.payer as Address, { limit: HISTORY_LIMIT, commitment: 'confirmed' })
      .send()
    const since = (claimedAtMs - CLOCK_SLACK_MS) / 1000
    const candidates = history.filter((entry) => entry.blockTime === null || Number(entry.blockTime) >= since)
    const transactions = await Promise.all(
      candidates.map((entry) =>
        rpc
          .getTransaction(entry.signature as Signature, {
            commitment: 'confirmed',
            encoding: 'json',
            maxSupportedTransactionVersion: 0,
          })
          .send()
          .then((tx) => ({ entry, tx })),
      ),
    )
    const found = transactions.find(({ tx }) => tx?.transaction.signatures.includes(evidence.signature as Signature))
    if (found) {
      if (found.tx?.meta?.err)
        return {
          state: 'failed',
          reason: `the payment transaction ${found.entry.signature} failed on chain: ${JSON.stringify(found.tx.meta.err)}`,
        }
      return { state: 'settled', transaction: found.entry.signature, how: 'the payment transaction is on chain' }
    }
    if (canLand) return { state: 'pending', reason: 'not on chain yet, and its blockhash is still valid' }
    return { state: 'failed', reason: 'not on chain and its blockhash has expired: it can never settle' }
  }
}
