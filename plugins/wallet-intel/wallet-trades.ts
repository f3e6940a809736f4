/**
 * A wallet's trades read from its own transactions, and what they add up to (pure; docs/catalogue.md
 * §Wallet intel). A trade is a transaction in which the wallet's balance of exactly one token moved one
 * way and a quote (SOL, wrapped SOL, USDC, USDT) moved the other: a buy pays the quote, a sell receives
 * it. SOL legs are the wallet's lamport change, so they include its network fees and the rent of the
 * accounts it opened (both are costs of the trade). Anything else (transfers, token-for-token swaps,
 * airdrops) is not a trade.
 */
import type { ParsedTransaction } from '../../src/facts/history.ts'
import { PUMP_PROGRAM_ADDRESS, USDT_MINT_ADDRESS, WRAPPED_SOL_MINT_ADDRESS } from '../../src/onchain/programs.ts'

export type Quote = 'SOL' | 'USD'

export interface WalletTrade {
  signature: string
  slot: bigint
  time: number | null
  mint: string
  side: 'buy' | 'sell'
  /** Atomic units of the token. */
  tokenAmount: bigint
  quote: Quote
  /** Whole SOL, or whole USD (USDC, USDT). */
  quoteAmount: number
  /** On a launchpad's bonding curve (the pump.fun program). */
  launchpad: boolean
}

/** Smaller SOL movements (fees, the rent of one account) are not a payment: 0.003 SOL. */
export const MIN_SOL_LEG_LAMPORTS = 3_000_000n

/** The trades of `wallet` in `transactions` (failed ones skipped), oldest first. `usdMints` are its dollars (USDC and the like). */
export function walletTrades(
  wallet: string,
  transactions: readonly ParsedTransaction[],
  usdMints: ReadonlySet<string>,
): WalletTrade[] {
  const trades: WalletTrade[] = []
  for (const transaction of transactions) {
    if (transaction.failed) continue
    const byMint = new Map<string, bigint>()
    for (const delta of transaction.tokenDeltas)
      if (delta.owner === wallet) byMint.set(delta.mint, (byMint.get(delta.mint) ?? 0n) + delta.delta)
    let sol = transaction.solDeltas.get(wallet) ?? 0n
    let usd = 0n
    const tokens: [string, bigint][] = []
    for (const [mint, delta] of byMint) {
      if (delta === 0n) continue
      if (mint === WRAPPED_SOL_MINT_ADDRESS) sol += delta
      else if (usdMints.has(mint) || mint === USDT_MINT_ADDRESS) usd += delta
      else tokens.push([mint, delta])
    }
    if (tokens.length !== 1) continue
    const [mint, delta] = tokens[0]!
    const side = delta > 0n ? 'buy' : 'sell'
    const paysOrGets = (flow: bigint) => (side === 'buy' ? flow < 0n : flow > 0n)
    let quote: Quote
    let quoteAmount: number
    if (usd !== 0n && paysOrGets(usd)) {
      quote = 'USD'
      quoteAmount = Math.abs(Number(usd)) / 1e6
    } else if (paysOrGets(sol) && (sol < 0n ? -sol : sol) >= MIN_SOL_LEG_LAMPORTS) {
      quote = 'SOL'
      quoteAmount = Math.abs(Number(sol)) / 1e9
    } else continue
    trades.push({
      signature: transaction.signature,
      slot: transaction.slot,
      time: transaction.blockTime,
      mint,
      side,
      tokenAmount: delta > 0n ? delta : -delta,
      quote,
      quoteAmount,
      launchpad: transaction.instructions.some((instruction) => instruction.program === PUMP_PROGRAM_ADDRESS),
    })
  }
  return trades.sort((a, b) => (a.slot < b.slot ? -1 : a.slot > b.slot ? 1 : 0))
}

/** A round trip in one token: bought, then sold down to dust. */
export interface Position {
  mint: string
  openedAt: number | null
  closedAt: number | null
  /** USD paid and received (SOL legs at `solUsd`). */
  costUsd: number
  proceedsUsd: number
  /** True when every leg was in SOL (so its result in SOL is exact whatever the SOL price). */
  solOnly: boolean
  costSol: number
  proceedsSol: number
  closed: boolean
  /** Sold more than the history shows bought (the rest came by transfer, or before the history read). */
  unmatched: boolean
}

/** Below this share of the most ever held, a position counts as closed. */
const DUST_SHARE = 0.01

/**
 * The wallet's positions, one per round trip per token, in the order they opened. A sell of tokens the
 * history never shows bought (a transfer in, or a buy before the history read) marks the position
 * `unmatched`: its result is not counted.
 */
export function positionsOf(trades: readonly WalletTrade[], solUsd: number | null): Position[] {
  const open = new Map<string, Position & { held: bigint; peak: bigint }>()
  const done: Position[] = []
  const rate = (trade: WalletTrade) => (trade.quote === 'USD' ? 1 : (solUsd ?? Number.NaN))
  for (const trade of trades) {
    let position = open.get(trade.mint)
    if (!position) {
      position = {
        mint: trade.mint,
        openedAt: trade.time,
        closedAt: null,
        costUsd: 0,
        proceedsUsd: 0,
        solOnly: true,
        costSol: 0,
        proceedsSol: 0,
        closed: false,
        unmatched: false,
        held: 0n,
        peak: 0n,
      }
      open.set(trade.mint, position)
    }
    if (trade.quote !== 'SOL') position.solOnly = false
    const usd = trade.quoteAmount * rate(trade)
    if (trade.side === 'buy') {
      position.costUsd += usd
      if (trade.quote === 'SOL') position.costSol += trade.quoteAmount
      position.held += trade.tokenAmount
      if (position.held > position.peak) position.peak = position.held
      continue
    }
    position.proceedsUsd += usd
    if (trade.quote === 'SOL') position.proceedsSol += trade.quoteAmount
    if (trade.tokenAmount > position.held) position.unmatched = true
    position.held = trade.tokenAmount > position.held ? 0n : position.held - trade.tokenAmount
    if (Number(position.held) <= Number(position.peak) * DUST_SHARE) {
      const { held: _held, peak: _peak, ...closed } = position
      done.push({ ...closed, closed: true, closedAt: trade.time })
      open.delete(trade.mint)
    }
  }
  for (const { held: _held, peak: _peak, ...position } of open.values()) done.push(position)
  return done
}
