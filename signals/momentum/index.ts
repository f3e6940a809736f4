import { Type } from '@sinclair/typebox'
import { marketPairs, priceChange, pricingPair } from '../../src/pipeline/derive/market-pairs.ts'
import { defineSignal, finding, ok, signalMeta, unknownOutcome, type Factor } from '../../src/pipeline/signal.ts'
import { pct } from '../../src/rendering/format.ts'

/** Weights of the price changes in the price part (recent moves count most). */
const PRICE_WEIGHTS = { h1: 0.5, h6: 0.3, h24: 0.2 } as const
/** A weighted move of this many percent puts the price part about three quarters of the way to 0 or 100 (tanh(1)). */
const PRICE_SCALE_PCT = 25
/** Weights of the two parts of the score: price, then volume trend. */
const PRICE_WEIGHT = 0.6
const VOLUME_WEIGHT = 0.4

const meta = signalMeta({
  id: 'momentum',
  riskGroup: 'market_risk',
  version: '1.2.0',
  title: 'Momentum',
  risk: 'The price collapsing, or going parabolic, over the last day.',
  why: 'A halving in a day is sellers leaving; a doubling is a chase that usually gives back most of it. Either way a position sized now sits in the swing.',
  scanners: ['deep_dive'],
  facts: ['market', 'token_list'],
  impact: 'low',
  confidence: 'medium',
  options: Type.Object({ crashPct: Type.Number({ maximum: 0 }), parabolicPct: Type.Number({ minimum: 0 }) }),
  defaults: { crashPct: -50, parabolicPct: 100 },
  findings: {
    PRICE_CRASH_24H: {
      severity: 'medium',
      points: -10,
      when: "the token's own 24 h change ≤ `crashPct`",
      why: 'A halving in a day is sellers leaving',
    },
    PARABOLIC_24H: {
      severity: 'low',
      points: -5,
      when: 'the 24 h change ≥ `parabolicPct`',
      why: 'Buying now chases the move',
    },
  },
})

const round2 = (value: number) => Math.round(value * 100) / 100

export default defineSignal({
  meta,
  detect(facts, options, { mint }) {
    const market = facts.get('market')
    if (!market) return unknownOutcome(meta, ['market'])
    const pairs = marketPairs(facts, mint)
    // Nothing trades: no volume and no momentum (measured, not assumed).
    if (pairs.length === 0) return ok([], { momentum_score: 0, volume_24h: 0 })
    // The token's own changes: DexScreener's are the base token's, so for a token only ever quoted
    // (USDC in SOL/USDC) they come from the token list; without them its price part stays flat rather
    // than taking SOL's move.
    const pricing = pricingPair(pairs)
    const list = facts.get('token_list')
    const change = {
      h1: priceChange(pricing, 'h1', list) ?? undefined,
      h6: priceChange(pricing, 'h6', list) ?? undefined,
      h24: priceChange(pricing, 'h24', list) ?? undefined,
    }
    const weighted =
      PRICE_WEIGHTS.h1 * (change.h1 ?? 0) + PRICE_WEIGHTS.h6 * (change.h6 ?? 0) + PRICE_WEIGHTS.h24 * (change.h24 ?? 0)
    const pricePart = 50 + 50 * Math.tanh(weighted / PRICE_SCALE_PCT)
    const volume = (window: 'h6' | 'h24') => pairs.reduce((sum, { pair }) => sum + (pair.volume?.[window] ?? 0), 0)
    const day = volume('h24')
    // The last 6 hours' hourly volume against the day's: each doubling moves the part by tanh(1) of its range.
    const trend = day > 0 ? volume('h6') / 6 / (day / 24) : 0
    const volumePart = day > 0 && trend > 0 ? 50 + 50 * Math.tanh(Math.log2(trend)) : 0
    const score = Math.round(PRICE_WEIGHT * pricePart + VOLUME_WEIGHT * volumePart)
    const change24 = change.h24
    const found: Factor[] = []
    const evidence = {
      price_change_pct: change,
      volume_24h_usd: round2(day),
      volume_trend: round2(trend),
      momentum_score: score,
    }
    if (change24 !== undefined && change24 <= options.crashPct)
      found.push(
        finding(
          meta,
          options,
          'PRICE_CRASH_24H',
          `Price ${pct(change24, { signed: true })} in 24 h`,
          'The price more than halved in a day.',
          evidence,
        ),
      )
    else if (change24 !== undefined && change24 >= options.parabolicPct)
      found.push(
        finding(
          meta,
          options,
          'PARABOLIC_24H',
          `Price ${pct(change24, { signed: true })} in 24 h`,
          'The price more than doubled in a day: buying now chases the move.',
          evidence,
        ),
      )
    return ok(found, {
      momentum_score: score,
      volume_24h: round2(day),
      ...(change24 === undefined ? {} : { price_change_24h_pct: change24 }),
    })
  },
})
