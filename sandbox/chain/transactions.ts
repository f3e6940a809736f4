import type { Address, Instruction, TransactionSigner } from '@solana/kit'
import { compileAndSign } from './compile.ts'
import type { Chain, SendOutcome } from './chain.ts'

/** Builds, signs (v0, the chain's newest blockhash) and serialises a transaction. */
export async function buildTransaction(
  chain: Chain,
  feePayer: TransactionSigner,
  instructions: readonly Instruction[],
): Promise<Uint8Array> {
  return compileAndSign(feePayer, instructions, chain.latestBlockhash().blockhash)
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
    throw new Error(
      `transaction failed: ${JSON.stringify(outcome.stored.meta.err)}\n${outcome.stored.meta.logMessages.join('\n')}`,
    )
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
  return {
    wire: await compileAndSign(feePayer, instructions, lifetime.blockhash),
    lastValidBlockHeight: lifetime.lastValidBlockHeight,
  }
}
