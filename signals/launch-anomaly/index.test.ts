import { describe, expect, test } from 'bun:test'
import type { Factor } from '../../src/pipeline/signal.ts'
import type { DexPair } from '../../src/sources/dexscreener.ts'
import { DAY, HOUR, market, MINT, NOW, pair, run } from '../../test/support/facts/index.ts'
import launchAnomaly from './index.ts'

/** A pair whose pool opened `ageS` seconds before NOW (pairCreatedAt is in milliseconds). */
const openedAgo = (ageS: number, address = 'Pool') => pair({ pairAddress: address, pairCreatedAt: (NOW - ageS) * 1000 })

const picked = (outcome: ReturnType<typeof run>) =>
  outcome.factors.map(({ code, severity, impact, hard_fail, evidence }) => ({
    code,
    severity,
    impact,
    hard_fail,
    evidence,
  }))

type Expected = Pick<Factor, 'code' | 'severity' | 'impact' | 'hard_fail' | 'evidence'>

const newToken = (hours: number): Expected => ({
  code: 'NEW_TOKEN',
  severity: 'medium',
  impact: -15,
  hard_fail: false,
  evidence: { pair_age_hours: hours },
})
const veryNewToken = (hours: number): Expected => ({
  code: 'VERY_NEW_TOKEN',
  severity: 'high',
  impact: -20,
  hard_fail: false,
  evidence: { pair_age_hours: hours },
})

describe('launch-anomaly: the age of the oldest pool against the default thresholds (1 h, 24 h)', () => {
  const cases: {
    name: string
    pairs: DexPair[]
    factors: Expected[]
    fields: { detected: boolean | null; pair_age_hours: number | null; reasons: string[] }
  }[] = [
    {
      name: 'a month-old pool: clean',
      pairs: [openedAgo(30 * DAY)],
      factors: [],
      fields: { detected: false, pair_age_hours: 720, reasons: [] },
    },
    {
      name: 'exactly a day old: no longer new',
      pairs: [openedAgo(DAY)],
      factors: [],
      fields: { detected: false, pair_age_hours: 24, reasons: [] },
    },
    {
      name: 'twelve hours old: new',
      pairs: [openedAgo(12 * HOUR)],
      factors: [newToken(12)],
      fields: { detected: true, pair_age_hours: 12, reasons: ['NEW_TOKEN'] },
    },
    {
      name: 'exactly an hour old: new, not very new',
      pairs: [openedAgo(HOUR)],
      factors: [newToken(1)],
      fields: { detected: true, pair_age_hours: 1, reasons: ['NEW_TOKEN'] },
    },
    {
      name: 'thirty minutes old: very new (and only that finding)',
      pairs: [openedAgo(30 * 60)],
      factors: [veryNewToken(0.5)],
      fields: { detected: true, pair_age_hours: 0.5, reasons: ['VERY_NEW_TOKEN'] },
    },
    {
      name: 'opened this very second: very new, 0 h',
      pairs: [openedAgo(0)],
      factors: [veryNewToken(0)],
      fields: { detected: true, pair_age_hours: 0, reasons: ['VERY_NEW_TOKEN'] },
    },
    {
      name: 'age is rounded to a tenth of an hour (5 h 32 min → 5.5 h)',
      pairs: [openedAgo(5 * HOUR + 32 * 60)],
      factors: [newToken(5.5)],
      fields: { detected: true, pair_age_hours: 5.5, reasons: ['NEW_TOKEN'] },
    },
    {
      name: 'a fresh pool beside a 40-day-old one: the oldest pool dates the token, clean',
      pairs: [openedAgo(2 * HOUR, 'Fresh'), openedAgo(40 * DAY, 'Old')],
      factors: [],
      fields: { detected: false, pair_age_hours: 960, reasons: [] },
    },
    {
      name: 'pairs without a creation time are ignored: the dated one decides',
      pairs: [
        pair({ pairAddress: 'NullDate', pairCreatedAt: null }),
        pair({ pairAddress: 'NoDate', pairCreatedAt: undefined }),
        openedAgo(5 * HOUR),
      ],
      factors: [newToken(5)],
      fields: { detected: true, pair_age_hours: 5, reasons: ['NEW_TOKEN'] },
    },
    {
      name: 'no pair carries a creation time: ok, but the age is not known (null)',
      pairs: [pair({ pairCreatedAt: null }), pair({ pairAddress: 'NoDate', pairCreatedAt: undefined })],
      factors: [],
      fields: { detected: null, pair_age_hours: null, reasons: [] },
    },
    {
      name: 'no pair at all: ok, the age is not known (null)',
      pairs: [],
      factors: [],
      fields: { detected: null, pair_age_hours: null, reasons: [] },
    },
  ]

  test.each(cases)('$name', ({ pairs, factors, fields }) => {
    const outcome = run(launchAnomaly, { market: market(...pairs) })
    expect(outcome.status).toBe('ok')
    expect(picked(outcome)).toEqual(factors)
    expect(outcome.fields).toEqual({ launch_anomaly: fields })
    for (const entry of outcome.factors) expect(entry.signal).toBe('launch-anomaly')
  })
})

describe('launch-anomaly: thresholds come from the options', () => {
  const options = { newHours: 48, veryNewHours: 6 }
  const cases: { name: string; ageS: number; reasons: string[]; hours: number }[] = [
    { name: '30 h is new under a 48 h threshold', ageS: 30 * HOUR, reasons: ['NEW_TOKEN'], hours: 30 },
    { name: '3 h is very new under a 6 h threshold', ageS: 3 * HOUR, reasons: ['VERY_NEW_TOKEN'], hours: 3 },
    { name: '48 h is not new under a 48 h threshold', ageS: 48 * HOUR, reasons: [], hours: 48 },
  ]
  test.each(cases)('$name', ({ ageS, reasons, hours }) => {
    const outcome = launchAnomaly.detect(
      { get: (name) => (name === 'market' ? market(openedAgo(ageS)) : undefined) as never },
      options,
      { mint: MINT, now: NOW },
    )
    expect(outcome.status).toBe('ok')
    expect(outcome.fields).toEqual({
      launch_anomaly: { detected: reasons.length > 0, pair_age_hours: hours, reasons },
    })
  })
})

describe('launch-anomaly: missing facts', () => {
  test('no market data: unknown, naming market, no penalty and null fields', () => {
    const outcome = run(launchAnomaly, {})
    expect(outcome).toEqual({
      status: 'unknown',
      missing: ['market'],
      factors: [
        {
          code: 'UNKNOWN',
          signal: 'launch-anomaly',
          severity: 'info',
          impact: 0,
          hard_fail: false,
          grade_ceiling: null,
          title: 'Launch anomalies: not assessed',
          detail: 'Could not be assessed: market could not be gathered.',
          evidence: { missing: ['market'] },
        },
      ],
      fields: { launch_anomaly: { detected: null, pair_age_hours: null, reasons: [] } },
    })
  })
})
