/**
 * Graduation momentum (pure; docs/catalogue.md §Graduation momentum): a score 0–100 for a curve close
 * to graduating, from what its own trades say (fill rate, recent buying, recent traders, progress) and
 * what the other components answered (market intel's price moves, the exit check, the developer's
 * history, the quick scan's grade). Every point is a cited factor; a component that did not answer adds
 * nothing and is named. Hard limits cap the score whatever the momentum.
 */
import type { ExitRating } from '../../src/kernel/vocabulary.ts'
import type { CurveReading } from '../../src/launchpad-index/curves.ts'
import { count, pct } from '../../src/rendering/format.ts'

export const MOMENTUM_LABELS = ['HOT', 'HEATING', 'COOLING', 'FLAT'] as const
export type MomentumLabel = (typeof MOMENTUM_LABELS)[number]

export interface MomentumFactor {
  factor: string
  points: number
  detail: string
}

export interface MomentumInputs {
  reading: CurveReading
  /** Over the last 10 minutes: share of the SOL volume that bought, and distinct traders. */
  recent: { buySharePct: number | null; traders: number }
  market: { priceChange5mPct: number | null; priceChange1hPct: number | null } | null
  /** The exit check of 10 USDC: sellable, the sale's price impact, and its rating (plugins/exit-check/service.ts). */
  exit: { sellable: boolean | null; impactPct: number | null; rating: ExitRating | null } | null
  developer: { previousRugs: number } | null
  grade: string | null
  flags: readonly string[]
}

/** Scores and caps; labels by score: HOT ≥ 75, HEATING ≥ 50, COOLING ≥ 25, else FLAT. */
export function momentumOf(input: MomentumInputs): { score: number; label: MomentumLabel; factors: MomentumFactor[] } {
  const factors: MomentumFactor[] = []
  const add = (factor: string, points: number, detail: string) => {
    if (points !== 0) factors.push({ factor, points, detail })
  }
  const { reading, recent, market, exit, developer, grade, flags } = input
  const rate = reading.fillRatePctPerMin
  if (rate !== null && rate > 0)
    add('FILL_RATE', Math.min(30, Math.round(rate * 10)), `Filling at ${pct(rate)} of the curve a minute.`)
  if (recent.buySharePct !== null)
    add(
      'RECENT_BUYING',
      recent.buySharePct >= 60 ? 15 : recent.buySharePct >= 50 ? 8 : 0,
      `${pct(recent.buySharePct)} of the last 10 minutes' volume bought.`,
    )
  add(
    'RECENT_TRADERS',
    recent.traders >= 20 ? 15 : recent.traders >= 10 ? 8 : recent.traders >= 5 ? 4 : 0,
    `${recent.traders === 0 ? 'No wallets' : count(recent.traders, 'wallet')} traded in the last 10 minutes.`,
  )
  add(
    'PROGRESS',
    reading.progressPct >= 85 ? 10 : reading.progressPct >= 70 ? 5 : 0,
    `${pct(reading.progressPct)} of the curve sold.`,
  )
  if (market) {
    const change = market.priceChange1hPct ?? market.priceChange5mPct
    if (change !== null)
      add(
        'PRICE_RISING',
        change > 20 ? 10 : change > 0 ? 5 : 0,
        `Price ${pct(change, { signed: true })} (market intel).`,
      )
  }
  if (exit?.sellable === true && exit.rating === 'CLEAN' && exit.impactPct !== null && exit.impactPct < 5)
    add('EXIT_OPEN', 10, `A 10 USDC exit sells back at ${pct(exit.impactPct)} impact (exit CLEAN).`)
  for (const flag of flags)
    if (flag === 'BUNDLED_LAUNCH' || flag === 'SNIPED' || flag === 'WASH_TRADING')
      add(flag, -10, `Flagged ${flag.toLowerCase().replaceAll('_', ' ')} on the launch radar.`)
  let score = Math.max(
    0,
    Math.min(
      100,
      factors.reduce((sum, entry) => sum + entry.points, 0),
    ),
  )
  const cap = (limit: number, factor: string, detail: string) => {
    if (score > limit) {
      factors.push({ factor, points: limit - score, detail })
      score = limit
    }
  }
  if (exit?.sellable === false || exit?.rating === 'BLOCKED')
    cap(20, 'NOT_SELLABLE', 'The exit check found it cannot be sold now: capped at 20.')
  if (exit?.rating === 'PUNITIVE')
    cap(25, 'EXIT_PUNITIVE', 'A 10 USDC exit loses over a fifth, or the route cannot absorb it: capped at 25.')
  if ((developer?.previousRugs ?? 0) > 0)
    cap(
      25,
      'DEVELOPER_RUGGED',
      `Its developer pulled liquidity from ${count(developer!.previousRugs, 'earlier token')}: capped at 25.`,
    )
  if (grade === 'D' || grade === 'F') cap(25, 'RISKY_GRADE', `Quick scan grade ${grade}: capped at 25.`)
  const label: MomentumLabel = score >= 75 ? 'HOT' : score >= 50 ? 'HEATING' : score >= 25 ? 'COOLING' : 'FLAT'
  return { score, label, factors }
}
