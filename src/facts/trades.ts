import type { TokenContext } from './token-context.ts'
import { signatures, transactions } from './history.ts'
import { liquidityAccounts, swapsIn } from './launch.ts'
import type { TradesFact } from './types.ts'

const DAY_S = 24 * 60 * 60

/**
 * Recent swaps on the token's main pool (or bonding curve), newest first, read from the pool's last
 * transactions (as many as the provider's history depth allows). When the pool traded more often in a
 * day than that, the 24-hour window is incomplete and says so (`complete24h`), rather than extrapolating.
 */
export async function loadTrades(facts: TokenContext): Promise<TradesFact> {
  const liquidity = await liquidityAccounts(facts)
  if (!liquidity.main) return { pool: null, swaps: [], coveredSince: null, complete24h: true }
  // The pool's newest transactions, as many as the provider's limits allow in a deep dive.
  const depth = facts.historyDepth.recentTransactions
  const recent = await signatures(facts, liquidity.main, depth)
  const list = await transactions(
    facts,
    recent.filter((entry) => !entry.failed).map((entry) => entry.signature),
  )
  const swaps = list.flatMap((transaction) => swapsIn(transaction, facts.mint, liquidity.accounts))
  const oldest = recent.at(-1)?.blockTime ?? null
  const now = Math.floor(Date.now() / 1000)
  return {
    pool: liquidity.main,
    swaps,
    coveredSince: recent.length < depth ? null : oldest,
    complete24h: recent.length < depth || (oldest !== null && oldest <= now - DAY_S),
  }
}
