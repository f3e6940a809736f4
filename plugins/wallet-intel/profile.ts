/**
 * What a wallet's trades say about it (pure; docs/catalogue.md §Wallet intel): its figures, its style,
 * whether its trades are worth copying, and a verdict. Every rule and threshold is here, documented.
 */
import type { Position, WalletTrade } from './wallet-trades.ts'
import { count, howMany, pct } from '../../src/rendering/format.ts'

export const BEHAVIOUR_STYLES = ['sniper', 'bot_like', 'flipper', 'swing', 'holder', 'insufficient_data'] as const
export type BehaviourStyle = (typeof BEHAVIOUR_STYLES)[number]
export const WORTHINESS_LABELS = ['HIGH', 'MEDIUM', 'LOW', 'AVOID', 'UNKNOWN'] as const
export const VERDICTS = [
  'RUGGER',
  'PROFITABLE_TRADER',
  'BREAKEVEN_TRADER',
  'LOSING_TRADER',
  'BOT',
  'SNIPER',
  'UNPROVEN',
] as const

/** Fewer trades than this: the style is insufficient_data. */
export const MIN_TRADES_FOR_STYLE = 3
/** Fewer closed positions than this: worthiness UNKNOWN and the verdict UNPROVEN. */
export const MIN_CLOSED_FOR_RECORD = 3
/** Bot-like: at least this many trades at this pace or more. */
const BOT_MIN_TRADES = 20
const BOT_TRADES_PER_HOUR = 30
/** Sniper: at least this share of the assessed tokens bought within the launch window. */
const SNIPER_SHARE = 0.5
const HOUR_S = 3_600
const DAY_S = 24 * HOUR_S
/** A result within ±2% of its cost is breakeven. */
const BREAKEVEN_PCT = 2

export interface Figures {
  total_trades: number
  buys: number
  sells: number
  tokens_traded: number
  closed_positions: number
  open_positions: number
  win_rate_pct: number | null
  realized_pnl_usd: number | null
  realized_pnl_pct: number | null
  avg_hold_time_s: number | null
  median_hold_time_s: number | null
}

const median = (values: number[]) => {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places + 0

/** The wallet's figures; results only from positions whose every leg the history shows. */
export function figuresOf(trades: readonly WalletTrade[], positions: readonly Position[]): Figures {
  const closed = positions.filter((position) => position.closed && !position.unmatched)
  const results = closed.map((position) => position.proceedsUsd - position.costUsd)
  const priced = results.every((result) => Number.isFinite(result))
  const holds = closed
    .filter((position) => position.openedAt !== null && position.closedAt !== null)
    .map((position) => position.closedAt! - position.openedAt!)
  const cost = closed.reduce((sum, position) => sum + position.costUsd, 0)
  const pnl = results.reduce((sum, result) => sum + result, 0)
  return {
    total_trades: trades.length,
    buys: trades.filter((trade) => trade.side === 'buy').length,
    sells: trades.filter((trade) => trade.side === 'sell').length,
    tokens_traded: new Set(trades.map((trade) => trade.mint)).size,
    closed_positions: closed.length,
    open_positions: positions.filter((position) => !position.closed).length,
    // A win is a round trip that returned more than it cost (in SOL when it was all SOL: exact).
    win_rate_pct:
      closed.length === 0
        ? null
        : round(
            (closed.filter((position) =>
              position.solOnly ? position.proceedsSol > position.costSol : position.proceedsUsd > position.costUsd,
            ).length /
              closed.length) *
              100,
          ),
    realized_pnl_usd: closed.length === 0 ? 0 : priced ? round(pnl) : null,
    realized_pnl_pct: closed.length === 0 || !priced || cost <= 0 ? null : round((pnl / cost) * 100),
    avg_hold_time_s: holds.length === 0 ? null : Math.round(holds.reduce((sum, hold) => sum + hold, 0) / holds.length),
    median_hold_time_s: median(holds) === null ? null : Math.round(median(holds)!),
  }
}

export interface StyleInputs {
  trades: readonly WalletTrade[]
  figures: Figures
  /** Tokens whose launch was read, and how many of them the wallet bought within the launch window. */
  launches: { assessed: number; sniped: number }
}

/** The wallet's style, by the first rule that holds (docs/catalogue.md). */
export function styleOf({ trades, figures, launches }: StyleInputs): BehaviourStyle {
  const times = trades.map((trade) => trade.time).filter((time): time is number => time !== null)
  const spanH = times.length > 1 ? Math.max((Math.max(...times) - Math.min(...times)) / HOUR_S, 1 / 60) : null
  if (trades.length >= BOT_MIN_TRADES && spanH !== null && trades.length / spanH >= BOT_TRADES_PER_HOUR)
    return 'bot_like'
  // Buying within a launch's first slots is a fact about the wallet however few its trades.
  if (launches.assessed > 0 && launches.sniped / launches.assessed >= SNIPER_SHARE) return 'sniper'
  if (trades.length < MIN_TRADES_FOR_STYLE) return 'insufficient_data'
  const hold = figures.median_hold_time_s
  if (hold !== null && hold < DAY_S) return 'flipper'
  if (hold !== null && hold >= 7 * DAY_S) return 'holder'
  if (hold === null && figures.open_positions > 0 && figures.sells === 0) return 'holder'
  return 'swing'
}

export interface Worthiness {
  score: number | null
  label: (typeof WORTHINESS_LABELS)[number]
  reasons: string[]
}

/**
 * Whether following this wallet's trades is worth it: UNKNOWN under MIN_CLOSED_FOR_RECORD round trips;
 * AVOID for bots and snipers (their edge is speed a copier does not have) and for a loss; else a score
 * from the win rate (up to 60 points) and the return on cost (up to 40), HIGH ≥ 70, MEDIUM ≥ 45.
 */
export function worthinessOf(figures: Figures, style: BehaviourStyle, rugs = 0): Worthiness {
  if (rugs > 0)
    return {
      score: 0,
      label: 'AVOID',
      reasons: [`pulled the liquidity of ${count(rugs, 'token')} it created`],
    }
  if (figures.closed_positions < MIN_CLOSED_FOR_RECORD)
    return {
      score: null,
      label: 'UNKNOWN',
      reasons: [`${howMany(figures.closed_positions, 'round trip')} in the history read: too few to judge`],
    }
  const reasons: string[] = []
  if (style === 'bot_like' || style === 'sniper') reasons.push(`a ${style.replace('_', '-')} wallet: its edge is speed`)
  const pnlPct = figures.realized_pnl_pct
  if (pnlPct !== null && pnlPct < -BREAKEVEN_PCT) reasons.push(`lost ${pct(-pnlPct)} of what it put in`)
  const winPoints = ((figures.win_rate_pct ?? 0) / 100) * 60
  const returnPoints = pnlPct === null ? 0 : Math.max(0, Math.min(40, pnlPct))
  const score = Math.round(winPoints + returnPoints)
  if (reasons.length > 0) return { score, label: 'AVOID', reasons }
  reasons.push(`wins ${pct(figures.win_rate_pct)} of ${count(figures.closed_positions, 'round trip')}`)
  if (pnlPct !== null) reasons.push(`returned ${pct(pnlPct, { signed: true })} on cost`)
  return { score, label: score >= 70 ? 'HIGH' : score >= 45 ? 'MEDIUM' : 'LOW', reasons }
}

/** RUGGER first (it pulled its own token's liquidity), then BOT, SNIPER, then the record. */
export function verdictOf(figures: Figures, style: BehaviourStyle, rugs = 0): (typeof VERDICTS)[number] {
  if (rugs > 0) return 'RUGGER'
  if (style === 'bot_like') return 'BOT'
  if (style === 'sniper') return 'SNIPER'
  if (figures.closed_positions < MIN_CLOSED_FOR_RECORD || figures.realized_pnl_pct === null) return 'UNPROVEN'
  if (figures.realized_pnl_pct > BREAKEVEN_PCT) return 'PROFITABLE_TRADER'
  if (figures.realized_pnl_pct < -BREAKEVEN_PCT) return 'LOSING_TRADER'
  return 'BREAKEVEN_TRADER'
}
