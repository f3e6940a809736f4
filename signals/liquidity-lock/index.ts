import { Type } from '@sinclair/typebox'
import type { LpLocksFact } from '../../src/facts/types.ts'
import { notMeasured } from '../../src/pipeline/derive/outcome.ts'
import { PERMANENT_LOCK_DAYS } from '../../src/pipeline/vocabulary.ts'
import { defineSignal, finding, ok, signalMeta, unknownOutcome } from '../../src/pipeline/signal.ts'

const meta = signalMeta({
  id: 'liquidity-lock',
  riskGroup: 'liquidity_risk',
  version: '1.2.0',
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
      when: 'one wallet holds at least `pullablePct` of the unlocked LP',
      why: 'It can take half the pool in one transaction: the grade is capped at D',
      ceiling: 'D',
    },
    LP_LOCKED: { severity: 'info', points: 0, when: 'burned plus lock-program LP is at least `lockedPct`' },
    LP_UNLOCKED: {
      severity: 'info',
      points: 0,
      when: 'less than `lockedPct` burned or locked, no wallet able to pull it',
    },
    CURVE_CUSTODY: { severity: 'info', points: 0, when: 'the liquidity sits in a bonding curve' },
    LOCK_NOT_READ: { severity: 'info', points: 0, when: "the pool's LP mint or holders could not be read" },
  },
})

const round2 = (value: number) => Math.round(value * 100) / 100

export { PERMANENT_LOCK_DAYS }
const FOREVER = { days: PERMANENT_LOCK_DAYS, permanent: true }

type LockEntry = LpLocksFact['pools'][number]

/**
 * How long the pool stays locked (burned + locked at least `threshold` percent): forever when burned
 * and permanent locks alone reach it, else the days until enough time locks have released to drop
 * below it (soonest first); undefined when a lock it depends on could not be dated.
 */
function lockSpan(entry: LockEntry, threshold: number): { days: number; permanent: boolean } | undefined {
  if (entry.burnedPct + entry.permanentLockedPct >= threshold) return FOREVER
  let remaining = entry.burnedPct + entry.lockedPct
  for (const unlock of entry.unlocks) {
    if (unlock.inDays === null) return undefined
    remaining -= unlock.pct
    if (remaining < threshold) return { days: unlock.inDays, permanent: false }
  }
  return FOREVER
}

/**
 * The deep dive's `liquidity_lock_status`. Burned LP counts as locked for good; LP in a lock program is
 * dated from the program's account (src/onchain/locks.ts). `lock_duration_days` is always a number: 0
 * when the LP is not locked, the days the lock still holds, or PERMANENT_LOCK_DAYS with `permanent`.
 */
export default defineSignal({
  meta,
  detect(facts, options) {
    const pools = facts.get('pools')
    if (!pools) return unknownOutcome(meta, ['pools'])
    const main = pools.pools[0]
    const status = (
      locked: boolean,
      burned: number,
      program: number,
      source: 'lp' | 'bonding_curve',
      span: { days: number; permanent: boolean } = { days: 0, permanent: false },
    ) => ({
      liquidity_lock_status: {
        locked,
        lock_duration_days: span.days,
        permanent: span.permanent,
        locked_pct: round2(Math.min(100, burned + program)),
        burned_pct: round2(burned),
        lock_program_pct: round2(program),
        source,
      },
    })
    if (!main) {
      const launchpad = facts.get('launchpad')
      if (!launchpad) return unknownOutcome(meta, ['launchpad'])
      const curve = launchpad.pumpFun
      // Curve reserves belong to the launchpad program: nobody can withdraw them.
      if (curve && !curve.complete)
        return ok(
          [
            finding(
              meta,
              options,
              'CURVE_CUSTODY',
              'Liquidity held by the bonding curve',
              'The launchpad program holds the reserves; no one can withdraw them.',
              { bonding_curve: curve.bondingCurve },
            ),
          ],
          status(true, 0, 100, 'bonding_curve', FOREVER),
        )
      return ok([], {})
    }
    if (main.model === 'CLMM_DLMM')
      return ok(
        [
          finding(
            meta,
            options,
            'LOCK_NOT_READ',
            'Lock not assessed',
            'Concentrated-liquidity positions are NFTs; whether they sit in lockers is not read.',
            { pool: main.address },
          ),
        ],
        {},
      )
    if (!main.lp)
      return ok(
        [
          finding(meta, options, 'LOCK_NOT_READ', 'Lock not assessed', "The pool's LP mint could not be read.", {
            pool: main.address,
          }),
        ],
        {},
      )
    const lp = main.lp
    const entry = facts.get('lp_locks')?.pools.find((candidate) => candidate.pool === main.address)
    if (lp.supply === 0n || (!entry && lp.burnedPct >= options.lockedPct))
      return ok([], status(true, lp.burnedPct, 0, 'lp', FOREVER))
    if (!entry) {
      const locks = facts.get('lp_locks')
      return locks ? ok([], {}) : unknownOutcome(meta, ['lp_locks'])
    }
    const locked = entry.burnedPct + entry.lockedPct >= options.lockedPct
    const evidence = {
      pool: main.address,
      burned_pct: entry.burnedPct,
      locked_pct: entry.lockedPct,
      largest_holder_pct: entry.largestHolderPct,
      holders: entry.holders.slice(0, 5),
    }
    if (locked) {
      const span = lockSpan(entry, options.lockedPct)
      const lasting = !span
        ? 'a lock program holds part of it whose end could not be read.'
        : span.permanent
          ? 'nothing can release it.'
          : `the locks release it in ${span.days} days.`
      return ok(
        [
          finding(
            meta,
            options,
            'LP_LOCKED',
            `LP ${round2(entry.burnedPct + entry.lockedPct)}% burned or locked`,
            `The LP is burned or held by lock programs; ${lasting}`,
            { ...evidence, permanent_locked_pct: entry.permanentLockedPct, unlocks: entry.unlocks },
          ),
          ...(span
            ? []
            : [notMeasured(meta, ['lock_duration_days'], 'A lock program holds LP in an account we cannot date.')]),
        ],
        status(true, entry.burnedPct, entry.lockedPct, 'lp', span),
      )
    }
    const found =
      entry.largestHolderPct >= options.pullablePct
        ? [
            finding(
              meta,
              options,
              'LP_PULLABLE',
              `One wallet holds ${entry.largestHolderPct}% of the LP`,
              "A single wallet can withdraw most of the pool's liquidity in one transaction.",
              evidence,
            ),
          ]
        : [
            finding(
              meta,
              options,
              'LP_UNLOCKED',
              `LP ${round2(entry.burnedPct + entry.lockedPct)}% burned or locked`,
              'Most of the LP is neither burned nor locked, but spread over several wallets.',
              evidence,
            ),
          ]
    return ok(found, status(false, entry.burnedPct, entry.lockedPct, 'lp'))
  },
})
