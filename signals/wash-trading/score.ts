import type { SwapRecord } from '../../src/facts/types.ts'

/** A round trip closes within an hour: the same trader buying and selling back (or the reverse). */
export const ROUND_TRIP_S = 3_600
/** Both legs of a round trip move about the same value: the smaller at least 80% of the larger. */
export const SIZE_MATCH = 0.8
/** Round trips count as wash only for a trader who repeats them (one quick flip is trading). */
export const REPEAT_ROUND_TRIPS = 2
/** Trades per trader at which the repetition part saturates (retail averages one or two a day). */
export const TRADES_PER_TRADER_SATURATION = 10
/** Weights of the two parts of the score (sum 1): round-trip volume share, trades per trader. */
export const ROUND_TRIP_WEIGHT = 0.7
export const REPETITION_WEIGHT = 0.3

export interface WashScore {
  /** 0–100. */
  score: number
  /** Share of the window's quote volume in repeated round trips, 0–1. */
  roundTripShare: number
  /** Swaps per distinct trader (linked wallets are one trader). */
  tradesPerTrader: number
  roundTrips: number
  traders: number
}

/**
 * The wash-trading score of a window of swaps: 100 × (0.7 × the share of quote volume in repeated
 * round trips + 0.3 × how far trades per trader exceed one, saturating at ten). `traderOf` merges
 * linked wallets (one funder, one sitting) into one trader. Volume is in the pool's quote units.
 */
export function washScore(swaps: readonly SwapRecord[], traderOf: (wallet: string) => string): WashScore {
  const byTrader = new Map<string, SwapRecord[]>()
  for (const swap of swaps) {
    const trader = traderOf(swap.wallet)
    byTrader.set(trader, [...(byTrader.get(trader) ?? []), swap])
  }
  const total = swaps.reduce((sum, swap) => sum + Number(swap.quoteAmount), 0)
  let washVolume = 0
  let roundTrips = 0
  for (const legs of byTrader.values()) {
    const ordered = [...legs].sort((a, b) => (a.blockTime ?? 0) - (b.blockTime ?? 0))
    const open: SwapRecord[] = []
    const pairs: [SwapRecord, SwapRecord][] = []
    for (const leg of ordered) {
      const match = open.findIndex(
        (other) =>
          other.side !== leg.side &&
          (leg.blockTime ?? 0) - (other.blockTime ?? 0) <= ROUND_TRIP_S &&
          sizeMatches(other, leg),
      )
      if (match >= 0) pairs.push([open.splice(match, 1)[0]!, leg])
      else open.push(leg)
    }
    roundTrips += pairs.length
    if (pairs.length >= REPEAT_ROUND_TRIPS)
      washVolume += pairs.reduce((sum, [a, b]) => sum + Number(a.quoteAmount) + Number(b.quoteAmount), 0)
  }
  const roundTripShare = total > 0 ? washVolume / total : 0
  const traders = byTrader.size
  const tradesPerTrader = traders > 0 ? swaps.length / traders : 0
  const repetition = Math.min(1, Math.max(0, (tradesPerTrader - 1) / (TRADES_PER_TRADER_SATURATION - 1)))
  const score = Math.round(100 * (ROUND_TRIP_WEIGHT * roundTripShare + REPETITION_WEIGHT * repetition))
  return {
    score,
    roundTripShare: Math.round(roundTripShare * 100) / 100,
    tradesPerTrader: Math.round(tradesPerTrader * 100) / 100,
    roundTrips,
    traders,
  }
}

function sizeMatches(a: SwapRecord, b: SwapRecord): boolean {
  const small = a.quoteAmount < b.quoteAmount ? a.quoteAmount : b.quoteAmount
  const large = a.quoteAmount < b.quoteAmount ? b.quoteAmount : a.quoteAmount
  return large > 0n && Number(small) / Number(large) >= SIZE_MATCH
}
