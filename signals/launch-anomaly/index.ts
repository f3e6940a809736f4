import { Type } from '@sinclair/typebox'
import { defineSignal, finding, ok, signalMeta, unknownOutcome, type Factor } from '../../src/pipeline/signal.ts'
import { num } from '../../src/rendering/format.ts'

const HOUR = 3_600

const meta = signalMeta({
  id: 'launch-anomaly',
  riskGroup: 'behavioral_risk',
  version: '1.0.0',
  title: 'Launch anomalies',
  risk: 'A token younger than a day, or one whose pool opened minutes ago.',
  why: "Most rug pulls happen in a token's first hours, before any track record exists.",
  scanners: ['quick_scan'],
  facts: ['market'],
  impact: 'medium',
  confidence: 'medium',
  options: Type.Object({ newHours: Type.Number(), veryNewHours: Type.Number() }),
  // The reference penalty for age under a day is −15; under an hour there is not even a price history.
  defaults: { newHours: 24, veryNewHours: 1 },
  findings: {
    VERY_NEW_TOKEN: {
      severity: 'high',
      points: -20,
      when: 'the oldest pair opened less than `veryNewHours` ago',
      why: 'Most rugs happen in the first hours',
    },
    NEW_TOKEN: {
      severity: 'medium',
      points: -15,
      when: 'the oldest pair opened less than `newHours` ago',
      why: 'The reference weight for a token under a day old',
    },
  },
})

export default defineSignal({
  meta,
  detect(facts, options, { now }) {
    const market = facts.get('market')
    if (!market)
      return unknownOutcome(meta, ['market'], { launch_anomaly: { detected: null, pair_age_hours: null, reasons: [] } })
    const created = market.pairs
      .map((pair) => pair.pairCreatedAt)
      .filter((value): value is number => typeof value === 'number')
    if (created.length === 0) return ok([], { launch_anomaly: { detected: null, pair_age_hours: null, reasons: [] } })
    const ageHours = Math.round(((now - Math.min(...created) / 1000) / HOUR) * 10) / 10
    const found: Factor[] = []
    if (ageHours < options.veryNewHours)
      found.push(
        finding(
          meta,
          options,
          'VERY_NEW_TOKEN',
          `Trading for ${num(ageHours)} h`,
          'The first pool opened less than an hour ago.',
          { pair_age_hours: ageHours },
        ),
      )
    else if (ageHours < options.newHours)
      found.push(
        finding(
          meta,
          options,
          'NEW_TOKEN',
          `Trading for ${num(ageHours)} h`,
          'The first pool opened less than a day ago.',
          {
            pair_age_hours: ageHours,
          },
        ),
      )
    return ok(found, {
      launch_anomaly: {
        detected: found.length > 0,
        pair_age_hours: ageHours,
        reasons: found.map((entry) => entry.code),
      },
    })
  },
})
