import { describe, expect, test } from 'bun:test'
import type { Severity } from '../../src/pipeline/signal.ts'
import type { LaunchpadFact, LpLocksFact, PoolFact } from '../../src/facts/types.ts'
import { DAY, NOW, POOL, poolFact, run } from '../../test/support/facts/index.ts'
import lpStatus from './index.ts'

const CURVE = 'Curve1111111111111111111111111111111111111'

const lp = (burnedPct: number): PoolFact['lp'] => ({
  mint: 'LpMint111111111111111111111111111111111111',
  minted: 1_000_000n,
  supply: BigInt(Math.round(1_000_000 * (1 - burnedPct / 100))),
  burnedPct,
})

type Unlock = LpLocksFact['pools'][number]['unlocks'][number]
const timeLock = (inDays: number | null, pct: number): Unlock => ({ inDays, pct, program: 'jupiter_lock' })
/** Who holds the main pool's LP: burned, in lock programs (permanent ones, time locks), by the largest wallet. */
const holders = (
  burnedPct: number,
  locks: { permanent?: number; unlocks?: Unlock[] } = {},
  largestHolderPct = 0,
): LpLocksFact => {
  const unlocks = locks.unlocks ?? []
  const permanentLockedPct = locks.permanent ?? 0
  return {
    pools: [
      {
        pool: POOL,
        lpMint: 'LpMint111111111111111111111111111111111111',
        burnedPct,
        lockedPct: permanentLockedPct + unlocks.reduce((sum, unlock) => sum + unlock.pct, 0),
        permanentLockedPct,
        largestHolderPct,
        unlocks,
        holders: [],
      },
    ],
  }
}

const curve = (complete: boolean): LaunchpadFact => ({
  pumpFun: { bondingCurve: CURVE, complete, realQuoteReserves: 10_000_000_000n, creator: null, graduatedPool: null },
})

/** The calendar day `days` after the test's NOW. */
const dayAfter = (days: number) => new Date((NOW + days * DAY) * 1000).toISOString().slice(0, 10)

const status = (
  locked: boolean | null,
  days: number | null,
  permanent: boolean | null,
  shares: [number, number] | null,
  source: string,
) => ({
  locked,
  lock_duration_days: days,
  permanent,
  locked_pct: shares === null ? null : Math.round(Math.min(100, shares[0] + shares[1]) * 100) / 100,
  burned_pct: shares?.[0] ?? null,
  lock_program_pct: shares?.[1] ?? null,
  source,
})
const nothingRead = (source: string) => status(null, null, null, null, source)

type Expected = { code: string; severity: Severity; impact: number; title?: string }

describe('lp-status: one LP finding from the pool model, burned %, locked % and unlock dates', () => {
  const cases: {
    name: string
    pools: PoolFact[]
    locks?: LpLocksFact
    launchpad?: LaunchpadFact
    finding: Expected | null
    lp_status: string
    lock: ReturnType<typeof status>
  }[] = [
    {
      name: 'all LP burned: info, locked for good',
      pools: [poolFact({ lp: lp(100) })],
      locks: { pools: [] },
      finding: { code: 'LP_BURNED', severity: 'info', impact: 0, title: 'LP 100% burned' },
      lp_status: 'BURNED',
      lock: status(true, 36_500, true, [100, 0], 'lp'),
    },
    {
      name: 'exactly 95% burned: burned (the threshold is inclusive); lock programs need not be read',
      pools: [poolFact({ lp: lp(95) })],
      finding: { code: 'LP_BURNED', severity: 'info', impact: 0 },
      lp_status: 'BURNED',
      lock: status(true, 36_500, true, [95, 0], 'lp'),
    },
    {
      name: 'LP sent to a burn address counts as burned',
      pools: [poolFact({ lp: lp(10) })],
      locks: holders(97),
      finding: { code: 'LP_BURNED', severity: 'info', impact: 0 },
      lp_status: 'BURNED',
      lock: status(true, 36_500, true, [97, 0], 'lp'),
    },
    {
      name: 'all LP in a permanent lock program: info, for good',
      pools: [poolFact({ lp: lp(0) })],
      locks: holders(0, { permanent: 100 }),
      finding: { code: 'LP_LOCKED', severity: 'info', impact: 0, title: 'LP 100% burned or locked for good' },
      lp_status: 'UNBURNED',
      lock: status(true, 36_500, true, [0, 100], 'lp'),
    },
    {
      name: 'a time lock a year away: info, naming the date',
      pools: [poolFact({ lp: lp(0) })],
      locks: holders(0, { unlocks: [timeLock(365, 100)] }),
      finding: { code: 'LP_LOCKED', severity: 'info', impact: 0, title: `LP locked until ${dayAfter(365)}` },
      lp_status: 'UNBURNED',
      lock: status(true, 365, false, [0, 100], 'lp'),
    },
    {
      name: 'the locked-lp case, 180 days: low, naming the date',
      pools: [poolFact({ lp: lp(0) })],
      locks: holders(0, { unlocks: [timeLock(180, 100)] }),
      finding: {
        code: 'LP_LOCK_ENDING',
        severity: 'low',
        impact: -5,
        title: `LP locked until ${dayAfter(180)} (in 180 days)`,
      },
      lp_status: 'UNBURNED',
      lock: status(true, 180, false, [0, 100], 'lp'),
    },
    {
      name: 'just under a year: low',
      pools: [poolFact({ lp: lp(0) })],
      locks: holders(0, { unlocks: [timeLock(364.9, 100)] }),
      finding: { code: 'LP_LOCK_ENDING', severity: 'low', impact: -5 },
      lp_status: 'UNBURNED',
      lock: status(true, 364.9, false, [0, 100], 'lp'),
    },
    {
      name: 'exactly 90 days: low',
      pools: [poolFact({ lp: lp(0) })],
      locks: holders(0, { unlocks: [timeLock(90, 100)] }),
      finding: { code: 'LP_LOCK_ENDING', severity: 'low', impact: -5 },
      lp_status: 'UNBURNED',
      lock: status(true, 90, false, [0, 100], 'lp'),
    },
    {
      name: 'under a quarter: medium, naming the date',
      pools: [poolFact({ lp: lp(0) })],
      locks: holders(0, { unlocks: [timeLock(89.9, 100)] }),
      finding: {
        code: 'LP_LOCK_ENDING_SOON',
        severity: 'medium',
        impact: -10,
        title: `LP unlocks in 90 days (${dayAfter(89.9)})`,
      },
      lp_status: 'UNBURNED',
      lock: status(true, 89.9, false, [0, 100], 'lp'),
    },
    {
      name: 'exactly 30 days: medium',
      pools: [poolFact({ lp: lp(0) })],
      locks: holders(0, { unlocks: [timeLock(30, 100)] }),
      finding: { code: 'LP_LOCK_ENDING_SOON', severity: 'medium', impact: -10 },
      lp_status: 'UNBURNED',
      lock: status(true, 30, false, [0, 100], 'lp'),
    },
    {
      name: 'under 30 days: high, "unlocks in N days", weighed as unburned LP',
      pools: [poolFact({ lp: lp(0) })],
      locks: holders(0, { unlocks: [timeLock(12, 100)] }),
      finding: { code: 'LP_UNLOCKS_SOON', severity: 'high', impact: -25, title: 'LP unlocks in 12 days' },
      lp_status: 'UNBURNED',
      lock: status(true, 12, false, [0, 100], 'lp'),
    },
    {
      name: 'a lock already due (released, not yet claimed): high, unlocks now',
      pools: [poolFact({ lp: lp(0) })],
      locks: holders(0, { unlocks: [timeLock(0, 100)] }),
      finding: { code: 'LP_UNLOCKS_SOON', severity: 'high', impact: -25, title: 'LP unlocks now' },
      lp_status: 'UNBURNED',
      lock: status(true, 0, false, [0, 100], 'lp'),
    },
    {
      name: 'burned and time-locked shares together: the release that drops them below 95% decides',
      pools: [poolFact({ lp: lp(50) })],
      // 50 burned + 46 locked: the first release (30%, in 12 days) drops it to 66%.
      locks: holders(50, { unlocks: [timeLock(12, 30), timeLock(400, 16)] }),
      finding: { code: 'LP_UNLOCKS_SOON', severity: 'high', impact: -25 },
      lp_status: 'UNBURNED',
      lock: status(true, 12, false, [50, 46], 'lp'),
    },
    {
      name: 'a small early release that keeps 95% locked does not decide',
      pools: [poolFact({ lp: lp(80) })],
      locks: holders(80, { unlocks: [timeLock(3, 1), timeLock(200, 19)] }),
      finding: { code: 'LP_LOCK_ENDING', severity: 'low', impact: -5 },
      lp_status: 'UNBURNED',
      lock: status(true, 200, false, [80, 20], 'lp'),
    },
    {
      name: 'a lock that cannot be dated: medium, the date not read',
      pools: [poolFact({ lp: lp(50) })],
      locks: holders(50, { unlocks: [timeLock(null, 46)] }),
      finding: { code: 'LP_LOCK_UNDATED', severity: 'medium', impact: -10 },
      lp_status: 'UNBURNED',
      lock: status(true, null, false, [50, 46], 'lp'),
    },
    {
      name: 'neither burned nor locked: high',
      pools: [poolFact({ lp: lp(10) })],
      locks: holders(10, {}, 90),
      finding: { code: 'LP_UNBURNED', severity: 'high', impact: -25, title: 'LP 10% burned or locked' },
      lp_status: 'UNBURNED',
      lock: status(false, 0, false, [10, 0], 'lp'),
    },
    {
      name: 'just under 95% burned or locked: neither, high',
      pools: [poolFact({ lp: lp(50) })],
      locks: holders(50, { permanent: 44.99 }),
      finding: { code: 'LP_UNBURNED', severity: 'high', impact: -25 },
      lp_status: 'UNBURNED',
      lock: status(false, 0, false, [50, 44.99], 'lp'),
    },
    {
      name: 'not burned and its holders not read: not shown locked, high, saying so',
      pools: [poolFact({ lp: lp(0) })],
      finding: { code: 'LP_UNBURNED', severity: 'high', impact: -25, title: 'LP 0% burned, lock not read' },
      lp_status: 'UNBURNED',
      lock: { ...nothingRead('lp_burn'), burned_pct: 0 },
    },
    {
      name: 'LP of a traditional pool not read: UNKNOWN status, an informational finding',
      pools: [poolFact({ lp: null })],
      finding: { code: 'LP_NOT_READ', severity: 'info', impact: 0 },
      lp_status: 'UNKNOWN',
      lock: nothingRead('unknown'),
    },
    {
      name: 'concentrated liquidity: LP burn not applicable, whatever lock programs hold',
      pools: [poolFact({ model: 'CLMM_DLMM', venue: 'Orca Whirlpool' })],
      locks: { pools: [] },
      finding: {
        code: 'LP_NOT_APPLICABLE',
        severity: 'info',
        impact: 0,
        title: 'Orca Whirlpool: positions, not LP tokens',
      },
      lp_status: 'NOT_APPLICABLE',
      lock: nothingRead('not_applicable'),
    },
    {
      name: 'only the main (first) pool counts: a burned main pool hides an unburned second one',
      pools: [poolFact({ lp: lp(100) }), poolFact({ address: 'Second', lp: lp(0) })],
      finding: { code: 'LP_BURNED', severity: 'info', impact: 0 },
      lp_status: 'BURNED',
      lock: status(true, 36_500, true, [100, 0], 'lp'),
    },
    {
      name: 'a pool takes precedence over an active bonding curve',
      pools: [poolFact({ lp: lp(100) })],
      launchpad: curve(false),
      finding: { code: 'LP_BURNED', severity: 'info', impact: 0 },
      lp_status: 'BURNED',
      lock: status(true, 36_500, true, [100, 0], 'lp'),
    },
    {
      name: 'no pool, active bonding curve: custodial, held by the curve program for good',
      pools: [],
      launchpad: curve(false),
      finding: { code: 'BONDING_CURVE', severity: 'info', impact: 0 },
      lp_status: 'CUSTODIAL',
      lock: status(true, 36_500, true, [0, 100], 'bonding_curve'),
    },
    {
      name: 'no pool, completed bonding curve: no finding, no pool status',
      pools: [],
      launchpad: curve(true),
      finding: null,
      lp_status: 'UNKNOWN',
      lock: nothingRead('no_pool'),
    },
  ]

  test.each(cases)('$name', ({ pools, locks, launchpad, finding, lp_status, lock }) => {
    const outcome = run(lpStatus, {
      pools: { pools },
      launchpad: launchpad ?? { pumpFun: null },
      ...(locks ? { lp_locks: locks } : {}),
    })
    expect(outcome.fields).toMatchObject({ lp_status, liquidity_lock_status: lock })
    expect(outcome.fields.lp_burned).toBe(lp_status === 'BURNED' ? true : lp_status === 'UNBURNED' ? false : null)
    // One LP finding at most: the verdict.
    expect(outcome.factors.filter((entry) => entry.code !== 'UNKNOWN')).toHaveLength(finding ? 1 : 0)
    if (finding) {
      const [raised] = outcome.factors
      expect(raised).toMatchObject({ signal: 'lp-status', hard_fail: false, grade_ceiling: null })
      expect({ code: raised!.code, severity: raised!.severity, impact: raised!.impact }).toEqual({
        code: finding.code,
        severity: finding.severity,
        impact: finding.impact,
      })
      if (finding.title) expect(raised!.title).toBe(finding.title)
    }
  })

  test('a dated lock names its date in the title or detail, and its days in the evidence', () => {
    const [raised] = run(lpStatus, {
      pools: { pools: [poolFact({ lp: lp(0) })] },
      lp_locks: holders(0, { unlocks: [timeLock(45, 100)] }),
    }).factors
    expect(`${raised!.title} ${raised!.detail}`).toContain(dayAfter(45))
    expect(raised!.evidence).toMatchObject({ lock_duration_days: 45, unlock_date: dayAfter(45), locked_pct: 100 })
  })

  test('holders not read because the fact is missing: unknown, naming lp_locks', () => {
    expect(run(lpStatus, { pools: { pools: [poolFact({ lp: lp(0) })] }, launchpad: { pumpFun: null } })).toMatchObject({
      status: 'unknown',
      missing: ['lp_locks'],
      factors: [{ code: 'LP_UNBURNED', evidence: { locks_read: false } }],
    })
  })

  test('thresholds and penalty come from the options', () => {
    const detect = (burnedPct: number, inDays?: number) =>
      lpStatus.detect(
        {
          get: (name) =>
            (name === 'pools'
              ? { pools: [poolFact({ lp: lp(burnedPct) })] }
              : name === 'lp_locks'
                ? holders(burnedPct, { unlocks: inDays === undefined ? [] : [timeLock(inDays, 100 - burnedPct)] })
                : undefined) as never,
        },
        { burnedPct: 50, penalty: -40, lastingDays: 100, endingSoonDays: 50, unlockSoonDays: 10 },
        { mint: 'm', now: NOW },
      )
    expect(detect(50)).toMatchObject({ factors: [{ code: 'LP_BURNED', impact: 0 }], fields: { lp_status: 'BURNED' } })
    expect(detect(49.9)).toMatchObject({
      factors: [{ code: 'LP_UNBURNED', impact: -40 }],
      fields: { lp_status: 'UNBURNED', lp_burned: false },
    })
    expect(detect(0, 100).factors[0]?.code).toBe('LP_LOCKED')
    expect(detect(0, 99).factors[0]?.code).toBe('LP_LOCK_ENDING')
    expect(detect(0, 49).factors[0]?.code).toBe('LP_LOCK_ENDING_SOON')
    expect(detect(0, 9)).toMatchObject({ factors: [{ code: 'LP_UNLOCKS_SOON', impact: -40 }] })
  })

  test('pools missing: unknown naming them, every field UNKNOWN or null, no penalty', () => {
    const outcome = run(lpStatus, { launchpad: curve(false) })
    expect(outcome).toMatchObject({ status: 'unknown', missing: ['pools'] })
    expect(outcome.fields).toEqual({
      lp_model: 'UNKNOWN',
      lp_status: 'UNKNOWN',
      lp_burned: null,
      liquidity_lock_status: nothingRead('unknown'),
    })
    expect(outcome.factors).toEqual([
      expect.objectContaining({ code: 'UNKNOWN', severity: 'info', impact: 0, evidence: { missing: ['pools'] } }),
    ])
  })

  test('the verdict findings exclude each other (declared, checked at boot)', () => {
    const verdicts = Object.entries(lpStatus.meta.findings)
    for (const [code, spec] of verdicts)
      expect([...(spec.excludes ?? []), code].sort()).toEqual(verdicts.map(([other]) => other).sort())
  })
})
