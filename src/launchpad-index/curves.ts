/**
 * What the radars read off a launchpad curve (pure; docs/catalogue.md §Launch radar): bonding
 * progress, price and market cap, how fast it fills, when it should graduate, and the manipulation
 * indicators of its first blocks and its trading.
 */
import { PUMP_INITIAL_VIRTUAL_TOKENS } from '../store/launches.ts'
import type { CurveRow, TradeRow } from '../store/launches.ts'

/** pump.fun: tokens sellable on the curve (793.1M of the 1B supply; the rest migrates with the liquidity). */
export const PUMP_INITIAL_REAL_TOKENS = 793_100_000_000_000n
/** Virtual tokens never sold: virtual − real at the start (279.9M). */
const UNSOLD_VIRTUAL = PUMP_INITIAL_VIRTUAL_TOKENS - PUMP_INITIAL_REAL_TOKENS
const TOTAL_SUPPLY = 1_000_000_000_000_000n
/** The window the fill rate is measured over. */
export const FILL_WINDOW_S = 600
/** Buys within this many slots of the creation count as the launch block's (a bundle). */
export const BUNDLE_SLOTS = 1n
/** Buys within this many slots of the creation count as snipes (the deep dive's sniper window). */
export const SNIPE_SLOTS = 3n

export interface CurveReading {
  progressPct: number
  priceSol: number
  marketCapSol: number
  ageS: number | null
  trades: number
  buys: number
  sells: number
  uniqueTraders: number
  volumeSol: number
  /** Progress gained per minute over the last FILL_WINDOW_S (or since creation if younger); null without trades in it. */
  fillRatePctPerMin: number | null
  minutesToGraduation: number | null
  /** Wallets other than the creator that bought in the launch block (or the next). */
  bundledBuyers: number
  /** Share of the tokens sold so far that went to buyers within SNIPE_SLOTS of the creation (creator excluded). */
  sniperSharePct: number | null
  /** Share of the SOL volume from wallets that both bought and sold. */
  roundTripSharePct: number | null
  creatorSold: boolean
}

/** Percent of the sellable tokens sold, at these virtual token reserves. */
export function progressAt(virtualTokenReserves: bigint): number {
  const realLeft = virtualTokenReserves - UNSOLD_VIRTUAL
  const sold = PUMP_INITIAL_REAL_TOKENS - (realLeft < 0n ? 0n : realLeft)
  return Math.round((Number(sold) / Number(PUMP_INITIAL_REAL_TOKENS)) * 100 * 100) / 100
}

const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places

export function readCurve(curve: CurveRow, trades: readonly TradeRow[], nowS: number): CurveReading {
  const progressPct = curve.complete ? 100 : progressAt(curve.virtualTokenReserves)
  const priceSol = Number(curve.virtualSolReserves) / Number(curve.virtualTokenReserves) / 1e3
  const buys = trades.filter((trade) => trade.isBuy)
  const volume = trades.reduce((sum, trade) => sum + Number(trade.solAmount) / 1e9, 0)
  // Fill rate: the progress at the window's start (the last trade before it) against now.
  const windowStart = Math.max(nowS - FILL_WINDOW_S, curve.createdAt ?? nowS - FILL_WINDOW_S)
  const before = [...trades].reverse().find((trade) => trade.at <= windowStart)
  const startProgress = before ? progressAt(before.virtualTokenReserves) : curve.createdAt !== null ? 0 : null
  const inWindow = trades.some((trade) => trade.at > windowStart)
  const minutes = (nowS - windowStart) / 60
  const fillRate =
    startProgress === null || !inWindow || minutes <= 0 ? null : round((progressPct - startProgress) / minutes, 3)
  const createdSlot = curve.createdSlot
  const early = (slots: bigint) =>
    createdSlot === null
      ? []
      : buys.filter((trade) => trade.slot <= createdSlot + slots && trade.user !== curve.creator)
  const soldTokens = Number(PUMP_INITIAL_REAL_TOKENS) * (progressPct / 100)
  const snipedTokens = early(SNIPE_SLOTS).reduce((sum, trade) => sum + Number(trade.tokenAmount), 0)
  const sellers = new Set(trades.filter((trade) => !trade.isBuy).map((trade) => trade.user))
  const buyers = new Set(buys.map((trade) => trade.user))
  const both = new Set([...sellers].filter((wallet) => buyers.has(wallet)))
  const roundTripVolume = trades
    .filter((trade) => both.has(trade.user))
    .reduce((sum, trade) => sum + Number(trade.solAmount) / 1e9, 0)
  return {
    progressPct,
    priceSol,
    marketCapSol: round(priceSol * (Number(TOTAL_SUPPLY) / 1e6), 4),
    ageS: curve.createdAt === null ? null : Math.max(0, nowS - curve.createdAt),
    trades: trades.length,
    buys: buys.length,
    sells: trades.length - buys.length,
    uniqueTraders: new Set(trades.map((trade) => trade.user)).size,
    volumeSol: round(volume, 4),
    fillRatePctPerMin: fillRate,
    minutesToGraduation:
      curve.complete || fillRate === null || fillRate <= 0 ? null : round((100 - progressPct) / fillRate, 1),
    bundledBuyers: new Set(early(BUNDLE_SLOTS).map((trade) => trade.user)).size,
    sniperSharePct: createdSlot === null || soldTokens <= 0 ? null : round((snipedTokens / soldTokens) * 100),
    roundTripSharePct: volume <= 0 ? null : round((roundTripVolume / volume) * 100),
    creatorSold: curve.creator !== null && sellers.has(curve.creator),
  }
}
