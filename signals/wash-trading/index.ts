import { Type } from '@sinclair/typebox'
import type { FactName } from '../../src/facts/types.ts'
import {
  defineSignal,
  finding,
  missingOf,
  signalMeta,
  unknownOutcome,
  type Factor,
  type SignalOutcome,
} from '../../src/pipeline/signal.ts'
import { poolUnknown, POOL_FACTS } from '../../src/pipeline/derive/opening.ts'
import { linkWallets } from '../../src/pipeline/derive/wallet-links.ts'
import { washScore } from './score.ts'
import { count, pct } from '../../src/rendering/format.ts'

const HOUR_S = 3_600
const DAY_S = 24 * HOUR_S

const meta = signalMeta({
  id: 'wash-trading',
  riskGroup: 'behavioral_risk',
  version: '1.3.0',
  title: 'Wash trading',
  risk: 'Volume made by the same (or linked) wallets buying and selling back and forth.',
  why: 'Wash volume fakes demand: the token looks liquid and popular to buyers and trending lists while almost nobody trades it.',
  scanners: ['deep_dive'],
  // `funding` and `launch` link wallets into one trader (without them each wallet counts alone); the
  // pool facts tell "no pool" from "pool unknown".
  facts: ['trades', 'funding', 'launch', ...POOL_FACTS],
  impact: 'high',
  confidence: 'medium',
  options: Type.Object({
    extremeScore: Type.Number(),
    extremeSharePct: Type.Number({ minimum: 0, maximum: 100 }),
    highScore: Type.Number(),
    suspectScore: Type.Number(),
    minSwaps: Type.Integer({ minimum: 0 }),
  }),
  // At 90, or with four fifths of the volume in round trips, the market is the same wallets trading
  // with themselves: there is no real demand to sell into. At 60 most of the volume is repeated round
  // trips; at 30 a third is, or a few wallets make all the trades. Under ten swaps a day there is no
  // volume worth faking.
  defaults: { extremeScore: 90, extremeSharePct: 80, highScore: 60, suspectScore: 30, minSwaps: 10 },
  findings: {
    WASH_TRADING_EXTREME: {
      severity: 'critical',
      points: -30,
      when: 'wash-trading score ≥ `extremeScore`, or round trips carry at least `extremeSharePct` of the volume, with at least `minSwaps` swaps in the day',
      why: 'Nearly all the volume is fake: the price, the volume and the liquidity it advertises are made by its own wallets, and nobody real is there to buy — it rules the token out (grade capped at D, so the deep dive says AVOID)',
      ceiling: 'D',
      excludes: ['WASH_TRADING', 'WASH_TRADING_SUSPECTED'],
    },
    WASH_TRADING: {
      severity: 'high',
      points: -20,
      when: 'wash-trading score ≥ `highScore` (below the extreme), with at least `minSwaps` swaps in the day',
      why: 'Most of the volume is repeated round trips: the activity is fake; the grade is capped at C',
      ceiling: 'C',
      excludes: ['WASH_TRADING_SUSPECTED'],
    },
    WASH_TRADING_SUSPECTED: {
      severity: 'medium',
      points: -10,
      when: 'score ≥ `suspectScore`, with at least `minSwaps` swaps',
      why: 'A large part of the volume is round trips',
    },
    TRADES_WINDOW_PARTIAL: { severity: 'info', points: 0, when: 'the pool traded more in the day than is read' },
    WALLETS_NOT_LINKED: { severity: 'info', points: 0, when: 'scored wallet by wallet: funding or launch missing' },
  },
})

const round2 = (value: number) => Math.round(value * 100) / 100

type WashCode = 'WASH_TRADING_EXTREME' | 'WASH_TRADING' | 'WASH_TRADING_SUSPECTED'

/**
 * The wash finding a day of trading earns (at most one), from its score (0–100), the share of its
 * volume in repeated round trips (0–1) and its swap count; undefined when none.
 */
export function washFinding(
  wash: { score: number; roundTripShare: number },
  swaps: number,
  options: { extremeScore: number; extremeSharePct: number; highScore: number; suspectScore: number; minSwaps: number },
): WashCode | undefined {
  if (swaps < options.minSwaps) return undefined
  if (wash.score >= options.extremeScore || wash.roundTripShare * 100 >= options.extremeSharePct)
    return 'WASH_TRADING_EXTREME'
  if (wash.score >= options.highScore) return 'WASH_TRADING'
  if (wash.score >= options.suspectScore) return 'WASH_TRADING_SUSPECTED'
  return undefined
}

export default defineSignal({
  meta,
  detect(facts, options, { now }) {
    const trades = facts.get('trades')
    if (!trades) return unknownOutcome(meta, ['trades'])
    const poolMissing = poolUnknown(facts, trades.pool)
    if (poolMissing.length > 0) return unknownOutcome(meta, poolMissing)
    const linkMissing = missingOf(facts, ['funding', 'launch'])
    const links =
      linkMissing.length === 0 ? linkWallets(facts.get('funding')!, facts.get('launch')!.creator) : undefined
    const traderOf = (wallet: string) => links?.groupOf.get(wallet) ?? wallet

    const day = trades.swaps.filter((swap) => swap.blockTime !== null && swap.blockTime >= now - DAY_S)
    const hour = day.filter((swap) => swap.blockTime! >= now - HOUR_S)
    const wash = washScore(day, traderOf)
    const buys1h = hour.filter((swap) => swap.side === 'buy').length
    const sells1h = hour.length - buys1h
    const uniqueBuyers = new Set(day.filter((swap) => swap.side === 'buy').map((swap) => swap.wallet)).size
    const evidence = {
      swaps_24h: day.length,
      traders: wash.traders,
      round_trips: wash.roundTrips,
      round_trip_volume_share: wash.roundTripShare,
      trades_per_trader: wash.tradesPerTrader,
      wallets_linked: links !== undefined,
    }

    const found: Factor[] = []
    const code = washFinding(wash, day.length, options)
    if (code)
      found.push(
        finding(
          meta,
          options,
          code,
          `Wash trading score ${wash.score}${code === 'WASH_TRADING_EXTREME' ? ': the volume is fake' : ''}`,
          `${pct(Math.round(wash.roundTripShare * 100))} of the day's volume is repeated round trips; ${count(wash.tradesPerTrader, 'trade')} per trader.`,
          evidence,
        ),
      )
    if (!trades.complete24h)
      found.push(
        finding(
          meta,
          options,
          'TRADES_WINDOW_PARTIAL',
          'Last 24 h read in part',
          "The pool traded more than the transactions read: the day's counts are floors.",
          { covered_since: trades.coveredSince },
        ),
      )

    const fields = {
      trading_pattern: {
        // Buys per sell, sells counted as at least one (the market intel's buy_sell_ratio rule): 0 when
        // nothing was bought in the hour, also when nothing traded; swaps_1h tells the two apart.
        buy_sell_ratio_1h: round2(buys1h / Math.max(1, sells1h)),
        swaps_1h: hour.length,
        unique_buyers_24h: uniqueBuyers,
        wash_trading_score: wash.score,
        swaps_24h: day.length,
        window_complete: trades.complete24h,
      },
    }
    if (links) return { status: 'ok', factors: found, fields } satisfies SignalOutcome
    // Scored per wallet only: linked wallets may be counted as separate traders.
    return {
      status: 'unknown',
      missing: linkMissing as FactName[],
      factors: [
        ...found,
        finding(
          meta,
          options,
          'WALLETS_NOT_LINKED',
          'Wash trading: wallets not linked',
          `Scored wallet by wallet: ${linkMissing.join(', ')} could not be gathered, so linked wallets count as separate traders.`,
          { missing: linkMissing },
        ),
      ],
      fields,
    }
  },
})
