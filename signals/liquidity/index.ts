import { Type } from '@sinclair/typebox'
import { defineSignal, finding, ok, signalMeta, unknownOutcome } from '../../src/pipeline/signal.ts'

import type { LiquidityRating as Rating } from '../../src/kernel/vocabulary.ts'
import { usd as dollars } from '../../src/rendering/format.ts'

/**
 * Liquidity bands in USD (the reference service's, so ratings are comparable): DEEP absorbs a $10k
 * trade with under 2% impact, THIN moves over 10% on a $500 sell, below $5k the pool is a trap door.
 */
const BANDS: readonly { rating: Exclude<Rating, 'UNKNOWN'>; min: number; meaning: string; guidance: string }[] = [
  {
    rating: 'DEEP',
    min: 500_000,
    meaning: 'Deep liquidity: large trades move the price little.',
    guidance: 'Position sizes up to a few thousand USD exit with little slippage.',
  },
  {
    rating: 'ADEQUATE',
    min: 50_000,
    meaning: 'Adequate liquidity for ordinary trades.',
    guidance: 'Keep single trades under about 1% of the pool; split larger exits.',
  },
  {
    rating: 'THIN',
    min: 5_000,
    meaning: 'Thin liquidity: a few hundred dollars move the price several percent.',
    guidance: 'Trade small, set tight slippage, expect a hard exit.',
  },
  {
    rating: 'CRITICAL',
    min: 0,
    meaning: 'Critical: the pool is nearly empty; selling may be impossible at any useful price.',
    guidance: 'Avoid buying: there is no exit.',
  },
]

const meta = signalMeta({
  id: 'liquidity',
  riskGroup: 'liquidity_risk',
  version: '1.1.0',
  title: 'Liquidity depth',
  risk: 'Too little liquidity to exit.',
  why: 'Liquidity is the exit: with a thin pool a sell crashes the price, and a pulled pool leaves holders nothing to sell into.',
  scanners: ['quick_scan', 'deep_dive'],
  facts: ['market'],
  impact: 'high',
  confidence: 'high',
  options: Type.Object({ criticalUsd: Type.Number(), lowUsd: Type.Number() }),
  // Reference penalties: under $1k −35, under $10k −20.
  defaults: { criticalUsd: 1_000, lowUsd: 10_000 },
  findings: {
    LIQUIDITY_CRITICAL: {
      severity: 'critical',
      points: -35,
      when: "total liquidity of the token's pairs under `criticalUsd`",
      why: 'The reference weight: any sale crashes the price; a holder cannot get out, so the grade is capped at D',
      ceiling: 'D',
    },
    LIQUIDITY_LOW: {
      severity: 'high',
      points: -20,
      when: 'total liquidity under `lowUsd`',
      why: 'The reference weight: a sale of a few hundred dollars moves the price a lot',
    },
    NO_MARKET: {
      severity: 'critical',
      points: -35,
      when: 'no pair trades the token',
      why: 'There is no exit (weighted as the critical band)',
    },
  },
})

export default defineSignal({
  meta,
  detect(facts, options) {
    const market = facts.get('market')
    if (!market)
      return unknownOutcome(meta, ['market'], {
        liquidity_check: {
          rating: 'UNKNOWN',
          meaning: 'Liquidity could not be measured: market data is unavailable.',
          threshold_usd: null,
          action_guidance: 'Check the pools yourself before trading.',
        },
        liquidity_usd: null,
      })
    const usd = market.pairs.reduce((sum, pair) => sum + (pair.liquidity?.usd ?? 0), 0)
    if (market.pairs.length === 0)
      return ok(
        [finding(meta, options, 'NO_MARKET', 'No market', 'No pool trades this token: it cannot be sold.', {})],
        {
          liquidity_check: {
            rating: 'CRITICAL',
            meaning: 'No pool trades this token: there is no exit.',
            threshold_usd: BANDS[2]!.min,
            action_guidance: 'Avoid buying: there is no exit.',
          },
          liquidity_usd: 0,
        },
      )
    const band = BANDS.find((entry) => usd >= entry.min)!
    const found =
      usd < options.criticalUsd
        ? [
            finding(
              meta,
              options,
              'LIQUIDITY_CRITICAL',
              `Liquidity ${dollars(usd)}`,
              'Under $1k of liquidity: any sale crashes the price.',
              { liquidity_usd: usd },
            ),
          ]
        : usd < options.lowUsd
          ? [
              finding(
                meta,
                options,
                'LIQUIDITY_LOW',
                `Liquidity ${dollars(usd)}`,
                'Under $10k of liquidity: sales of a few hundred dollars move the price a lot.',
                { liquidity_usd: usd },
              ),
            ]
          : []
    return ok(found, {
      // For CRITICAL the threshold is the one it failed to reach (THIN's floor); otherwise its band's floor.
      liquidity_check: {
        rating: band.rating,
        meaning: band.meaning,
        threshold_usd: band.rating === 'CRITICAL' ? BANDS[2]!.min : band.min,
        action_guidance: band.guidance,
      },
      liquidity_usd: Math.round(usd * 100) / 100,
    })
  },
})
