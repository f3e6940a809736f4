import type { FactName, LaunchFact, SwapRecord } from '../../facts/types.ts'
import { missingOf, type FactView } from '../signal.ts'

/**
 * The facts the data layer finds a token's main pool from. When one of them is missing, the `launch`
 * and `trades` facts still load but with no pool (`mainPool`/`pool` null, no trades): that reads as
 * "never traded" but means "pool unknown". A signal may only trust an empty pool when these are all there.
 */
export const POOL_FACTS: readonly FactName[] = ['pools', 'market', 'launchpad']

/** The pool facts missing when `pool` is null (then "no pool" is unknown, not a finding); [] otherwise. */
export function poolUnknown(facts: FactView, pool: string | null): FactName[] {
  return pool === null ? missingOf(facts, POOL_FACTS) : []
}

/**
 * Buys in the slots `from`..`slots` after the pool (or curve) opened (0 is the opening slot itself).
 * Empty when the opening is unknown.
 */
export function openingBuys(launch: LaunchFact, slots: number, from = 0): SwapRecord[] {
  const opened = launch.poolOpenedSlot
  if (opened === null) return []
  return launch.firstTrades.filter(
    (trade) => trade.side === 'buy' && trade.slot >= opened + BigInt(from) && trade.slot <= opened + BigInt(slots),
  )
}

/** Share of the supply (percent, two decimals) that `trades` moved. */
export function supplyPct(trades: readonly SwapRecord[], supply: bigint): number {
  if (supply === 0n) return 0
  const amount = trades.reduce((sum, trade) => sum + trade.tokenAmount, 0n)
  return Number((amount * 10_000n) / supply) / 100
}
