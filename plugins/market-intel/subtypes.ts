/**
 * The market signal and its subtype, from the fields and findings of the market-intel signals. The
 * table is the one source of the subtypes: the response schema, the summary and
 * docs/scoring/market-intel.md read it.
 */

import type { MarketSignal } from '../../src/kernel/vocabulary.ts'

export type { MarketSignal }

export const SIGNAL_SUBTYPES = {
  INSUFFICIENT_DATA: {
    signal: 'NEUTRAL',
    meaning: 'No USD price could be read: there is nothing to read a direction from.',
  },
  LOW_LIQUIDITY_NOISE: {
    signal: 'NEUTRAL',
    meaning: 'The token is dead or illiquid: its price moves are noise nobody can trade on.',
  },
  CONCENTRATED_FLOW: {
    signal: 'NEUTRAL',
    meaning: "A handful of wallets made the day's trades: the flow shows no real demand or supply.",
  },
  CAPITULATION: { signal: 'BEARISH', meaning: 'The price crashed and sellers are still active.' },
  MOMENTUM_BREAKOUT: { signal: 'BULLISH', meaning: 'The price surged on dominant buying.' },
  ACCUMULATION: { signal: 'BULLISH', meaning: 'Buyers dominate the flow while the price holds.' },
  DISTRIBUTION: { signal: 'BEARISH', meaning: 'Sellers dominate the flow while the price has not risen.' },
  RANGE_BOUND: { signal: 'NEUTRAL', meaning: 'No side dominates: the price trades in a range.' },
} as const satisfies Record<string, { signal: MarketSignal; meaning: string }>

export type SignalSubtype = keyof typeof SIGNAL_SUBTYPES

/**
 * "The price holds" / "has not risen": a 24 h change within ±5% is flat for a traded token (a day's
 * ordinary drift), so buying into it is accumulation and selling into it distribution.
 */
export const FLAT_BAND_PCT = 5

/** What the decision reads: the answer's fields and the finding codes of the run. */
export interface SignalInputs {
  priceKnown: boolean
  tokenHealth: string
  buyPressure: string
  sellPressure: string
  priceChange24hPct: number | null
  /** Finding codes of the run (PRICE_CRASH, PRICE_SURGE from price-action; FEW_TRADERS from token-health). */
  codes: ReadonlySet<string>
}

/** The first rule that matches, in the order of the table (docs/scoring/market-intel.md). */
export function subtypeOf(inputs: SignalInputs): SignalSubtype {
  const change = inputs.priceChange24hPct ?? 0
  if (!inputs.priceKnown) return 'INSUFFICIENT_DATA'
  if (inputs.tokenHealth === 'DEAD' || inputs.tokenHealth === 'ILLIQUID') return 'LOW_LIQUIDITY_NOISE'
  if (inputs.codes.has('FEW_TRADERS')) return 'CONCENTRATED_FLOW'
  if (inputs.codes.has('PRICE_CRASH') && inputs.sellPressure !== 'LOW') return 'CAPITULATION'
  if (inputs.codes.has('PRICE_SURGE') && inputs.buyPressure === 'HIGH') return 'MOMENTUM_BREAKOUT'
  if (inputs.buyPressure === 'HIGH' && inputs.sellPressure === 'LOW' && change >= -FLAT_BAND_PCT) return 'ACCUMULATION'
  if (inputs.sellPressure === 'HIGH' && inputs.buyPressure === 'LOW' && change <= FLAT_BAND_PCT) return 'DISTRIBUTION'
  return 'RANGE_BOUND'
}
