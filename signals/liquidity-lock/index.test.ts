import { describe, expect, test } from 'bun:test'
import type { Facts, LpLocksFact, PoolFact } from '../../src/facts/types.ts'
import type { FactView } from '../../src/pipeline/signal.ts'
import liquidityLock from './index.ts'

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
const locks = (burnedPct: number, lockedPct: number, largestHolderPct: number): LpLocksFact => ({
  pools: [{ pool: 'pool', lpMint: 'lp', burnedPct, lockedPct, largestHolderPct, holders: [] }],
})
const view = (facts: Partial<Facts>): FactView => ({ get: (name) => facts[name] as never })
const detect = (facts: Partial<Facts>) =>
  liquidityLock.detect(view(facts), liquidityLock.meta.defaults, { mint: 'm', now: 0 })
const noCurve = { pumpFun: null }

describe('liquidity-lock', () => {
  test('all LP burned: locked for good, duration null (not a number of days)', () => {
    expect(detect({ pools: { pools: [pool(lp(100, 0n))] }, launchpad: noCurve }).fields.liquidity_lock_status).toEqual({
      locked: true,
      lock_duration_days: null,
      locked_pct: 100,
      burned_pct: 100,
      lock_program_pct: 0,
      source: 'lp',
    })
  })

  test('LP in a lock program counts as locked', () => {
    expect(
      detect({ pools: { pools: [pool(lp(0))] }, lp_locks: locks(0, 100, 0), launchpad: noCurve }).fields
        .liquidity_lock_status,
    ).toMatchObject({ locked: true, locked_pct: 100, lock_program_pct: 100 })
  })

  test('burned and locked shares add up', () => {
    expect(
      detect({ pools: { pools: [pool(lp(50))] }, lp_locks: locks(50, 46, 4), launchpad: noCurve }).fields
        .liquidity_lock_status,
    ).toMatchObject({ locked: true, locked_pct: 96 })
  })

  test('LP in one wallet: not locked, pullable', () => {
    const outcome = detect({ pools: { pools: [pool(lp(0))] }, lp_locks: locks(0, 0, 100), launchpad: noCurve })
    expect(outcome.fields.liquidity_lock_status).toMatchObject({ locked: false, locked_pct: 0 })
    expect(outcome.factors.map((factor) => factor.code)).toEqual(['LP_PULLABLE'])
  })

  test('LP spread over many wallets: not locked, not pullable by one', () => {
    expect(
      detect({ pools: { pools: [pool(lp(10))] }, lp_locks: locks(10, 0, 20), launchpad: noCurve }).factors.map(
        (factor) => factor.code,
      ),
    ).toEqual(['LP_UNLOCKED'])
  })

  test('bonding curve: the program holds the reserves', () => {
    expect(
      detect({
        pools: { pools: [] },
        launchpad: {
          pumpFun: { bondingCurve: 'c', complete: false, realQuoteReserves: 1n, creator: null, graduatedPool: null },
        },
      }).fields.liquidity_lock_status,
    ).toMatchObject({ locked: true, source: 'bonding_curve' })
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
