import type { Rpc, Signature, SolanaRpcApi } from '@solana/kit'

/**
 * A transaction's status once it is confirmed (its slot, and its error when it failed on chain), asked
 * by signature with the history searched; undefined while it is unknown or only processed. One reading
 * for the trade executor and the payments' on-chain check.
 */
export async function confirmedStatus(
  rpc: Rpc<SolanaRpcApi>,
  signature: string,
): Promise<{ slot: number; err: unknown } | undefined> {
  const { value } = await rpc.getSignatureStatuses([signature as Signature], { searchTransactionHistory: true }).send()
  const found = value[0]
  if (!found || (found.confirmationStatus !== 'confirmed' && found.confirmationStatus !== 'finalized')) return undefined
  return { slot: Number(found.slot), err: found.err ?? null }
}
