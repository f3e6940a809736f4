import type { StoredTransaction } from '../chain/chain.ts'
import type { TokenBalance } from '../chain/token-balances.ts'
import type { Pool, Trade } from '../world/pool-book.ts'
import { NATIVE_MINT } from '../world/swap.ts'
import type { World } from '../world/world.ts'

/** A pool's two sides in atomic units. */
export interface Reserves {
  base: bigint
  quote: bigint
}

/** A vault's balance over time: `balances[k]` is what it held after the first `k` movements. */
interface VaultHistory {
  /** Block times of the transactions that moved it, oldest first (never decreasing: the clock only moves forward). */
  times: number[]
  balances: bigint[]
}

/** What the chain recorded about one pool. */
interface PoolRecord {
  base: VaultHistory
  quote: VaultHistory
  /** The pool's trades, as the pool book read them, oldest first. */
  trades: Trade[]
}

/** The pool that prices a mint in USD, directly (against USDC) or through SOL. */
interface UsdRoute {
  pool: Pool
  /** Whether the priced mint is the pool's base (otherwise its quote: the price is inverted). */
  mintIsBase: boolean
  anchor: string
}

/**
 * Prices of the sandbox's pools at any past moment, derived only from what the chain holds: the
 * vault balances now and the committed transactions that moved them. The reserves at time t are
 * today's reserves with every later movement undone (a buy took base out and put quote in; undoing
 * it does the reverse), so a past price is exact, not an interpolation. Movements, not only trades:
 * a deposit, a liquidity pull or a transfer straight into a vault changes the reserves without being
 * a trade, and undoing trades alone would misstate every price before it.
 *
 * A snapshot: it reads each pool's reserves, history and trades once, so build one per answer.
 */
export class PriceHistory {
  readonly #records = new Map<string, PoolRecord>()
  /** USD prices by `mint@unixS`: volumes ask for the same quote price once per trade and window. */
  readonly #usdPrices = new Map<string, number | null>()

  constructor(private readonly world: World) {}

  /** Real reserves: what the vaults held once every transaction of blocks at or before `unixS` had run. */
  realReservesAt(pool: Pool, unixS: number): Reserves {
    const { base, quote } = this.#record(pool)
    return { base: balanceAt(base, unixS), quote: balanceAt(quote, unixS) }
  }

  /** Reserves the pool priced with at `unixS`: real plus the pool's virtual reserves. */
  pricingReservesAt(pool: Pool, unixS: number): Reserves {
    const real = this.realReservesAt(pool, unixS)
    return { base: real.base + pool.virtualBase, quote: real.quote + pool.virtualQuote }
  }

  /** Quote per base, decimals applied, at `unixS` (the pool book's spot-price rule); 0 for an empty base side. */
  nativePriceAt(pool: Pool, unixS: number): number {
    const { base, quote } = this.pricingReservesAt(pool, unixS)
    if (base === 0n) return 0
    return Number(quote) / 10 ** pool.quoteDecimals / (Number(base) / 10 ** pool.baseDecimals)
  }

  /**
   * USD per whole token of `mint` at `unixS`: 1 for the sandbox's USDC; otherwise its price in its
   * deepest pool against USDC or SOL (depth: the USD value of the USDC or SOL side), times SOL's own
   * USD price (from the deepest wSOL/USDC pool) for a SOL pool. Only pools that existed at `unixS`
   * count. Null when no such pool exists.
   */
  usdPriceAt(mint: string, unixS: number): number | null {
    const key = `${mint}@${unixS}`
    if (!this.#usdPrices.has(key)) this.#usdPrices.set(key, this.#usdPrice(mint, unixS))
    return this.#usdPrices.get(key) ?? null
  }

  /** Trades of `pool` made in (`fromUnixS`, `toUnixS`], oldest first. */
  tradesBetween(pool: Pool, fromUnixS: number, toUnixS: number): Trade[] {
    return this.#record(pool).trades.filter((trade) => trade.unixS > fromUnixS && trade.unixS <= toUnixS)
  }

  #usdPrice(mint: string, unixS: number): number | null {
    const usdc = this.world.usdcMint
    if (usdc !== '' && mint === usdc) return 1
    const route = this.#usdRoute(mint, unixS)
    if (!route) return null
    const price = this.nativePriceAt(route.pool, unixS)
    const inAnchor = route.mintIsBase ? price : price === 0 ? null : 1 / price
    if (inAnchor === null) return null
    const anchorUsd = route.anchor === usdc ? 1 : this.usdPriceAt(route.anchor, unixS)
    return anchorUsd === null ? null : inAnchor * anchorUsd
  }

  #usdRoute(mint: string, unixS: number): UsdRoute | null {
    const usdc = this.world.usdcMint
    // SOL never routes through itself: its USD price comes from USDC pools alone.
    const anchors = mint === NATIVE_MINT ? [usdc] : [usdc, NATIVE_MINT]
    let best: { route: UsdRoute; depthUsd: number } | undefined
    for (const pool of this.world.pools.poolsOf(mint)) {
      if (pool.createdAtUnixS > unixS) continue
      const anchor = pool.baseMint === mint ? pool.quoteMint : pool.baseMint
      if (anchor === '' || !anchors.includes(anchor)) continue
      const anchorUsd = anchor === usdc ? 1 : this.usdPriceAt(anchor, unixS)
      if (anchorUsd === null) continue
      // Depth is the USD value of the anchor side: the deepest market is the hardest to move.
      const reserves = this.realReservesAt(pool, unixS)
      const anchorIsBase = pool.baseMint === anchor
      const anchorAmount =
        Number(anchorIsBase ? reserves.base : reserves.quote) /
        10 ** (anchorIsBase ? pool.baseDecimals : pool.quoteDecimals)
      const depthUsd = anchorAmount * anchorUsd
      const route = { pool, mintIsBase: !anchorIsBase, anchor }
      if (!best || depthUsd > best.depthUsd || (depthUsd === best.depthUsd && pool.address < best.route.pool.address))
        best = { route, depthUsd }
    }
    return best?.route ?? null
  }

  #record(pool: Pool): PoolRecord {
    const cached = this.#records.get(pool.address)
    if (cached) return cached
    const current = this.world.pools.realReserves(pool)
    const record = {
      base: this.#vaultHistory(pool.baseVault, current.base),
      quote: this.#vaultHistory(pool.quoteVault, current.quote),
      trades: this.world.pools.tradesOf(pool.address),
    }
    this.#records.set(pool.address, record)
    return record
  }

  /** The vault's balances, walking back from today's through every transaction that moved it. */
  #vaultHistory(vault: string, balanceNow: bigint): VaultHistory {
    const movements: { unixS: number; delta: bigint }[] = []
    for (const signature of this.world.chain.signaturesFor(vault)) {
      const stored = this.world.chain.getTransaction(signature)
      if (!stored) continue
      const delta = balanceDelta(stored, vault)
      if (delta !== 0n) movements.push({ unixS: stored.blockTime, delta })
    }
    movements.reverse()
    const balances: bigint[] = new Array(movements.length + 1)
    let balance = balanceNow
    balances[movements.length] = balance
    for (let index = movements.length - 1; index >= 0; index--) {
      balance -= movements[index]!.delta
      balances[index] = balance
    }
    return { times: movements.map((movement) => movement.unixS), balances }
  }
}

/** What `vault` held after every movement made at or before `unixS`. */
function balanceAt(history: VaultHistory, unixS: number): bigint {
  // Binary search for the number of movements at or before `unixS`.
  let low = 0
  let high = history.times.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (history.times[middle]! <= unixS) low = middle + 1
    else high = middle
  }
  return history.balances[low]!
}

/** How a committed transaction changed `account`'s token balance (0 for a failed one: it was rolled back). */
function balanceDelta(stored: StoredTransaction, account: string): bigint {
  const index = stored.accountKeys.indexOf(account)
  if (index < 0) return 0n
  return amountAt(stored.meta.postTokenBalances, index) - amountAt(stored.meta.preTokenBalances, index)
}

/** An account's balance in a pre/post list; absent means it was not a token account (yet, or any more). */
function amountAt(balances: TokenBalance[], accountIndex: number): bigint {
  const entry = balances.find((balance) => balance.accountIndex === accountIndex)
  return entry ? BigInt(entry.uiTokenAmount.amount) : 0n
}
