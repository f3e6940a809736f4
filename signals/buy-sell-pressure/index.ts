import { Type } from '@sinclair/typebox'
import { defineSignal, finding, signalMeta, type Factor } from '../../src/pipeline/signal.ts'
import { marketPairs, round, tradeCounts } from '../../src/pipeline/derive/market-pairs.ts'
import { noMarket, notMeasured, outcomeOf } from '../../src/pipeline/derive/not-measured.ts'
import { covers, tradesSince, marketInputs } from '../../src/pipeline/derive/trade-tape.ts'

const DAY_S = 24 * 60 * 60

import type { Level } from '../../src/kernel/vocabulary.ts'
import { count, pct } from '../../src/rendering/format.ts'

const meta = signalMeta({
  id: 'buy-sell-pressure',
  riskGroup: 'market_risk',
  version: '1.0.0',
  title: 'Buy and sell pressure',
  risk: "Sellers dominate the last day's flow.",
  why: 'When most of the value traded is selling, someone is exiting into every bid; buying into that flow is providing their exit liquidity.',
  scanners: ['market_intel'],
  facts: ['market', 'trades'],
  impact: 'medium',
  confidence: 'medium',
  options: Type.Object({
    highShare: Type.Number({ minimum: 0, maximum: 1 }),
    mediumShare: Type.Number({ minimum: 0, maximum: 1 }),
    minTrades: Type.Integer({ minimum: 1 }),
  }),
  // A 60/40 split of the value traded is a clear imbalance; under 5 trades a day one trade decides
  // the split, so no pressure is read from it.
  defaults: { highShare: 0.6, mediumShare: 0.4, minTrades: 5 },
  findings: {
    SELL_PRESSURE_HIGH: {
      severity: 'medium',
      points: -10,
      when: "sellers carry at least `highShare` of the day's flow",
      why: "Buying into it is providing sellers' exit liquidity",
    },
    BUY_PRESSURE_HIGH: { severity: 'info', points: 0, when: 'buyers carry at least `highShare` of the flow' },
    PRESSURE_BALANCED: { severity: 'info', points: 0, when: 'neither side reaches `highShare`' },
    FEW_TRADES: { severity: 'info', points: 0, when: 'fewer than `minTrades` trades were read' },
  },
})

export default defineSignal({
  meta,
  detect(facts, options, { mint, now }) {
    const { market, tape, missing } = marketInputs(facts, mint)
    const pairs = marketPairs(facts, mint)
    if (market && pairs.length === 0)
      return noMarket(meta, { buy_sell_ratio: null, buy_pressure: null, sell_pressure: null })

    // Counts: the market's 24 h transactions; without market data, the trades when they span the day.
    const day = tape ? tradesSince(tape, now - DAY_S) : []
    const counts = market
      ? tradeCounts(pairs, 'h24')
      : tape && covers(tape, now - DAY_S)
        ? {
            buys: day.filter((trade) => trade.side === 'buy').length,
            sells: day.filter((trade) => trade.side === 'sell').length,
          }
        : null
    const ratio = counts ? round(counts.buys / Math.max(counts.sells, 1), 2) : null

    // Pressure: the buy share of the value traded on the main pool in the last day (a few large sells
    // outweigh many small buys); without those trades, the buy share of the transaction count.
    const value = (side: 'buy' | 'sell') =>
      day.filter((trade) => trade.side === side).reduce((sum, trade) => sum + trade.quoteAtomic, 0)
    const basis =
      day.length >= options.minTrades
        ? 'trade_value'
        : counts && counts.buys + counts.sells >= options.minTrades
          ? 'trade_count'
          : 'too_few_trades'
    const buyShare =
      basis === 'trade_value'
        ? value('buy') / (value('buy') + value('sell') || 1)
        : basis === 'trade_count'
          ? counts!.buys / (counts!.buys + counts!.sells)
          : null
    // Only without market data and without a day of trades: `missing` names what was lost.
    if (counts === null && buyShare === null)
      return outcomeOf(meta, missing, [], { buy_sell_ratio: null, buy_pressure: null, sell_pressure: null })
    const level = (share: number | null): Level =>
      share === null ? 'LOW' : share >= options.highShare ? 'HIGH' : share >= options.mediumShare ? 'MEDIUM' : 'LOW'
    const buy_pressure = level(buyShare)
    const sell_pressure = level(buyShare === null ? null : 1 - buyShare)
    const evidence = {
      buys_24h: counts?.buys ?? null,
      sells_24h: counts?.sells ?? null,
      buy_share: buyShare === null ? null : round(buyShare, 3),
      basis,
    }
    const found: Factor[] = []
    if (counts === null)
      found.push(
        notMeasured(meta, ['buy_sell_ratio'], 'Without market data, the trades read do not span the last day.'),
      )
    if (sell_pressure === 'HIGH')
      found.push(
        finding(
          meta,
          options,
          'SELL_PRESSURE_HIGH',
          `Sellers took ${pct(round((1 - buyShare!) * 100, 1))} of the flow`,
          'Selling dominated the last day: holders are exiting.',
          evidence,
        ),
      )
    else if (buy_pressure === 'HIGH')
      found.push(
        finding(
          meta,
          options,
          'BUY_PRESSURE_HIGH',
          `Buyers took ${pct(round(buyShare! * 100, 1))} of the flow`,
          'Buying dominated the last day.',
          evidence,
        ),
      )
    else if (basis === 'too_few_trades')
      found.push(
        finding(
          meta,
          options,
          'FEW_TRADES',
          'Too few trades to read pressure',
          `Fewer than ${count(options.minTrades, 'trade')} in the last day: no pressure either way.`,
          evidence,
        ),
      )
    else
      found.push(
        finding(
          meta,
          options,
          'PRESSURE_BALANCED',
          'Buying and selling balanced',
          'Neither side dominated the last day.',
          evidence,
        ),
      )
    return outcomeOf(meta, missing, found, { buy_sell_ratio: ratio, buy_pressure, sell_pressure })
  },
})
