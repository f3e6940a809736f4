import { USDC_MINT_ADDRESS, USDT_MINT_ADDRESS, WRAPPED_SOL_MINT_ADDRESS } from '../../onchain/programs.ts'
import type { FactName, PoolsFact, SwapRecord } from '../../facts/types.ts'
import type { FactView } from '../signal.ts'
import { marketPairs, type TokenPair } from './market-pairs.ts'
import { derivedOnce } from './once.ts'

/** One swap of the main pool with its price. */
export interface PricedTrade {
  at: number
  side: 'buy' | 'sell'
  wallet: string
  /**
   * Quote per token in atomic units. Every trade of a tape has the same token and quote, so ratios of
   * these prices are ratios of real prices: decimals cancel.
   */
  unitPrice: number
  /** The quote side in atomic units (comparable between trades of one tape). */
  quoteAtomic: number
  /** The trade's size in USD (quote amount × the quote's USD price now); null when either is unknown. */
  usd: number | null
}

/** The main pool's recent trades, priced, newest first, with how far back they are complete. */
export interface TradeTape {
  /** The main pool (or bonding curve). */
  pool: string
  quoteMint: string | null
  trades: PricedTrade[]
  /**
   * From when every trade was read: null when the pool's whole history was read (the tape starts at
   * its first trade), else the oldest time covered.
   */
  coveredSince: number | null
  /** The main pool's market pair, when the market lists it. */
  pair: TokenPair | undefined
  /** Why trades could not be valued in USD, when they could not. */
  unpricedReason: string | null
}

/**
 * Decimals of the quote tokens nearly every Solana pool trades against (wrapped SOL, USDC, USDT):
 * fixed by their mints. Any other quote's decimals are read from its pool (see quoteDecimals).
 */
const KNOWN_QUOTE_DECIMALS: Readonly<Record<string, number>> = {
  [WRAPPED_SOL_MINT_ADDRESS]: 9,
  [USDC_MINT_ADDRESS]: 6,
  [USDT_MINT_ADDRESS]: 6,
}

/** Whether the quote's decimals are known without reading its pool (the `pools` fact). */
export function isCommonQuote(mint: string): boolean {
  return KNOWN_QUOTE_DECIMALS[mint] !== undefined
}

/** A calibrated decimal count must land this close to an integer, or the reading is refused. */
const DECIMALS_TOLERANCE = 0.05

/** Whether the tape holds every trade since `unixS`. */
export function covers(tape: TradeTape, unixS: number): boolean {
  return tape.coveredSince === null || tape.coveredSince <= unixS
}

/** The tape's trades in (`fromUnixS`, now], newest first. */
export function tradesSince(tape: TradeTape, fromUnixS: number): PricedTrade[] {
  return tape.trades.filter((trade) => trade.at > fromUnixS)
}

/**
 * The main pool's trades from the `trades` fact, priced. Undefined when the fact is missing, or names
 * no pool: then no trade history was read (the pools and market it starts from were unavailable, or
 * the token has no pool, which the market data says on its own), so it counts as missing
 * (docs/data-quality.md: a fact whose inputs are missing is missing). Trades without a block time,
 * or in another quote than the pool's (a multi-hop route), are left out. Derived once per scan: the
 * market signals that read it share one tape.
 */
export function tradeTape(facts: FactView, mint: string): TradeTape | undefined {
  return derivedOnce(facts, `trade-tape:${mint}`, () => deriveTape(facts, mint))
}

function deriveTape(facts: FactView, mint: string): TradeTape | undefined {
  const trades = facts.get('trades')
  if (!trades?.pool) return undefined
  const pair = marketPairs(facts, mint).find((entry) => entry.pair.pairAddress === trades.pool)
  const quoteMint = pair?.otherMint ?? dominantQuote(trades.swaps)
  const decimals = quoteMint === null ? null : quoteDecimals(quoteMint, pair, facts.get('pools'), trades.pool)
  const usdPerAtomic = pair?.otherUsd != null && decimals !== null ? pair.otherUsd / 10 ** decimals : null
  const unpricedReason =
    usdPerAtomic !== null
      ? null
      : !pair
        ? 'the market does not list the main pool'
        : pair.otherUsd === null
          ? "the pool's quote token has no USD price"
          : "the quote token's decimals could not be read"
  const priced = trades.swaps.flatMap((swap): PricedTrade[] => {
    if (swap.blockTime === null || swap.quoteMint !== quoteMint || swap.tokenAmount === 0n) return []
    const quote = Number(swap.quoteAmount)
    return [
      {
        at: swap.blockTime,
        side: swap.side,
        wallet: swap.wallet,
        unitPrice: quote / Number(swap.tokenAmount),
        quoteAtomic: quote,
        usd: usdPerAtomic === null ? null : quote * usdPerAtomic,
      },
    ]
  })
  // The fact lists trades newest first by transaction; a stable sort keeps that order within a second.
  priced.sort((a, b) => b.at - a.at)
  return { pool: trades.pool, quoteMint, trades: priced, coveredSince: trades.coveredSince, pair, unpricedReason }
}

function dominantQuote(swaps: readonly SwapRecord[]): string | null {
  const counts = new Map<string, number>()
  for (const swap of swaps) counts.set(swap.quoteMint, (counts.get(swap.quoteMint) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null
}

/**
 * The quote token's decimals: fixed for the common quotes; otherwise read from the main pool by
 * comparing its vault's atomic reserve (pools fact) with the decimal amount the market reports for
 * that side — 10^decimals apart. Null when neither is available.
 */
export function quoteDecimals(
  quoteMint: string,
  pair: TokenPair | undefined,
  pools: PoolsFact | undefined,
  poolAddress: string | null,
): number | null {
  const known = KNOWN_QUOTE_DECIMALS[quoteMint]
  if (known !== undefined) return known
  const pool = pools?.pools.find((entry) => entry.address === poolAddress)
  if (!pool || !pair?.pair.liquidity) return null
  const atomic =
    pool.baseMint === quoteMint ? pool.baseReserve : pool.quoteMint === quoteMint ? pool.quoteReserve : null
  const whole = pair.pair.baseToken.address === quoteMint ? pair.pair.liquidity.base : pair.pair.liquidity.quote
  if (atomic === null || atomic <= 0n || whole === undefined || !(whole > 0)) return null
  const exponent = Math.log10(Number(atomic) / whole)
  const decimals = Math.round(exponent)
  return Math.abs(exponent - decimals) <= DECIMALS_TOLERANCE && decimals >= 0 && decimals <= 18 ? decimals : null
}

/**
 * What the market signals read: the market fact, the priced trade tape, and which of the two is
 * missing (for the outcome's `missing`).
 */
export function marketInputs(facts: FactView, mint: string) {
  const market = facts.get('market')
  const tape = tradeTape(facts, mint)
  const missing: FactName[] = [...(market ? [] : ['market' as const]), ...(tape ? [] : ['trades' as const])]
  return { market, tape, missing }
}
