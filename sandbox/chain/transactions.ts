import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getTransactionEncoder,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type TransactionSigner,
} from '@solana/kit'
import type { Chain, SendOutcome } from './chain.ts'

/** Builds, signs (v0, the chain's newest blockhash) and serialises a transaction. */
export async function buildTransaction(
  chain: Chain,
  feePayer: TransactionSigner,
  instructions: readonly Instruction[],
): Promise<Uint8Array> {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(chain.latestBlockhash(), m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  )
  const signed = await signTransactionMessageWithSigners(message)
  return new Uint8Array(getTransactionEncoder().encode(signed))
}

/** Builds, signs and executes a transaction; throws with the logs when it does not succeed. */
export async function execute(
  chain: Chain,
  feePayer: TransactionSigner,
  instructions: readonly Instruction[],
): Promise<Extract<SendOutcome, { ok: true }>> {
  const outcome = chain.send(await buildTransaction(chain, feePayer, instructions))
  if (!outcome.ok) throw new Error(`transaction refused: ${JSON.stringify(outcome.err)}\n${outcome.logs.join('\n')}`)
  if (outcome.stored.meta.err !== null)
    throw new Error(`transaction failed: ${JSON.stringify(outcome.stored.meta.err)}\n${outcome.stored.meta.logMessages.join('\n')}`)
  return outcome
}

/**
 * Builds a transaction paid by `feePayer` (an address: its owner signs later) and signed now by every
 * signer inside the instructions. The fee payer's signature slot stays empty, as an aggregator returns it.
 */
export async function buildPartiallySigned(
  chain: Chain,
  feePayer: Address,
  instructions: readonly Instruction[],
): Promise<{ wire: Uint8Array; lastValidBlockHeight: bigint }> {
  const lifetime = chain.latestBlockhash()
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  )
  const signed = await partiallySignTransactionMessageWithSigners(message)
  return { wire: new Uint8Array(getTransactionEncoder().encode(signed)), lastValidBlockHeight: lifetime.lastValidBlockHeight }
}
