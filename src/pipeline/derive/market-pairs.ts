import type { MarketFact, TokenListFact } from '../../facts/types.ts'
import type { DexPair } from '../../sources/dexscreener.ts'
import type { FactView } from '../signal.ts'
import { derivedOnce } from './once.ts'

/**
 * A market pair seen from the scanned token's side. DexScreener prices, counts and changes a pair
 * from its base token's point of view; when the scanned token is the pair's quote (USDC in SOL/USDC),
 * its price is the inverse and a "buy" of the pair is a sale of the token.
 */
export interface TokenPair {
  pair: DexPair
  tokenIsBase: boolean
  /** USD per whole scanned token; null when the pair has no USD price. */
  priceUsd: number | null
  /** The mint on the other side of the pair. */
  otherMint: string
  /** USD per whole token of the other side; null when unknown. */
  otherUsd: number | null
}

/** DexScreener's rolling windows. It has no 15-minute window: that one is measured from trades. */
export type DexWindow = 'm5' | 'h1' | 'h6' | 'h24'

const positive = (value: number | null | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null

/** The pairs trading `mint`, from its side, in the market fact's order (deepest first). */
export function tokenPairs(market: MarketFact, mint: string): TokenPair[] {
  return market.pairs.flatMap((pair): TokenPair[] => {
    const tokenIsBase = pair.baseToken.address === mint
    if (!tokenIsBase && pair.quoteToken.address !== mint) return []
    const native = positive(Number(pair.priceNative))
    const baseUsd = positive(pair.priceUsd === null || pair.priceUsd === undefined ? null : Number(pair.priceUsd))
    const inverse = baseUsd !== null && native !== null ? baseUsd / native : null
    return [
      tokenIsBase
        ? { pair, tokenIsBase, priceUsd: baseUsd, otherMint: pair.quoteToken.address, otherUsd: inverse }
        : { pair, tokenIsBase, priceUsd: inverse, otherMint: pair.baseToken.address, otherUsd: baseUsd },
    ]
  })
}

/**
 * The pairs trading `mint` in the scan's market fact, from its side (tokenPairs), derived once per scan;
 * none without the market fact.
 */
export function marketPairs(facts: FactView, mint: string): TokenPair[] {
  return derivedOnce(facts, `pairs:${mint}`, () => {
    const market = facts.get('market')
    return market ? tokenPairs(market, mint) : []
  })
}

/**
 * The pair that prices the token: the deepest with a USD price where the token is the base (its
 * price changes are then the token's own), else the deepest with a USD price where it is quoted (its
 * price is known, its changes are not: DexScreener's changes are the base token's).
 */
export function pricingPair(pairs: readonly TokenPair[]): TokenPair | undefined {
  return (
    pairs.find((entry) => entry.tokenIsBase && entry.priceUsd !== null) ??
    pairs.find((entry) => entry.priceUsd !== null)
  )
}

/** Buys and sells of the token in a window, over every pair (sides swapped where the token is quoted). */
export function tradeCounts(pairs: readonly TokenPair[], window: DexWindow): { buys: number; sells: number } {
  let buys = 0
  let sells = 0
  for (const { pair, tokenIsBase } of pairs) {
    const count = pair.txns?.[window]
    if (!count) continue
    buys += tokenIsBase ? count.buys : count.sells
    sells += tokenIsBase ? count.sells : count.buys
  }
  return { buys, sells }
}

/**
 * USD traded in a window over every pair, to the cent; null when no pair reports it (a pair without
 * a USD route reports no volume). Pairs without a figure are left out of the sum.
 */
export function volumeUsd(pairs: readonly TokenPair[], window: DexWindow): number | null {
  const values = pairs
    .map(({ pair }) => pair.volume?.[window])
    .filter((value): value is number => typeof value === 'number' && Number.isFinite(value))
  return values.length === 0
    ? null
    : round(
        values.reduce((sum, value) => sum + value, 0),
        2,
      )
}

/** USD liquidity over every pair, to the cent; null when no pair reports it. */
export function liquidityUsd(pairs: readonly TokenPair[]): number | null {
  const values = pairs
    .map(({ pair }) => pair.liquidity?.usd)
    .filter((value): value is number => typeof value === 'number' && Number.isFinite(value))
  return values.length === 0
    ? null
    : round(
        values.reduce((sum, value) => sum + value, 0),
        2,
      )
}

/**
 * The token's own USD price change over a window (percent): from a pair where it is the base; for a
 * token only ever quoted (USDC in SOL/USDC), the token list's own figure for it; else null.
 */
export function priceChange(
  pricing: TokenPair | undefined,
  window: DexWindow,
  list?: TokenListFact | undefined,
): number | null {
  if (!pricing) return null
  const value = pricing.tokenIsBase ? pricing.pair.priceChange?.[window] : list?.priceChangePct[window]
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

/** Rounds to `decimals` places; `+ 0` turns -0 into 0 (JSON would print a negative zero change). */
export function round(value: number, decimals: number): number {
  const scale = 10 ** decimals
  return Math.round(value * scale) / scale + 0
}
