import type { Chain, StoredTransaction } from '../chain/chain.ts'
import { readTokenAccount, type TokenBalance } from '../chain/token-balances.ts'

/** The pool programs the sandbox lays out (accounts at the real program ids, in the real layouts). */
export type PoolKind = 'raydium-amm-v4' | 'pumpswap' | 'orca-whirlpool' | 'meteora-dlmm' | 'pump-curve'

/** How a pool prices: constant product over its reserves (real or, for a bonding curve, virtual). */
export interface Pool {
  /** The pool (or bonding-curve) account. */
  address: string
  kind: PoolKind
  programId: string
  /** DexScreener's `dexId` for the venue, and its labels (e.g. `CLMM`, `DLMM`). */
  dexId: string
  labels: string[]
  baseMint: string
  quoteMint: string
  baseDecimals: number
  quoteDecimals: number
  /** Token accounts holding the reserves, owned by the venue's authority, moved by the sandbox operator as delegate. */
  baseVault: string
  quoteVault: string
  baseTokenProgram: string
  quoteTokenProgram: string
  /** Fungible LP mint of traditional AMMs; none for CLMM/DLMM positions or a bonding curve. */
  lpMint?: string
  feeBps: number
  createdAtUnixS: number
  /**
   * Virtual reserves added to the real ones when pricing (a bonding curve's virtual SOL and tokens);
   * zero for pools that price on their real reserves.
   */
  virtualBase: bigint
  virtualQuote: bigint
  /** Base tokens held in the vault that the pool never pays out (a bonding curve's migration reserve). */
  reservedBase: bigint
}

/** A swap against a pool, read back from the chain: who traded how much of each side, when. */
export interface Trade {
  signature: string
  slot: bigint
  unixS: number
  pool: string
  /** `buy` = the wallet received base tokens. */
  side: 'buy' | 'sell'
  wallet: string
  baseAmount: bigint
  quoteAmount: bigint
}

export interface Quote {
  amountIn: bigint
  amountOut: bigint
  feeAmount: bigint
  /** Fraction (0.0123 = 1.23%) by which the execution price is worse than the spot price. */
  priceImpact: number
}

/** SPL token account state `Frozen` (AccountState: 0 uninitialized, 1 initialized, 2 frozen). */
const FROZEN = 2
/** Fee denominator: fees are in basis points. */
const BPS = 10_000n

/**
 * Every sandbox pool and every trade made against one. Trades are not recorded by whoever made them:
 * the book reads each transaction the chain commits and derives a trade from the vault balance
 * changes, so scenario trades, aggregator swaps and anything else that moves a pool's vaults are
 * counted the same way.
 */
export class PoolBook {
  readonly #pools = new Map<string, Pool>()
  readonly #byVault = new Map<string, Pool>()
  readonly #trades: Trade[] = []
  readonly #tradeListeners = new Set<(trade: Trade, pool: Pool) => void>()

  constructor(private readonly chain: Chain) {
    chain.onTransaction((stored) => this.#readTrades(stored))
  }

  add(pool: Pool): void {
    this.#pools.set(pool.address, pool)
    this.#byVault.set(pool.baseVault, pool)
    this.#byVault.set(pool.quoteVault, pool)
  }

  get(address: string): Pool | undefined {
    return this.#pools.get(address)
  }

  all(): Pool[] {
    return [...this.#pools.values()]
  }

  /** Pools trading `mint` on either side. */
  poolsOf(mint: string): Pool[] {
    return this.all().filter((pool) => pool.baseMint === mint || pool.quoteMint === mint)
  }

  /** Trades of a pool, oldest first. */
  tradesOf(pool: string): Trade[] {
    return this.#trades.filter((trade) => trade.pool === pool)
  }

  onTrade(listener: (trade: Trade, pool: Pool) => void): () => void {
    this.#tradeListeners.add(listener)
    return () => this.#tradeListeners.delete(listener)
  }

  /** Real reserves: the vault balances on the chain. */
  realReserves(pool: Pool): { base: bigint; quote: bigint } {
    return { base: this.#vaultAmount(pool.baseVault), quote: this.#vaultAmount(pool.quoteVault) }
  }

  /** Reserves the pool prices with: real plus virtual. */
  pricingReserves(pool: Pool): { base: bigint; quote: bigint } {
    const real = this.realReserves(pool)
    return { base: real.base + pool.virtualBase, quote: real.quote + pool.virtualQuote }
  }

  /** Spot price in quote units per base unit, decimals applied (e.g. SOL per token). */
  spotPrice(pool: Pool): number {
    const { base, quote } = this.pricingReserves(pool)
    if (base === 0n) return 0
    return Number(quote) / 10 ** pool.quoteDecimals / (Number(base) / 10 ** pool.baseDecimals)
  }

  /** What `amountIn` of `inputMint` buys from the pool, by the constant-product rule after the fee. */
  quote(pool: Pool, inputMint: string, amountIn: bigint): Quote {
    const reserves = this.pricingReserves(pool)
    const selling = inputMint === pool.baseMint
    const reserveIn = selling ? reserves.base : reserves.quote
    const reserveOut = selling ? reserves.quote : reserves.base
    const real = this.realReserves(pool)
    const realOut = selling ? real.quote : real.base > pool.reservedBase ? real.base - pool.reservedBase : 0n
    const feeAmount = (amountIn * BigInt(pool.feeBps) + BPS - 1n) / BPS
    const inAfterFee = amountIn - feeAmount
    let amountOut = reserveIn + inAfterFee === 0n ? 0n : (inAfterFee * reserveOut) / (reserveIn + inAfterFee)
    // A pool cannot pay out more than it really holds (a bonding curve's virtual reserves are not there).
    if (amountOut > realOut) amountOut = realOut
    const spot = reserveIn === 0n ? 0 : Number(reserveOut) / Number(reserveIn)
    const execution = amountIn === 0n ? spot : Number(amountOut) / Number(amountIn)
    return { amountIn, amountOut, feeAmount, priceImpact: spot === 0 ? 1 : Math.max(0, 1 - execution / spot) }
  }

  /**
   * Whether both vaults can move tokens: a vault frozen by its mint's freeze authority (token account
   * state 2) fails every swap through the pool, so no route is offered through it.
   */
  canSwap(pool: Pool): boolean {
    return [pool.baseVault, pool.quoteVault].every((vault) => {
      const account = this.chain.getAccount(vault)
      return account !== undefined && readTokenAccount(account.data).state !== FROZEN
    })
  }

  #vaultAmount(vault: string): bigint {
    const account = this.chain.getAccount(vault)
    return account ? readTokenAccount(account.data).amount : 0n
  }

  #readTrades(stored: StoredTransaction): void {
    if (stored.meta.err !== null) return
    const touched = new Set<Pool>()
    for (const key of stored.accountKeys) {
      const pool = this.#byVault.get(key)
      if (pool) touched.add(pool)
    }
    const isVault = (key: string) => this.#byVault.has(key)
    for (const pool of touched) {
      const trade = tradeFrom(stored, pool, isVault)
      if (!trade) continue
      this.#trades.push(trade)
      for (const listener of this.#tradeListeners) listener(trade, pool)
    }
  }
}

/** The trade a committed transaction made against `pool`, from its vaults' token-balance changes. */
function tradeFrom(stored: StoredTransaction, pool: Pool, isVault: (key: string) => boolean): Trade | undefined {
  const baseDelta = delta(stored, pool.baseVault)
  const quoteDelta = delta(stored, pool.quoteVault)
  // A swap moves the two vaults in opposite directions; deposits and withdrawals move them together.
  if (baseDelta === 0n || quoteDelta === 0n || baseDelta > 0n === quoteDelta > 0n) return undefined
  const side = baseDelta < 0n ? 'buy' : 'sell'
  const wallet = counterparty(stored, pool.baseMint, -baseDelta, isVault) ?? stored.accountKeys[0]!
  return {
    signature: stored.signature,
    slot: stored.slot,
    unixS: stored.blockTime,
    pool: pool.address,
    side,
    wallet,
    baseAmount: baseDelta < 0n ? -baseDelta : baseDelta,
    quoteAmount: quoteDelta < 0n ? -quoteDelta : quoteDelta,
  }
}

function amountAt(balances: TokenBalance[], accountIndex: number): bigint {
  const entry = balances.find((balance) => balance.accountIndex === accountIndex)
  return entry ? BigInt(entry.uiTokenAmount.amount) : 0n
}

function delta(stored: StoredTransaction, account: string): bigint {
  const index = stored.accountKeys.indexOf(account)
  if (index < 0) return 0n
  return amountAt(stored.meta.postTokenBalances, index) - amountAt(stored.meta.preTokenBalances, index)
}

/**
 * The owner of the token account of `mint` whose balance moved by `expected`: the trader's side. Pool
 * vaults are skipped, so in a routed swap the intermediate pool is not taken for the trader.
 */
function counterparty(
  stored: StoredTransaction,
  mint: string,
  expected: bigint,
  isVault: (key: string) => boolean,
): string | undefined {
  for (const post of stored.meta.postTokenBalances) {
    if (post.mint !== mint || isVault(stored.accountKeys[post.accountIndex]!)) continue
    const change = BigInt(post.uiTokenAmount.amount) - amountAt(stored.meta.preTokenBalances, post.accountIndex)
    if (change === expected) return post.owner
  }
  return undefined
}
