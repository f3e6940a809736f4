import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS, WRAPPED_SOL_MINT_ADDRESS } from '../onchain/programs.ts'
import { FactUnavailable, type TokenContext } from './token-context.ts'
import { oldestSignatures, transactions, type ParsedTransaction } from './history.ts'
import { findAssociatedTokenAddress } from '../onchain/pda.ts'
import { mintDerivedAccounts } from './onchain-accounts.ts'
import { decodedPools } from './pools.ts'
import type { Address } from '@solana/kit'
import type { LaunchFact, SwapRecord } from './types.ts'

/** First trades kept in the fact. */
const FIRST_TRADES = 30

/** Token accounts that hold the token's liquidity: pool vaults and the pump.fun curve's accounts. */
export async function liquidityAccounts(facts: TokenContext): Promise<{ accounts: Set<string>; main: string | null }> {
  return facts.shared('liquidity-accounts', async () => {
    let poolsFailed = false
    const [pools, launchpad, market, mint] = await Promise.all([
      decodedPools(facts).catch(() => {
        poolsFailed = true
        return []
      }),
      facts.fact('launchpad'),
      facts.fact('market'),
      facts.fact('mint'),
    ])
    const curve = launchpad?.pumpFun?.bondingCurve
    // Without the pools and without a curve we cannot tell trades from transfers: an empty set would
    // read as "never traded", which would be a lie.
    if (poolsFailed && !curve) throw new FactUnavailable('liquidity accounts: the pools could not be read')
    const accounts = new Set(pools.flatMap((pool) => [pool.baseVault, pool.quoteVault]))
    if (curve) {
      // The curve's token account is associated under the mint's own program: pump.fun's create_v2
      // makes Token-2022 coins. Unknown program (the mint unread): both candidates.
      const programs =
        mint === undefined
          ? [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS]
          : [mint.program === 'spl-token-2022' ? TOKEN_2022_PROGRAM_ADDRESS : TOKEN_PROGRAM_ADDRESS]
      for (const program of programs)
        accounts.add((await findAssociatedTokenAddress(curve as Address, facts.mint as Address, program))[0])
      accounts.add((await findAssociatedTokenAddress(curve as Address, WRAPPED_SOL_MINT_ADDRESS))[0])
    }
    const deepest = market?.pairs.find((pair) => pools.some((pool) => pool.address === pair.pairAddress))?.pairAddress
    const main = deepest ?? pools[0]?.address ?? curve ?? null
    return { accounts, main }
  })
}

/**
 * Swaps of the scanned token in `transaction`: a wallet whose balance of the token moved opposite to
 * a liquidity account's. The quote side is what the liquidity accounts received or paid in other mints,
 * else the wallet's SOL change.
 */
export function swapsIn(transaction: ParsedTransaction, mint: string, liquidity: Set<string>): SwapRecord[] {
  if (transaction.failed) return []
  const pooled = transaction.tokenDeltas.filter((entry) => liquidity.has(entry.account))
  const pooledToken = pooled.filter((entry) => entry.mint === mint).reduce((sum, entry) => sum + entry.delta, 0n)
  if (pooledToken === 0n) return []
  // The other side must move the other way: into the pool when tokens leave it, out when they enter.
  // A deposit or withdrawal moves both sides together and is not a swap.
  const quote = pooled.find((entry) => entry.mint !== mint && entry.delta > 0n !== pooledToken > 0n)
  if (pooled.some((entry) => entry.mint !== mint && entry.delta > 0n === pooledToken > 0n)) return []
  const records: SwapRecord[] = []
  for (const entry of transaction.tokenDeltas) {
    if (entry.mint !== mint || liquidity.has(entry.account) || entry.owner === null) continue
    if (entry.delta > 0n === pooledToken > 0n) continue
    const side = entry.delta > 0n ? 'buy' : 'sell'
    const sol = transaction.solDeltas.get(entry.owner) ?? 0n
    // Without a quote token in the pool (a curve holding lamports), the wallet's SOL must move the other way.
    if (!quote && (side === 'buy' ? sol >= 0n : sol <= 0n)) continue
    records.push({
      signature: transaction.signature,
      slot: transaction.slot,
      blockTime: transaction.blockTime,
      side,
      wallet: entry.owner,
      tokenAmount: entry.delta > 0n ? entry.delta : -entry.delta,
      quoteMint: quote?.mint ?? WRAPPED_SOL_MINT_ADDRESS,
      quoteAmount: quote ? (quote.delta > 0n ? quote.delta : -quote.delta) : sol < 0n ? -sol : sol,
    })
  }
  return records
}

/**
 * The mint's first transaction (its creation) and who paid for it, read as early as possible: the
 * developer's history starts from it without waiting for the first trades. An established token's
 * mint has more history than the pages walked; then its Metaplex metadata account's, usually a few
 * transactions long, starts with the creation when both were made together (a Metaplex launch,
 * pump.fun's original `create`) — the mint funded in that same transaction says so.
 */
export function creation(facts: TokenContext) {
  return facts.shared('creation', async () => {
    let reason: unknown
    try {
      const first = await oldestSignatures(facts, facts.mint, 1)
      if (first && first.length > 0) {
        const [transaction] = await transactions(facts, [first[0]!.signature])
        if (transaction) return transaction
        reason = new FactUnavailable('the creation transaction could not be read')
      } else
        reason = new FactUnavailable(
          first
            ? 'the mint has no history'
            : 'the mint has more history than we page through, so its creation is unknown',
        )
    } catch (error) {
      reason = error
    }
    const withMetadata = await creationWithMetadata(facts).catch(() => undefined)
    if (withMetadata) return withMetadata
    throw reason
  })
}

/** The metadata account's first transaction, when it also created the mint (funded the mint's account). */
async function creationWithMetadata(facts: TokenContext): Promise<ParsedTransaction | undefined> {
  const { metadata, addresses } = await mintDerivedAccounts(facts)
  if (!metadata) return undefined
  const first = await oldestSignatures(facts, addresses.metadata, 1)
  if (!first || first.length === 0) return undefined
  const [transaction] = await transactions(facts, [first[0]!.signature])
  return transaction && (transaction.solDeltas.get(facts.mint) ?? 0n) > 0n ? transaction : undefined
}

/** The first trades against the token's liquidity (oldest first). */
function firstTrades(facts: TokenContext) {
  return facts.shared('first-trades', async () => {
    const liquidity = await liquidityAccounts(facts)
    const early = liquidity.main
      ? await oldestSignatures(facts, liquidity.main, facts.historyDepth.firstTransactions)
      : []
    const list = await transactions(
      facts,
      (early ?? []).map((entry) => entry.signature),
    )
    return {
      main: liquidity.main,
      openedSlot: early && early.length > 0 ? early[0]!.slot : null,
      trades: list
        .flatMap((transaction) => swapsIn(transaction, facts.mint, liquidity.accounts))
        .slice(0, FIRST_TRADES),
      complete: early !== undefined,
    }
  })
}

/**
 * How the token came to be: its creation transaction (the mint's first), the creator (its fee payer),
 * when, and the first trades against its liquidity. Missing when the mint's history is longer than the
 * pages we walk (its start is then unknown).
 */
export async function loadLaunch(facts: TokenContext): Promise<LaunchFact> {
  const [created, early] = await Promise.all([creation(facts), firstTrades(facts)])
  return {
    creationSignature: created.signature,
    creator: created.feePayer,
    createdSlot: created.slot,
    createdAt: created.blockTime,
    mainPool: early.main,
    poolOpenedSlot: early.openedSlot,
    firstTrades: early.trades,
    firstTradesComplete: early.complete,
  }
}
