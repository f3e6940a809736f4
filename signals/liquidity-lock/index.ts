import { Type } from '@sinclair/typebox'
import { notMeasured } from '../../src/pipeline/derive/not-measured.ts'
import { CURVE_LOCK_STATUS, lockStatusOf, lpLockOf } from '../../src/pipeline/derive/lp-lock.ts'
import { PERMANENT_LOCK_DAYS } from '../../src/kernel/vocabulary.ts'
import { defineSignal, finding, ok, signalMeta, unknownOutcome } from '../../src/pipeline/signal.ts'
import { pct } from '../../src/rendering/format.ts'

const meta = signalMeta({
  id: 'liquidity-lock',
  riskGroup: 'liquidity_risk',
  version: '2.0.0',
  title: 'Liquidity lock',
  risk: "The main pool's LP is neither burned nor held by a lock program, and one wallet holds enough of it to pull the pool.",
  why: 'Burned or locked LP cannot be withdrawn; LP in one wallet is a rug pull one transaction away.',
  scanners: ['deep_dive'],
  facts: ['pools', 'lp_locks', 'launchpad'],
  impact: 'high',
  confidence: 'high',
  options: Type.Object({
    lockedPct: Type.Number({ minimum: 0, maximum: 100 }),
    pullablePct: Type.Number({ minimum: 0, maximum: 100 }),
  }),
  // 95% locked: the lp-status threshold (a pool's minimum LP and dust do not make it pullable). One
  // wallet with half the LP can take half the pool in one transaction.
  defaults: { lockedPct: 95, pullablePct: 50 },
  findings: {
    LP_PULLABLE: {
      severity: 'high',
      points: -10,
      when: 'the LP is neither burned nor locked (`lockedPct`) and one wallet holds at least `pullablePct` of it',
      why: 'It can take half the pool in one transaction: the grade is capped at D',
      ceiling: 'D',
      // Raised only where lp-status finds the LP unburned and unlocked: never beside a finding that
      // says it cannot be pulled, or that there is no LP to pull.
      excludes: [
        'lp-status/LP_BURNED',
        'lp-status/LP_LOCKED',
        'lp-status/LP_LOCK_ENDING',
        'lp-status/LP_LOCK_ENDING_SOON',
        'lp-status/LP_LOCK_UNDATED',
        'lp-status/LP_UNLOCKS_SOON',
        'lp-status/LP_NOT_APPLICABLE',
        'lp-status/LP_NOT_READ',
        'lp-status/BONDING_CURVE',
      ],
    },
  },
})

export { PERMANENT_LOCK_DAYS }

/**
 * The deep dive's `liquidity_lock_status` (every member a number or a boolean, as spec §2.4 types it)
 * and `LP_PULLABLE`. The LP verdict itself — burned, locked until when, or neither — is lp-status's
 * one finding, from the same reading (src/pipeline/derive/lp-lock.ts). `lock_duration_days` is 0 when
 * the LP is not locked, the days the lock still holds, or PERMANENT_LOCK_DAYS with `permanent`; a lock
 * that could not be dated gives 0, named as not measured. Absent where nothing was read: concentrated
 * liquidity (position lockers are not read), no pool, an LP mint not read, or unburned LP whose
 * holders were not read.
 */
export default defineSignal({
  meta,
  detect(facts, options) {
    const pools = facts.get('pools')
    if (!pools) return unknownOutcome(meta, ['pools'])
    const main = pools.pools[0]
    if (!main) {
      const launchpad = facts.get('launchpad')
      if (!launchpad) return unknownOutcome(meta, ['launchpad'])
      const curve = launchpad.pumpFun
      // Curve reserves belong to the launchpad program: nobody can withdraw them.
      return ok([], curve && !curve.complete ? { liquidity_lock_status: CURVE_LOCK_STATUS } : {})
    }
    if (main.model === 'CLMM_DLMM' || !main.lp) return ok([], {})
    const locks = facts.get('lp_locks')
    const lock = lpLockOf(main.address, main.lp, locks, options.lockedPct)
    if (lock.kind === 'unread') return locks ? ok([], {}) : unknownOutcome(meta, ['lp_locks'])
    const status = lockStatusOf(lock)
    const deep = { ...status, lock_duration_days: status.lock_duration_days ?? 0 }
    const found =
      lock.kind === 'open' && lock.entry.largestHolderPct >= options.pullablePct
        ? [
            finding(
              meta,
              options,
              'LP_PULLABLE',
              `One wallet holds ${pct(lock.entry.largestHolderPct)} of the LP`,
              "A single wallet can withdraw most of the pool's liquidity in one transaction.",
              {
                pool: main.address,
                burned_pct: lock.burnedPct,
                locked_pct: lock.lockedPct,
                largest_holder_pct: lock.entry.largestHolderPct,
                holders: lock.entry.holders.slice(0, 5),
              },
            ),
          ]
        : []
    if (status.lock_duration_days === null)
      found.push(notMeasured(meta, ['lock_duration_days'], 'A lock program holds LP in an account we cannot date.'))
    return ok(found, { liquidity_lock_status: deep })
  },
})
