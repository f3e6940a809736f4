/**
 * Smart money on the launchpad (pure; docs/catalogue.md §Smart money): wallets whose round trips in the
 * launchpad index prove a record, and the coins they are buying now. Everything is read from the
 * index's trades (the program's own events): no keyed provider, and no wallet judged on anything but
 * trades the index holds.
 */
import type { TradeRow } from '../store/launches.ts'

/** A round trip: a wallet sold at least this share of the tokens it bought of a coin. */
const CLOSED_SHARE = 0.9
/** Proven: at least this many round trips, this share won, and a positive result. */
export const PROVEN = { roundTrips: 3, winShare: 0.6 } as const

export interface WalletRecord {
  wallet: string
  roundTrips: number
  wins: number
  pnlSol: number
}

export interface SmartFlow {
  mint: string
  netFlowSol: number
  buys: number
  sells: number
  /** Proven wallets that bought in the window. */
  wallets: string[]
}

/** Every wallet's round trips across the coins (`trades` per mint), and the proven among them. */
export function walletRecords(trades: ReadonlyMap<string, readonly TradeRow[]>): {
  records: Map<string, WalletRecord>
  proven: Set<string>
} {
  const records = new Map<string, WalletRecord>()
  for (const list of trades.values()) {
    const byWallet = new Map<string, { bought: bigint; sold: bigint; paid: number; got: number }>()
    for (const trade of list) {
      const entry = byWallet.get(trade.user) ?? { bought: 0n, sold: 0n, paid: 0, got: 0 }
      if (trade.isBuy) {
        entry.bought += trade.tokenAmount
        entry.paid += Number(trade.solAmount) / 1e9
      } else {
        entry.sold += trade.tokenAmount
        entry.got += Number(trade.solAmount) / 1e9
      }
      byWallet.set(trade.user, entry)
    }
    for (const [wallet, entry] of byWallet) {
      if (entry.bought === 0n || Number(entry.sold) < Number(entry.bought) * CLOSED_SHARE) continue
      const record = records.get(wallet) ?? { wallet, roundTrips: 0, wins: 0, pnlSol: 0 }
      record.roundTrips++
      if (entry.got > entry.paid) record.wins++
      record.pnlSol += entry.got - entry.paid
      records.set(wallet, record)
    }
  }
  const proven = new Set(
    [...records.values()]
      .filter((r) => r.roundTrips >= PROVEN.roundTrips && r.wins / r.roundTrips >= PROVEN.winShare && r.pnlSol > 0)
      .map((r) => r.wallet),
  )
  return { records, proven }
}

/** Per coin, what proven wallets bought and sold since `sinceS`: coins with a net inflow, largest first. */
export function smartFlows(
  trades: ReadonlyMap<string, readonly TradeRow[]>,
  proven: ReadonlySet<string>,
  sinceS: number,
): SmartFlow[] {
  const flows: SmartFlow[] = []
  for (const [mint, list] of trades) {
    let net = 0
    let buys = 0
    let sells = 0
    const wallets = new Set<string>()
    for (const trade of list) {
      if (trade.at < sinceS || !proven.has(trade.user)) continue
      const sol = Number(trade.solAmount) / 1e9
      if (trade.isBuy) {
        net += sol
        buys++
        wallets.add(trade.user)
      } else {
        net -= sol
        sells++
      }
    }
    if (net > 0) flows.push({ mint, netFlowSol: Math.round(net * 1e4) / 1e4, buys, sells, wallets: [...wallets] })
  }
  return flows.sort((a, b) => b.wallets.length - a.wallets.length || b.netFlowSol - a.netFlowSol)
}
