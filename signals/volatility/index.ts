import { Type } from '@sinclair/typebox'
import { defineSignal, finding, signalMeta, type Factor } from '../../src/pipeline/signal.ts'
import { marketPairs, priceChange, pricingPair, round } from '../../src/pipeline/derive/market-pairs.ts'
import { noMarket, notMeasured, outcomeOf } from '../../src/pipeline/derive/not-measured.ts'
import { tradesSince, marketInputs } from '../../src/pipeline/derive/trade-tape.ts'
import { pct } from '../../src/rendering/format.ts'

const DAY_S = 24 * 60 * 60

const meta = signalMeta({
  id: 'volatility',
  riskGroup: 'market_risk',
  version: '1.1.0',
  title: 'Volatility',
  risk: 'The price swings widely within a day.',
  why: 'A wide swing means an entry can be underwater by a third within hours, and stops fill far from where they were set.',
  scanners: ['market_intel'],
  facts: ['market', 'trades', 'token_list'],
  impact: 'low',
  confidence: 'medium',
  options: Type.Object({ mediumPct: Type.Number({ minimum: 0 }), highPct: Type.Number({ minimum: 0 }) }),
  // Under 10% in a day is a calm day even for a large cap; 30% is a memecoin's ordinary day and a
  // large cap's crisis.
  defaults: { mediumPct: 10, highPct: 30 },
  findings: {
    VOLATILITY_HIGH: {
      severity: 'medium',
      points: -5,
      when: "the day's widest swing is at least `highPct`",
      why: 'Expect large moves against any entry',
    },
    VOLATILITY_MEDIUM: { severity: 'info', points: 0, when: 'the swing is at least `mediumPct`' },
    VOLATILITY_LOW: { severity: 'info', points: 0, when: 'the swing is under `mediumPct`' },
  },
})

export default defineSignal({
  meta,
  detect(facts, options, { mint, now }) {
    const { market, tape, missing } = marketInputs(facts, mint)
    const pairs = marketPairs(facts, mint)
    if (market && pairs.length === 0) return noMarket(meta, { volatility: null })

    // The swing: the widest of the token's own window changes and the spread of its trade prices
    // over the last day (high over low), in percent.
    const pricing = pricingPair(pairs)
    const list = facts.get('token_list')
    const windows = {
      h1: priceChange(pricing, 'h1', list),
      h6: priceChange(pricing, 'h6', list),
      h24: priceChange(pricing, 'h24', list),
    }
    const day = tape ? tradesSince(tape, now - DAY_S) : []
    const range =
      day.length >= 2
        ? round(
            (Math.max(...day.map((trade) => trade.unitPrice)) / Math.min(...day.map((trade) => trade.unitPrice)) - 1) *
              100,
            2,
          )
        : null
    const swings = [...Object.values(windows), range].filter((value): value is number => value !== null).map(Math.abs)
    if (swings.length === 0) {
      const found =
        missing.length === 0
          ? [
              notMeasured(
                meta,
                ['volatility'],
                'No price change of the token is reported and fewer than two trades were read in the last day.',
              ),
            ]
          : []
      return outcomeOf(meta, missing, found, { volatility: null })
    }
    const swing = Math.max(...swings)
    const volatility = swing >= options.highPct ? 'HIGH' : swing >= options.mediumPct ? 'MEDIUM' : 'LOW'
    const evidence = {
      swing_pct: swing,
      change_1h_pct: windows.h1,
      change_6h_pct: windows.h6,
      change_24h_pct: windows.h24,
      trade_range_24h_pct: range,
      trades_24h: day.length,
    }
    const found: Factor[] =
      volatility === 'HIGH'
        ? [
            finding(
              meta,
              options,
              'VOLATILITY_HIGH',
              `Price swing ${pct(swing)} in a day`,
              `The price moved ${pct(swing)} within the last day: expect large moves against any entry.`,
              evidence,
            ),
          ]
        : [
            finding(
              meta,
              options,
              volatility === 'MEDIUM' ? 'VOLATILITY_MEDIUM' : 'VOLATILITY_LOW',
              `Price swing ${pct(swing)} in a day`,
              `The widest move of the last day was ${pct(swing)}.`,
              evidence,
            ),
          ]
    return outcomeOf(meta, missing, found, { volatility })
  },
})
