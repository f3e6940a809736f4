import { describe, expect, test } from 'bun:test'
import type { CurveReading } from '../../src/launchpad-index/curves.ts'
import { type MomentumInputs, momentumOf } from './scoring.ts'

const reading = (overrides: Partial<CurveReading> = {}): CurveReading => ({
  progressPct: 88,
  priceSol: 0,
  marketCapSol: 0,
  ageS: 600,
  trades: 40,
  buys: 30,
  sells: 10,
  uniqueTraders: 25,
  volumeSol: 60,
  fillRatePctPerMin: 4,
  minutesToGraduation: 3,
  bundledBuyers: 0,
  sniperSharePct: 0,
  roundTripSharePct: 10,
  creatorSold: false,
  ...overrides,
})
const input = (overrides: Partial<MomentumInputs> = {}): MomentumInputs => ({
  reading: reading(),
  recent: { buySharePct: 70, traders: 22 },
  market: { priceChange5mPct: 3, priceChange1hPct: 35 },
  exit: { sellable: true, impactPct: 1.2, rating: 'CLEAN' },
  developer: { previousRugs: 0 },
  grade: 'B',
  flags: [],
  ...overrides,
})

describe('graduation momentum', () => {
  test('everything pointing up: 30 + 15 + 15 + 10 + 10 + 10 = 90, HOT, every point cited', () => {
    const { score, label, factors } = momentumOf(input())
    expect(score).toBe(90)
    expect(label).toBe('HOT')
    expect(factors.map((entry) => entry.factor)).toEqual([
      'FILL_RATE',
      'RECENT_BUYING',
      'RECENT_TRADERS',
      'PROGRESS',
      'PRICE_RISING',
      'EXIT_OPEN',
    ])
  })

  test('components that did not answer add nothing', () => {
    const { score, label } = momentumOf(input({ market: null, exit: null, developer: null }))
    expect(score).toBe(70)
    expect(label).toBe('HEATING')
  })

  test('hard limits cap it whatever the momentum: a rugger developer, a D grade, no exit', () => {
    expect(momentumOf(input({ developer: { previousRugs: 2 } }))).toMatchObject({ score: 25, label: 'COOLING' })
    expect(momentumOf(input({ grade: 'F' })).score).toBe(25)
    const blocked = momentumOf(input({ exit: { sellable: false, impactPct: null, rating: 'BLOCKED' } }))
    expect(blocked).toMatchObject({ score: 20, label: 'FLAT' })
    expect(blocked.factors.at(-1)).toMatchObject({ factor: 'NOT_SELLABLE', points: -60 })
  })

  test('the exit rating: a PUNITIVE exit earns no EXIT_OPEN and caps at 25; a COSTLY one earns no EXIT_OPEN', () => {
    const punitive = momentumOf(input({ exit: { sellable: true, impactPct: 1.2, rating: 'PUNITIVE' } }))
    expect(punitive).toMatchObject({ score: 25, label: 'COOLING' })
    expect(punitive.factors.map((entry) => entry.factor)).not.toContain('EXIT_OPEN')
    expect(punitive.factors.at(-1)).toMatchObject({ factor: 'EXIT_PUNITIVE', points: -55 })
    const costly = momentumOf(input({ exit: { sellable: true, impactPct: 1.2, rating: 'COSTLY' } }))
    expect(costly.score).toBe(80)
    expect(costly.factors.map((entry) => entry.factor)).not.toContain('EXIT_OPEN')
  })

  test('a stalled, bundled curve: FLAT', () => {
    const stalled = momentumOf(
      input({
        reading: reading({ fillRatePctPerMin: null, progressPct: 55 }),
        recent: { buySharePct: 40, traders: 2 },
        market: { priceChange5mPct: -4, priceChange1hPct: -12 },
        flags: ['BUNDLED_LAUNCH'],
      }),
    )
    expect(stalled).toMatchObject({ score: 0, label: 'FLAT' })
  })
})
