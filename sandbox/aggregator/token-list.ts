import { readMint, readTokenAccount } from '../chain/token-balances.ts'
import { DEX_WINDOWS_S } from '../market/pairs.ts'
import { PriceHistory } from '../market/prices.ts'
import { NATIVE_MINT } from '../world/swap.ts'
import type { Pool } from '../world/pool-book.ts'
import type { TokenRecord, World } from '../world/world.ts'
import { ok, refuse, type Outcome } from './errors.ts'

/** Jupiter's tokens v2 search returns at most 20 tokens for a symbol or name. */
export const SEARCH_RESULT_LIMIT = 20
/** Jupiter's tokens v2 search takes at most 100 comma-separated mints. */
export const MAX_SEARCH_MINTS = 100
/** Byte offsets of the COption tags of a mint's two authorities in the SPL base layout (0 = none). */
const MINT_AUTHORITY_OPTION_OFFSET = 0
const FREEZE_AUTHORITY_OPTION_OFFSET = 46

/**
 * A token as Jupiter's tokens v2 API describes it, limited to what the sandbox knows: no organic score
 * (nor the organic members of the swap stats), no holder or liquidity change and no net buyers. The
 * swap stats count the trades the pool book read in each window, across every pool of the token (a
 * pool quoting in the token counts its trades from the token's side), in USD at the quote's price at
 * each trade; `volumeChange` compares with the window before (percent, as Jupiter's recorded answers
 * read). Prices come from the same price history the DexScreener stand-in prices pairs from. The audit
 * reads the chain: the `*Disabled` flags are present only when true, as Jupiter leaves them out when
 * false; the top holders' share counts the ten largest owners, pools included (Jupiter does not say how
 * many "top holders" it counts, nor whether it leaves pools out).
 */
export interface TokenInfo {
  id: string
  name: string
  symbol: string
  icon: string | null
  decimals: number
  tokenProgram: string
  /** Whole tokens (decimals applied), read from the mint. */
  totalSupply: number | null
  /** The oldest sandbox pool trading the token. */
  firstPool: { id: string; createdAt: string } | null
  /** Owners holding a balance; null when the mint cannot be read. */
  holderCount: number | null
  audit: {
    mintAuthorityDisabled?: true
    freezeAuthorityDisabled?: true
    /** Share of the supply the ten largest owners hold, 0–100. */
    topHoldersPercentage?: number
  } | null
  isVerified: boolean
  tags: string[]
  /** USD per whole token now; null when no pool prices it. */
  usdPrice: number | null
  /** USD in the token's pools now (both sides), null when a side has no USD price. */
  liquidity: number | null
  /** Supply × price (the sandbox has no locked supply: market cap and FDV agree); null without a price. */
  mcap: number | null
  fdv: number | null
  stats5m: SwapStats | null
  stats1h: SwapStats | null
  stats6h: SwapStats | null
  stats24h: SwapStats | null
  updatedAt: string
}

/** Tokens v2 `SwapStats`, the members the sandbox measures. */
export interface SwapStats {
  priceChange: number | null
  volumeChange: number | null
  buyVolume: number
  sellVolume: number
  numBuys: number
  numSells: number
  numTraders: number
}

/** The tokens v2 entry of a world token, with supply and authorities read from its mint now. */
export function tokenInfo(world: World, token: TokenRecord): TokenInfo {
  const account = world.chain.getAccount(token.mint)
  const data = account?.data
  // The native mint's account says nothing about SOL's supply (wrapping mints nothing): report none.
  const mint =
    token.mint !== NATIVE_MINT && data && data.length >= FREEZE_AUTHORITY_OPTION_OFFSET + 4 ? data : undefined
  const view = mint && new DataView(mint.buffer, mint.byteOffset, mint.byteLength)
  const pools = world.pools.poolsOf(token.mint).sort((a, b) => a.createdAtUnixS - b.createdAtUnixS)
  const supply = mint ? readMint(mint).supply : 0n
  const holders = mint ? ownerBalances(world, token.mint) : []
  const first = pools[0]
  return {
    id: token.mint,
    name: token.name,
    symbol: token.symbol,
    icon: token.logoURI,
    decimals: token.decimals,
    tokenProgram: token.program,
    totalSupply: mint ? Number(supply) / 10 ** token.decimals : null,
    firstPool: first ? { id: first.address, createdAt: isoTime(first.createdAtUnixS) } : null,
    holderCount: mint ? holders.length : null,
    audit: view
      ? {
          ...(view.getUint32(MINT_AUTHORITY_OPTION_OFFSET, true) === 0 ? { mintAuthorityDisabled: true as const } : {}),
          ...(view.getUint32(FREEZE_AUTHORITY_OPTION_OFFSET, true) === 0
            ? { freezeAuthorityDisabled: true as const }
            : {}),
          ...(supply > 0n ? { topHoldersPercentage: topShare(holders, supply) } : {}),
        }
      : null,
    isVerified: token.tags.includes('verified'),
    tags: [...token.tags],
    ...priceStats(world, token.mint),
    updatedAt: isoTime(world.chain.unixS),
  }
}

/** How many of the largest owners the top holders' share counts. */
const TOP_HOLDERS = 10

/** Each owner's balance of `mint` (owners with a balance only), largest first. */
function ownerBalances(world: World, mint: string): bigint[] {
  const byOwner = new Map<string, bigint>()
  for (const key of world.chain.tokenAccountsOfMint(mint)) {
    const account = world.chain.getAccount(key)
    if (!account) continue
    const { owner, amount } = readTokenAccount(account.data)
    if (amount > 0n) byOwner.set(owner, (byOwner.get(owner) ?? 0n) + amount)
  }
  return [...byOwner.values()].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))
}

/** The share (0–100) of `supply` the largest TOP_HOLDERS owners hold. */
function topShare(balances: readonly bigint[], supply: bigint): number {
  const top = balances.slice(0, TOP_HOLDERS).reduce((sum, amount) => sum + amount, 0n)
  return Number((top * 1_000_000n) / supply) / 10_000
}

/**
 * Answers `GET /tokens/v2/search?query=`: comma-separated text is a list of mints (unknown ones are
 * left out); a single term is a mint, or a symbol or name matched case-insensitively — exact symbols
 * first, then symbol prefixes, then names containing it, verified tokens first within each.
 */
export function searchTokens(world: World, query: string | null): Outcome<TokenInfo[]> {
  const text = query?.trim() ?? ''
  if (text === '') return refuse(400, 'Query parameter query is required')
  if (text.includes(',')) {
    const mints = [
      ...new Set(
        text
          .split(',')
          .map((mint) => mint.trim())
          .filter((mint) => mint !== ''),
      ),
    ]
    if (mints.length > MAX_SEARCH_MINTS) return refuse(400, `query takes at most ${MAX_SEARCH_MINTS} mint addresses`)
    return ok(mints.flatMap((mint) => world.tokens.get(mint) ?? []).map((token) => tokenInfo(world, token)))
  }
  const exact = world.tokens.get(text)
  if (exact) return ok([tokenInfo(world, exact)])
  const term = text.toLowerCase()
  const ranked = [...world.tokens.values()]
    .map((token) => ({ token, rank: matchRank(token, term) }))
    .filter((entry): entry is { token: TokenRecord; rank: number } => entry.rank !== undefined)
    .sort(
      (a, b) =>
        a.rank - b.rank || Number(b.token.tags.includes('verified')) - Number(a.token.tags.includes('verified')),
    )
  return ok(ranked.slice(0, SEARCH_RESULT_LIMIT).map((entry) => tokenInfo(world, entry.token)))
}

/** Answers `GET /tokens/v2/tag?query=`: every token carrying the tag (Jupiter accepts `verified`, `lst`, `stocks`). */
export function tokensByTag(world: World, tag: string | null): Outcome<TokenInfo[]> {
  const wanted = tag?.trim() ?? ''
  if (wanted === '') return refuse(400, 'Query parameter query is required')
  return ok(
    [...world.tokens.values()].filter((token) => token.tags.includes(wanted)).map((token) => tokenInfo(world, token)),
  )
}

/** 0 exact symbol, 1 symbol prefix, 2 name contains; undefined when the token does not match. */
function matchRank(token: TokenRecord, term: string): number | undefined {
  const symbol = token.symbol.toLowerCase()
  if (symbol === term) return 0
  if (symbol.startsWith(term)) return 1
  if (token.name.toLowerCase().includes(term)) return 2
  return undefined
}

function isoTime(unixS: number): string {
  return new Date(Math.floor(unixS) * 1000).toISOString()
}

/** The token's USD price, liquidity and capitalisation now, and its swap stats over each of Jupiter's windows. */
function priceStats(world: World, mint: string) {
  const history = new PriceHistory(world)
  const now = world.chain.unixS
  const usdPrice = history.usdPriceAt(mint, now)
  const pools = world.pools.poolsOf(mint)
  const stats = (windowS: number): SwapStats | null => {
    // A token younger than the window has no price to change from, but its trades still count.
    if (usdPrice === null) return null
    const before = history.usdPriceAt(mint, now - windowS)
    const current = tradeStats(history, mint, pools, now - windowS, now)
    const previous = tradeStats(history, mint, pools, now - 2 * windowS, now - windowS)
    const volume = current.buyVolume + current.sellVolume
    const previousVolume = previous.buyVolume + previous.sellVolume
    return {
      priceChange: before === null || before <= 0 ? null : round6((usdPrice / before - 1) * 100),
      volumeChange: previousVolume > 0 ? round6((volume / previousVolume - 1) * 100) : null,
      ...current,
    }
  }
  let liquidity: number | null = 0
  for (const pool of pools) {
    const reserves = history.realReservesAt(pool, now)
    const base = history.usdPriceAt(pool.baseMint, now)
    const quote = history.usdPriceAt(pool.quoteMint, now)
    liquidity =
      liquidity === null || base === null || quote === null
        ? null
        : liquidity +
          (Number(reserves.base) / 10 ** pool.baseDecimals) * base +
          (Number(reserves.quote) / 10 ** pool.quoteDecimals) * quote
  }
  const capitalisation = usdPrice === null || mint === NATIVE_MINT ? null : round6(supplyOf(world, mint) * usdPrice)
  return {
    usdPrice,
    liquidity: liquidity === null ? null : round6(liquidity),
    mcap: capitalisation,
    fdv: capitalisation,
    stats5m: stats(DEX_WINDOWS_S.m5),
    stats1h: stats(DEX_WINDOWS_S.h1),
    stats6h: stats(DEX_WINDOWS_S.h6),
    stats24h: stats(DEX_WINDOWS_S.h24),
  }
}

/** Whole tokens in supply. */
function supplyOf(world: World, mint: string): number {
  const state = world.mintState(mint)
  return Number(state.supply) / 10 ** state.decimals
}

/** The trades of `mint` in (`fromUnixS`, `toUnixS`] across `pools`, from the token's side, in USD. */
function tradeStats(
  history: PriceHistory,
  mint: string,
  pools: readonly Pool[],
  fromUnixS: number,
  toUnixS: number,
): Omit<SwapStats, 'priceChange' | 'volumeChange'> {
  const stats = { buyVolume: 0, sellVolume: 0, numBuys: 0, numSells: 0, numTraders: 0 }
  const traders = new Set<string>()
  for (const pool of pools) {
    const quoteUsd = (unixS: number) => history.usdPriceAt(pool.quoteMint, unixS) ?? 0
    for (const trade of history.tradesBetween(pool, fromUnixS, toUnixS)) {
      // A pool quoting in the token: its buyer of the base sold the token.
      const buy = pool.baseMint === mint ? trade.side === 'buy' : trade.side === 'sell'
      const usd = (Number(trade.quoteAmount) / 10 ** pool.quoteDecimals) * quoteUsd(trade.unixS)
      if (buy) {
        stats.numBuys++
        stats.buyVolume += usd
      } else {
        stats.numSells++
        stats.sellVolume += usd
      }
      traders.add(trade.wallet)
    }
  }
  return {
    ...stats,
    buyVolume: round6(stats.buyVolume),
    sellVolume: round6(stats.sellVolume),
    numTraders: traders.size,
  }
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6 + 0

/** Jupiter's token categories and their windows (tokens v2 `/{category}/{interval}`). */
export const TOKEN_CATEGORIES = ['toporganicscore', 'toptraded', 'toptrending'] as const
export const CATEGORY_INTERVALS = {
  '5m': DEX_WINDOWS_S.m5,
  '1h': DEX_WINDOWS_S.h1,
  '6h': DEX_WINDOWS_S.h6,
  '24h': DEX_WINDOWS_S.h24,
}
/** Jupiter answers 50 tokens unless `limit` (1 to 100) says otherwise. */
export const CATEGORY_DEFAULT_LIMIT = 50
export const CATEGORY_MAX_LIMIT = 100

/**
 * Answers `GET /tokens/v2/{category}/{interval}?limit=`. Jupiter's docs say it leaves out "generic top
 * tokens like SOL, USDC", but its recorded answers list them (toporganicscore/5m, 2026-09-28, has SOL
 * and USDC first): the stand-in leaves nothing out. Jupiter does not publish its ranks: the stand-in ranks `toptraded` by the window's volume and `toptrending` by its
 * traders, then volume; tokens without a trade in the window are left out. It has no organic score, so
 * `toporganicscore` is refused (400) as a category it cannot serve.
 */
export function categoryTokens(
  world: World,
  category: string,
  interval: string,
  limitText: string | null,
): Outcome<TokenInfo[]> {
  if (!(TOKEN_CATEGORIES as readonly string[]).includes(category))
    return refuse(400, `category must be one of ${TOKEN_CATEGORIES.join(', ')}`)
  if (!(interval in CATEGORY_INTERVALS))
    return refuse(400, `interval must be one of ${Object.keys(CATEGORY_INTERVALS).join(', ')}`)
  if (category === 'toporganicscore')
    return refuse(400, 'The sandbox has no organic score: toporganicscore is not served')
  const limit = limitText === null ? CATEGORY_DEFAULT_LIMIT : Number(limitText)
  if (!Number.isInteger(limit) || limit < 1 || limit > CATEGORY_MAX_LIMIT)
    return refuse(400, `limit must be an integer from 1 to ${CATEGORY_MAX_LIMIT}`)
  const windowS = CATEGORY_INTERVALS[interval as keyof typeof CATEGORY_INTERVALS]
  const history = new PriceHistory(world)
  const now = world.chain.unixS
  const ranked = [...world.tokens.values()]
    .map((token) => ({
      token,
      stats: tradeStats(history, token.mint, world.pools.poolsOf(token.mint), now - windowS, now),
    }))
    .filter(({ stats }) => stats.numBuys + stats.numSells > 0)
    .sort((a, b) => {
      const volume = b.stats.buyVolume + b.stats.sellVolume - (a.stats.buyVolume + a.stats.sellVolume)
      return category === 'toptraded' ? volume : b.stats.numTraders - a.stats.numTraders || volume
    })
  return ok(ranked.slice(0, limit).map(({ token }) => tokenInfo(world, token)))
}
