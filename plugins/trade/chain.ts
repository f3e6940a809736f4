import { setTimeout as sleep } from 'node:timers/promises'
/**
 * What the trade executor asks the Solana chain, through the configured RPC (the data layer's source:
 * timeouts, retries, breaker, counting): balances, block height, blockhash validity, simulation,
 * sending and confirmation.
 */
import type { Address, Base64EncodedWireTransaction, Blockhash, Rpc, SolanaRpcApi } from '@solana/kit'
import { WRAPPED_SOL_MINT_ADDRESS } from '../../src/onchain/programs.ts'
import { confirmedStatus } from '../../src/onchain/signature-status.ts'

/** SOL kept back when selling SOL: rent for the wrapped-SOL and output token accounts, and the fee. */
export const SOL_RESERVE_LAMPORTS = 5_000_000n

/** Atomic units of `mint` that `owner` holds (lamports less the reserve for SOL). */
export async function spendable(rpc: Rpc<SolanaRpcApi>, owner: string, mint: string): Promise<bigint> {
  if (mint === WRAPPED_SOL_MINT_ADDRESS) {
    const { value } = await rpc.getBalance(owner as Address, { commitment: 'confirmed' }).send()
    return value > SOL_RESERVE_LAMPORTS ? value - SOL_RESERVE_LAMPORTS : 0n
  }
  // Every unit held counts, frozen or not: telling frozen units apart is the exit's affair (holdingOf).
  const { sellable, frozen } = await holdingOf(rpc, owner, mint)
  return sellable + frozen
}

/**
 * What `owner` holds of `mint` (atomic units) in every token account of it, under either token program
 * (the RPC's mint filter finds Token and Token-2022 accounts alike): what can be sold, and what sits in
 * frozen accounts (the freeze authority's doing: it cannot move until thawed).
 */
export async function holdingOf(
  rpc: Rpc<SolanaRpcApi>,
  owner: string,
  mint: string,
): Promise<{ sellable: bigint; frozen: bigint }> {
  const { value } = await rpc
    .getTokenAccountsByOwner(
      owner as Address,
      { mint: mint as Address },
      { encoding: 'jsonParsed', commitment: 'confirmed' },
    )
    .send()
  const held = { sellable: 0n, frozen: 0n }
  for (const account of value) {
    const info = (account.account.data as { parsed?: { info?: { state?: string; tokenAmount?: { amount?: string } } } })
      .parsed?.info
    const amount = BigInt(info?.tokenAmount?.amount ?? '0')
    if (info?.state === 'frozen') held.frozen += amount
    else held.sellable += amount
  }
  return held
}

export async function blockHeight(rpc: Rpc<SolanaRpcApi>): Promise<bigint> {
  return rpc.getBlockHeight({ commitment: 'confirmed' }).send()
}

export async function blockhashValid(rpc: Rpc<SolanaRpcApi>, blockhash: string): Promise<boolean> {
  return (await rpc.isBlockhashValid(blockhash as Blockhash, { commitment: 'confirmed' }).send()).value
}

/** The simulation's error and last log lines (signatures verified, as the network will). */
export async function simulate(rpc: Rpc<SolanaRpcApi>, wire: string): Promise<{ err: unknown; logs: string[] }> {
  const { value } = await rpc
    .simulateTransaction(wire as Base64EncodedWireTransaction, {
      encoding: 'base64',
      sigVerify: true,
      commitment: 'confirmed',
    })
    .send()
  return { err: value.err, logs: [...(value.logs ?? [])] }
}

/**
 * The compute units `wire` uses in simulation (signatures not checked, the blockhash replaced: it is
 * not signed yet), or null when the simulation fails or reports none.
 */
export async function unitsConsumed(rpc: Rpc<SolanaRpcApi>, wire: string): Promise<bigint | null> {
  const { value } = await rpc
    .simulateTransaction(wire as Base64EncodedWireTransaction, {
      encoding: 'base64',
      sigVerify: false,
      replaceRecentBlockhash: true,
      commitment: 'confirmed',
    })
    .send()
  return value.err === null && value.unitsConsumed !== undefined ? value.unitsConsumed : null
}

export async function send(rpc: Rpc<SolanaRpcApi>, wire: string): Promise<void> {
  // Simulated just before: no second preflight; resent by the confirmation loop while it waits.
  await rpc
    .sendTransaction(wire as Base64EncodedWireTransaction, { encoding: 'base64', skipPreflight: true, maxRetries: 0n })
    .send()
}

export type Landing =
  | { kind: 'confirmed'; slot: number }
  | { kind: 'failed'; slot: number; err: unknown }
  | { kind: 'expired' }
  | { kind: 'unknown'; reason: string }

const POLL_MS = 400
const RESEND_MS = 2_000
/** Longer than any blockhash lives: past it the chain could not be read often enough to know. */
const GIVE_UP_MS = 150_000

/**
 * Waits until `signature` is confirmed or failed on chain, resending the transaction every 2 s, or
 * until the chain passes `lastValidBlockHeight` without it (then it can never land: expired). Bounded
 * by the blockhash's life (~60–90 s on mainnet), so the outcome is always known when it returns.
 */
export async function confirm(
  rpc: Rpc<SolanaRpcApi>,
  signature: string,
  wire: string,
  lastValidBlockHeight: bigint,
): Promise<Landing> {
  const started = Date.now()
  let lastSend = started
  let lastError = ''
  while (Date.now() - started < GIVE_UP_MS) {
    try {
      const landed = await status(rpc, signature)
      if (landed) return landed
      if ((await blockHeight(rpc)) > lastValidBlockHeight) {
        // One last look: it may have landed in the last valid block.
        return (await status(rpc, signature)) ?? { kind: 'expired' }
      }
      if (Date.now() - lastSend >= RESEND_MS) {
        lastSend = Date.now()
        await send(rpc, wire).catch(() => {})
      }
    } catch (error) {
      // The RPC failing for a moment does not decide anything: keep asking.
      lastError = (error as Error).message
    }
    await sleep(POLL_MS)
  }
  return { kind: 'unknown', reason: lastError || 'the chain did not answer in time' }
}

/** The signature's outcome once confirmed (or failed), else undefined. */
export async function status(rpc: Rpc<SolanaRpcApi>, signature: string): Promise<Landing | undefined> {
  const found = await confirmedStatus(rpc, signature)
  if (!found) return undefined
  return found.err ? { kind: 'failed', slot: found.slot, err: found.err } : { kind: 'confirmed', slot: found.slot }
}
