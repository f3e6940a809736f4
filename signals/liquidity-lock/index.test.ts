import { describe, expect, test } from 'bun:test'
import type { Facts, LpLocksFact, PoolFact } from '../../src/facts/types.ts'
import type { FactView } from '../../src/pipeline/signal.ts'
import liquidityLock, { PERMANENT_LOCK_DAYS } from './index.ts'

const pool = (lp: PoolFact['lp'], model: PoolFact['model'] = 'TRADITIONAL_AMM'): PoolFact => ({
  address: 'pool',
  program: 'p',
  venue: 'v',
  model,
  baseMint: 'm',
  quoteMint: 'q',
  baseVault: 'bv',
  quoteVault: 'qv',
  baseReserve: 1n,
  quoteReserve: 1n,
  lp,
  liquidityUsd: null,
})
const lp = (burnedPct: number, supply = 10n) => ({ mint: 'lp', minted: 100n, supply, burnedPct })
type Unlock = LpLocksFact['pools'][number]['unlocks'][number]
const locks = (
  burnedPct: number,
  lockedPct: number,
  largestHolderPct: number,
  lockKinds: { permanentLockedPct?: number; unlocks?: Unlock[] } = { permanentLockedPct: lockedPct },
): LpLocksFact => ({
  pools: [
    {
      pool: 'pool',
      lpMint: 'lp',
      burnedPct,
      lockedPct,
      largestHolderPct,
      permanentLockedPct: lockKinds.permanentLockedPct ?? 0,
      unlocks: lockKinds.unlocks ?? [],
      holders: [],
    },
  ],
})
const jupiterLock = (inDays: number | null, pct: number): Unlock => ({ inDays, pct, program: 'jupiter_lock' })
const view = (facts: Partial<Facts>): FactView => ({ get: (name) => facts[name] as never })
const detect = (facts: Partial<Facts>) =>
  liquidityLock.detect(view(facts), liquidityLock.meta.defaults, { mint: 'm', now: 0 })
const noCurve = { pumpFun: null }

describe('liquidity-lock', () => {
  test('all LP burned: locked for good, a hundred years and permanent', () => {
    expect(detect({ pools: { pools: [pool(lp(100, 0n))] }, launchpad: noCurve }).fields.liquidity_lock_status).toEqual({
      locked: true,
      lock_duration_days: PERMANENT_LOCK_DAYS,
      permanent: true,
      locked_pct: 100,
      burned_pct: 100,
      lock_program_pct: 0,
      source: 'lp',
    })
  })

  test('LP in a permanent lock program counts as locked for good', () => {
    expect(
      detect({ pools: { pools: [pool(lp(0))] }, lp_locks: locks(0, 100, 0), launchpad: noCurve }).fields
        .liquidity_lock_status,
    ).toMatchObject({
      locked: true,
      locked_pct: 100,
      lock_program_pct: 100,
      lock_duration_days: 36_500,
      permanent: true,
    })
  })

  test.each([
    // Burned 50 + locked 46: the first release (30 %, in 12 days) drops it below 95 %.
    [50, [jupiterLock(12, 30), jupiterLock(200, 16)], 12],
    // Only the second release drops it below 95 %.
    [80, [jupiterLock(3, 1), jupiterLock(90.5, 15)], 90.5],
    // Already due (released, not yet claimed): locked for 0 more days.
    [50, [jupiterLock(0, 46)], 0],
  ] as const)('burned %d %% and time locks %j: locked for %d days, not permanent', (burned, unlocks, days) => {
    const lockedPct = unlocks.reduce((sum, unlock) => sum + unlock.pct, 0)
    const outcome = detect({
      pools: { pools: [pool(lp(burned))] },
      lp_locks: locks(burned, lockedPct, 0, { unlocks: [...unlocks] }),
      launchpad: noCurve,
    })
    expect(outcome.fields.liquidity_lock_status).toMatchObject({
      locked: true,
      lock_duration_days: days,
      permanent: false,
    })
    // The LP verdict (locked until when) is lp-status's finding; this signal adds none for a locked pool.
    expect(outcome.factors).toEqual([])
  })

  test('a lock that cannot be dated: 0 days, and lock_duration_days named as not measured', () => {
    const outcome = detect({
      pools: { pools: [pool(lp(50))] },
      lp_locks: locks(50, 46, 0, { unlocks: [jupiterLock(null, 46)] }),
      launchpad: noCurve,
    })
    expect(outcome.fields.liquidity_lock_status).toMatchObject({
      locked: true,
      lock_duration_days: 0,
      permanent: false,
    })
    expect(outcome.factors.map((factor) => factor.code)).toEqual(['NOT_MEASURED'])
    expect(outcome.factors[0]!.evidence).toEqual({ fields: ['lock_duration_days'] })
  })

  test('burned and locked shares add up', () => {
    expect(
      detect({ pools: { pools: [pool(lp(50))] }, lp_locks: locks(50, 46, 4), launchpad: noCurve }).fields
        .liquidity_lock_status,
    ).toMatchObject({ locked: true, locked_pct: 96, permanent: true })
  })

  test('LP in one wallet: not locked, pullable', () => {
    const outcome = detect({ pools: { pools: [pool(lp(0))] }, lp_locks: locks(0, 0, 100), launchpad: noCurve })
    expect(outcome.fields.liquidity_lock_status).toMatchObject({ locked: false, locked_pct: 0, lock_duration_days: 0 })
    expect(outcome.factors.map((factor) => factor.code)).toEqual(['LP_PULLABLE'])
  })

  test('LP spread over many wallets: not locked, not pullable by one (lp-status says unburned)', () => {
    const outcome = detect({ pools: { pools: [pool(lp(10))] }, lp_locks: locks(10, 0, 20), launchpad: noCurve })
    expect(outcome.factors).toEqual([])
    expect(outcome.fields.liquidity_lock_status).toMatchObject({ locked: false, locked_pct: 10 })
  })

  test('pullable exactly at pullablePct, not below', () => {
    const codes = (largest: number) =>
      detect({ pools: { pools: [pool(lp(0))] }, lp_locks: locks(0, 0, largest), launchpad: noCurve }).factors.map(
        (factor) => factor.code,
      )
    expect(codes(50)).toEqual(['LP_PULLABLE'])
    expect(codes(49.99)).toEqual([])
  })

  test('a locked pool is never pullable, whoever holds the rest', () => {
    expect(detect({ pools: { pools: [pool(lp(0))] }, lp_locks: locks(0, 96, 4), launchpad: noCurve }).factors).toEqual(
      [],
    )
  })

  test('bonding curve: the program holds the reserves', () => {
    expect(
      detect({
        pools: { pools: [] },
        launchpad: {
          pumpFun: { bondingCurve: 'c', complete: false, realQuoteReserves: 1n, creator: null, graduatedPool: null },
        },
      }).fields.liquidity_lock_status,
    ).toMatchObject({ locked: true, source: 'bonding_curve', lock_duration_days: 36_500, permanent: true })
  })

  test('concentrated liquidity, no pool, unread locks: no status rather than a guess', () => {
    expect(detect({ pools: { pools: [pool(null, 'CLMM_DLMM')] }, launchpad: noCurve }).fields).toEqual({})
    expect(detect({ pools: { pools: [] }, launchpad: noCurve }).fields).toEqual({})
    expect(detect({ pools: { pools: [pool(lp(0))] }, launchpad: noCurve })).toMatchObject({
      status: 'unknown',
      missing: ['lp_locks'],
      fields: {},
    })
    expect(detect({ pools: { pools: [] } })).toMatchObject({ status: 'unknown', missing: ['launchpad'] })
  })
})
