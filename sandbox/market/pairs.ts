import type { Pool } from '../world/pool-book.ts'
import { NATIVE_MINT } from '../world/swap.ts'
import type { World } from '../world/world.ts'
import { PriceHistory } from './prices.ts'

/**
 * DexScreener's rolling windows, in seconds. It has no 15-minute window, so neither do we: a caller
 * that wants one derives it from trades.
 */
export const DEX_WINDOWS_S = { m5: 5 * 60, h1: 60 * 60, h6: 6 * 60 * 60, h24: 24 * 60 * 60 } as const

export type DexWindow = keyof typeof DEX_WINDOWS_S

const WINDOW_NAMES = Object.keys(DEX_WINDOWS_S) as DexWindow[]

/** DexScreener's id for Solana. */
export const DEX_CHAIN_ID = 'solana'

/** Where DexScreener shows a pair: its web page, keyed by the pair (pool) address. */
const PAIR_PAGE_BASE_URL = 'https://dexscreener.com/solana/'

/** Significant digits of price strings: all a double carries, without float noise or exponent notation. */
const PRICE_SIGNIFICANT_DIGITS = 15

/** USD amounts are reported in cents, as DexScreener does. */
const USD_DECIMALS = 2

/** Percent changes are rounded to two decimals, as DexScreener does. */
const PERCENT_DECIMALS = 2

const priceFormat = new Intl.NumberFormat('en-US', {
  useGrouping: false,
  maximumSignificantDigits: PRICE_SIGNIFICANT_DIGITS,
})

/** A token as a DexScreener pair names it. */
export interface DexToken {
  address: string
  name: string
  symbol: string
}

export interface DexTxnCount {
  buys: number
  sells: number
}

/** DexScreener's `Pair`, as its token and pair endpoints return it for Solana. */
export interface DexPair {
  chainId: typeof DEX_CHAIN_ID
  dexId: string
  url: string
  pairAddress: string
  /** Venue labels (`CLMM`, `DLMM`); absent when the venue has none. */
  labels?: string[]
  baseToken: DexToken
  quoteToken: DexToken
  /** Quote per base, decimals applied. */
  priceNative: string
  /** USD per base token; null when the quote token has no USD route in the sandbox. */
  priceUsd: string | null
  /** Buys and sells (of the base token) in each window. */
  txns: Record<DexWindow, DexTxnCount>
  /**
   * USD traded in each window, each trade valued at the quote's USD price when it was made. A window
   * is absent when a trade in it has no USD value (its quote had no USD route then).
   */
  volume: Partial<Record<DexWindow, number>>
  /** Percent change of the USD price over each window (of the native price when USD is unknown). */
  priceChange: Record<DexWindow, number>
  liquidity: {
    /** Base value plus quote value in USD; null when the quote has no USD route. */
    usd: number | null
    /** Real reserves (what the vaults hold, not a curve's virtual reserves), decimals applied. */
    base: number
    quote: number
  }
  /** Base supply × priceUsd; null without a USD price, and for wrapped SOL (see capitalisationUsd). */
  fdv: number | null
  /** Base supply × priceUsd (the sandbox knows no locked or uncirculating supply). */
  marketCap: number | null
  /** When the pool was created, Unix milliseconds. */
  pairCreatedAt: number
}

/**
 * The DexScreener pair of a sandbox pool as of `nowUnixS`, computed only from what the chain holds:
 * counts and volumes over the trades the pool book read in each window (`nowUnixS - window`,
 * `nowUnixS`], prices from the vault balances reconstructed at the window's start (see PriceHistory).
 * Pass one `history` to price several pairs from the same snapshot.
 */
export function pairOf(world: World, pool: Pool, nowUnixS: number, history = new PriceHistory(world)): DexPair {
  const base = world.token(pool.baseMint)
  const quote = world.token(pool.quoteMint)
  const native = history.nativePriceAt(pool, nowUnixS)
  const quoteUsd = history.usdPriceAt(pool.quoteMint, nowUnixS)
  const priceUsd = quoteUsd === null ? null : native * quoteUsd
  const reserves = history.realReservesAt(pool, nowUnixS)
  const baseAmount = Number(reserves.base) / 10 ** pool.baseDecimals
  const quoteAmount = Number(reserves.quote) / 10 ** pool.quoteDecimals
  const capitalisation = priceUsd === null ? null : capitalisationUsd(world, pool.baseMint, priceUsd)

  const txns = {} as Record<DexWindow, DexTxnCount>
  const volume: Partial<Record<DexWindow, number>> = {}
  const priceChange = {} as Record<DexWindow, number>
  for (const window of WINDOW_NAMES) {
    const startUnixS = nowUnixS - DEX_WINDOWS_S[window]
    const trades = history.tradesBetween(pool, startUnixS, nowUnixS)
    txns[window] = {
      buys: trades.filter((trade) => trade.side === 'buy').length,
      sells: trades.filter((trade) => trade.side === 'sell').length,
    }
    let usd: number | null = 0
    for (const trade of trades) {
      const unitUsd = history.usdPriceAt(pool.quoteMint, trade.unixS)
      usd =
        usd === null || unitUsd === null ? null : usd + (Number(trade.quoteAmount) / 10 ** pool.quoteDecimals) * unitUsd
    }
    if (usd !== null) volume[window] = roundTo(usd, USD_DECIMALS)
    priceChange[window] = percentChange(history, pool, startUnixS, nowUnixS)
  }

  return {
    chainId: DEX_CHAIN_ID,
    dexId: pool.dexId,
    url: `${PAIR_PAGE_BASE_URL}${pool.address}`,
    pairAddress: pool.address,
    ...(pool.labels.length > 0 ? { labels: [...pool.labels] } : {}),
    baseToken: { address: base.mint, name: base.name, symbol: base.symbol },
    quoteToken: { address: quote.mint, name: quote.name, symbol: quote.symbol },
    priceNative: formatPrice(native),
    priceUsd: priceUsd === null ? null : formatPrice(priceUsd),
    txns,
    volume,
    priceChange,
    liquidity: {
      usd:
        quoteUsd === null || priceUsd === null
          ? null
          : roundTo(baseAmount * priceUsd + quoteAmount * quoteUsd, USD_DECIMALS),
      base: baseAmount,
      quote: quoteAmount,
    },
    fdv: capitalisation,
    marketCap: capitalisation,
    pairCreatedAt: pool.createdAtUnixS * 1000,
  }
}

/**
 * The pairs of every pool trading one of `mints` on either side (each pool once), deepest first, as
 * DexScreener's token endpoints list them.
 */
export function pairsOfTokens(world: World, mints: readonly string[], nowUnixS: number): DexPair[] {
  const wanted = new Set(mints)
  const pools = world.pools.all().filter((pool) => wanted.has(pool.baseMint) || wanted.has(pool.quoteMint))
  return sortedPairs(world, pools, nowUnixS)
}

/** The pairs of the pools at `addresses` (unknown addresses are skipped), deepest first. */
export function pairsAtAddresses(world: World, addresses: readonly string[], nowUnixS: number): DexPair[] {
  const pools = [...new Set(addresses)].map((address) => world.pools.get(address)).filter((pool) => pool !== undefined)
  return sortedPairs(world, pools, nowUnixS)
}

function sortedPairs(world: World, pools: Pool[], nowUnixS: number): DexPair[] {
  const history = new PriceHistory(world)
  // Liquidity descending; pairs without a USD value last; the address breaks ties so answers are stable.
  return pools
    .map((pool) => pairOf(world, pool, nowUnixS, history))
    .sort(
      (a, b) =>
        (b.liquidity.usd ?? -Infinity) - (a.liquidity.usd ?? -Infinity) ||
        (a.pairAddress < b.pairAddress ? -1 : a.pairAddress > b.pairAddress ? 1 : 0),
    )
}

/**
 * Supply × price, the supply read from the mint on the chain. Null for wrapped SOL: the native mint's
 * supply field does not count SOL, so it would report a zero valuation.
 */
function capitalisationUsd(world: World, mint: string, priceUsd: number): number | null {
  if (mint === NATIVE_MINT) return null
  const state = world.mintState(mint)
  return roundTo((Number(state.supply) / 10 ** state.decimals) * priceUsd, USD_DECIMALS)
}

/**
 * Percent change of the pair's price from `fromUnixS` (or the pool's creation, if later: a pair has no
 * price before it exists) to `toUnixS`: in USD when known at both ends, else in the quote token.
 */
function percentChange(history: PriceHistory, pool: Pool, windowStartUnixS: number, toUnixS: number): number {
  const fromUnixS = Math.max(windowStartUnixS, pool.createdAtUnixS)
  const nativeThen = history.nativePriceAt(pool, fromUnixS)
  const nativeNow = history.nativePriceAt(pool, toUnixS)
  const usdThen = history.usdPriceAt(pool.quoteMint, fromUnixS)
  const usdNow = history.usdPriceAt(pool.quoteMint, toUnixS)
  const [then, now] =
    usdThen === null || usdNow === null ? [nativeThen, nativeNow] : [nativeThen * usdThen, nativeNow * usdNow]
  if (then === 0) return 0
  return roundTo((now / then - 1) * 100, PERCENT_DECIMALS)
}

function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals
  // `+ 0` turns a rounded -0 into 0, which JSON would otherwise print as a negative change.
  return Math.round(value * scale) / scale + 0
}

function formatPrice(value: number): string {
  return priceFormat.format(value)
}
