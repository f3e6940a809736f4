import { describe, expect, test } from 'bun:test'
import type { Severity } from '../../src/pipeline/signal.ts'
import type { LaunchpadFact, PoolFact } from '../../src/facts/types.ts'
import { POOL, poolFact, run } from '../../src/pipeline/derive/test-facts.ts'
import lpStatus from './index.ts'

const CURVE = 'Curve1111111111111111111111111111111111111'

const lp = (burnedPct: number): PoolFact['lp'] => ({
  mint: 'LpMint111111111111111111111111111111111111',
  minted: 1_000_000n,
  supply: BigInt(Math.round(1_000_000 * (1 - burnedPct / 100))),
  burnedPct,
})

const curve = (complete: boolean): LaunchpadFact => ({
  pumpFun: { bondingCurve: CURVE, complete, realQuoteReserves: 10_000_000_000n, creator: null, graduatedPool: null },
})

const lock = (source: string, burned: number | null, locked: boolean | null) => ({
  locked,
  locked_pct: null,
  burned_pct: burned,
  lock_duration_days: locked === true ? 36_500 : null,
  source,
})

type Expected = { code: string; severity: Severity; impact: number; evidence: Record<string, unknown> }

const burnedFinding = (pct: number): Expected => ({
  code: 'LP_BURNED',
  severity: 'info',
  impact: 0,
  evidence: { pool: POOL, burned_pct: pct },
})
const unburnedFinding = (pct: number): Expected => ({
  code: 'LP_UNBURNED',
  severity: 'high',
  impact: -25,
  evidence: { pool: POOL, burned_pct: pct },
})

const burnedFields = (pct: number) => ({
  lp_model: 'TRADITIONAL_AMM',
  lp_status: 'BURNED',
  lp_burned: true,
  liquidity_lock_status: lock('lp_burn', pct, true),
})
const unburnedFields = (pct: number) => ({
  lp_model: 'TRADITIONAL_AMM',
  lp_status: 'UNBURNED',
  lp_burned: false,
  liquidity_lock_status: lock('lp_burn', pct, null),
})

describe('lp-status', () => {
  const cases: {
    name: string
    pools: PoolFact[]
    launchpad?: LaunchpadFact
    factors: Expected[]
    fields: Record<string, unknown>
  }[] = [
    {
      name: 'all LP burned: clean, locked for good',
      pools: [poolFact({ lp: lp(100) })],
      factors: [burnedFinding(100)],
      fields: burnedFields(100),
    },
    {
      name: 'exactly 95% burned: counts as burned (the threshold is inclusive)',
      pools: [poolFact({ lp: lp(95) })],
      factors: [burnedFinding(95)],
      fields: burnedFields(95),
    },
    {
      name: 'just under 95% burned: unburned and penalised',
      pools: [poolFact({ lp: lp(94.99) })],
      factors: [unburnedFinding(94.99)],
      fields: unburnedFields(94.99),
    },
    {
      name: 'nothing burned: unburned, lock not known here',
      pools: [poolFact({ lp: lp(0) })],
      factors: [unburnedFinding(0)],
      fields: unburnedFields(0),
    },
    {
      name: 'LP of a traditional pool not read: UNKNOWN status, no finding',
      pools: [poolFact({ lp: null })],
      factors: [],
      fields: {
        lp_model: 'TRADITIONAL_AMM',
        lp_status: 'UNKNOWN',
        lp_burned: null,
        liquidity_lock_status: lock('unknown', null, null),
      },
    },
    {
      name: 'concentrated liquidity: LP burn not applicable, no penalty',
      pools: [poolFact({ model: 'CLMM_DLMM', venue: 'Orca Whirlpool' })],
      factors: [{ code: 'LP_NOT_APPLICABLE', severity: 'info', impact: 0, evidence: { pool: POOL } }],
      fields: {
        lp_model: 'CLMM_DLMM',
        lp_status: 'NOT_APPLICABLE',
        lp_burned: null,
        liquidity_lock_status: lock('not_applicable', null, null),
      },
    },
    {
      name: 'only the main (first) pool counts: a burned main pool hides an unburned second one',
      pools: [poolFact({ lp: lp(100) }), poolFact({ address: 'Second', lp: lp(0) })],
      factors: [burnedFinding(100)],
      fields: burnedFields(100),
    },
    {
      name: 'only the main (first) pool counts: an unburned main pool is penalised despite a burned second one',
      pools: [poolFact({ lp: lp(10) }), poolFact({ address: 'Second', lp: lp(100) })],
      factors: [unburnedFinding(10)],
      fields: unburnedFields(10),
    },
    {
      name: 'a pool takes precedence over an active bonding curve',
      pools: [poolFact({ lp: lp(100) })],
      launchpad: curve(false),
      factors: [burnedFinding(100)],
      fields: burnedFields(100),
    },
    {
      name: 'no pool, active bonding curve: custodial, held by the curve program',
      pools: [],
      launchpad: curve(false),
      factors: [{ code: 'BONDING_CURVE', severity: 'info', impact: 0, evidence: { bonding_curve: CURVE } }],
      fields: {
        lp_model: 'UNKNOWN',
        lp_status: 'CUSTODIAL',
        lp_burned: null,
        liquidity_lock_status: lock('bonding_curve', null, true),
      },
    },
    {
      name: 'no pool, completed bonding curve: no pool status',
      pools: [],
      launchpad: curve(true),
      factors: [],
      fields: {
        lp_model: 'UNKNOWN',
        lp_status: 'UNKNOWN',
        lp_burned: null,
        liquidity_lock_status: lock('no_pool', null, null),
      },
    },
    {
      name: 'no pool, not a pump.fun coin: no pool status',
      pools: [],
      launchpad: { pumpFun: null },
      factors: [],
      fields: {
        lp_model: 'UNKNOWN',
        lp_status: 'UNKNOWN',
        lp_burned: null,
        liquidity_lock_status: lock('no_pool', null, null),
      },
    },
  ]

  test.each(cases)('$name', ({ pools, launchpad, factors, fields }) => {
    const outcome = run(lpStatus, { pools: { pools }, launchpad: launchpad ?? { pumpFun: null } })
    expect(outcome.status).toBe('ok')
    expect(outcome.fields).toEqual(fields)
    expect(
      outcome.factors.map(({ code, severity, impact, evidence }) => ({ code, severity, impact, evidence })),
    ).toEqual(factors)
    for (const entry of outcome.factors) {
      expect(entry.signal).toBe('lp-status')
      expect(entry.hard_fail).toBe(false)
    }
  })

  test('the findings title the burned share and the venue', () => {
    expect(run(lpStatus, { pools: { pools: [poolFact({ lp: lp(42.5) })] } }).factors[0]?.title).toBe('LP 42.5% burned')
    expect(
      run(lpStatus, { pools: { pools: [poolFact({ model: 'CLMM_DLMM', venue: 'Meteora DLMM' })] } }).factors[0]?.title,
    ).toBe('Meteora DLMM: positions, not LP tokens')
  })

  test('threshold and penalty come from the options', () => {
    const detect = (burnedPct: number) =>
      lpStatus.detect(
        { get: (name) => (name === 'pools' ? { pools: [poolFact({ lp: lp(burnedPct) })] } : undefined) as never },
        { burnedPct: 50, penalty: -40 },
        { mint: 'm', now: 0 },
      )
    expect(detect(50)).toMatchObject({ factors: [{ code: 'LP_BURNED', impact: 0 }], fields: { lp_status: 'BURNED' } })
    expect(detect(49.9)).toMatchObject({
      factors: [{ code: 'LP_UNBURNED', impact: -40 }],
      fields: { lp_status: 'UNBURNED', lp_burned: false },
    })
  })

  test('pools missing: unknown naming them, every field UNKNOWN or null, no penalty', () => {
    const outcome = run(lpStatus, { launchpad: curve(false) })
    expect(outcome).toMatchObject({ status: 'unknown', missing: ['pools'] })
    expect(outcome.fields).toEqual({
      lp_model: 'UNKNOWN',
      lp_status: 'UNKNOWN',
      lp_burned: null,
      liquidity_lock_status: lock('unknown', null, null),
    })
    expect(outcome.factors).toEqual([
      expect.objectContaining({ code: 'UNKNOWN', severity: 'info', impact: 0, evidence: { missing: ['pools'] } }),
    ])
  })

  test('pools and launchpad both missing: unknown naming pools', () => {
    expect(run(lpStatus, {})).toMatchObject({ status: 'unknown', missing: ['pools'], fields: { lp_status: 'UNKNOWN' } })
  })
})
