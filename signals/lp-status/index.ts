import { Type } from '@sinclair/typebox'
import {
  CURVE_LOCK_STATUS,
  lockStatusOf,
  lpLockOf,
  unlockDate,
  type LpLock,
} from '../../src/pipeline/derive/lp-lock.ts'
import { defineSignal, finding, ok, signalMeta, unknownOutcome, type Factor } from '../../src/pipeline/signal.ts'
import { count, pct } from '../../src/rendering/format.ts'

/**
 * The LP verdict: exactly one of these per answer, from the pool model, the burned share, the LP lock
 * programs hold and their unlock dates together (each excludes the others).
 */
const VERDICTS = [
  'LP_BURNED',
  'LP_LOCKED',
  'LP_LOCK_ENDING',
  'LP_LOCK_ENDING_SOON',
  'LP_LOCK_UNDATED',
  'LP_UNLOCKS_SOON',
  'LP_UNBURNED',
  'LP_NOT_APPLICABLE',
  'LP_NOT_READ',
  'BONDING_CURVE',
] as const
const besides = (code: (typeof VERDICTS)[number]) => VERDICTS.filter((other) => other !== code)

const meta = signalMeta({
  id: 'lp-status',
  riskGroup: 'liquidity_risk',
  version: '2.0.0',
  title: 'Liquidity-provider status',
  risk: "The main pool's LP is neither burned nor locked, or its lock ends soon, so its holder can pull the liquidity.",
  why: 'Pulling the LP (a rug pull) leaves holders with no pool to sell into. Burned LP and permanent locks cannot be pulled; a time lock only delays it, so the finding follows the time left. Concentrated-liquidity positions and bonding curves have no fungible LP, so burn does not apply to them.',
  scanners: ['quick_scan', 'deep_dive'],
  facts: ['pools', 'launchpad', 'lp_locks'],
  impact: 'high',
  confidence: 'high',
  options: Type.Object({
    burnedPct: Type.Number({ minimum: 0, maximum: 100 }),
    penalty: Type.Number({ maximum: 0 }),
    lastingDays: Type.Number({ minimum: 0 }),
    endingSoonDays: Type.Number({ minimum: 0 }),
    unlockSoonDays: Type.Number({ minimum: 0 }),
  }),
  // 95%: the few LP tokens a pool keeps as its minimum (or dust) do not make it pullable; −25 is the
  // reference penalty. A lock a year away outlasts any position a scan informs; one ending within a
  // quarter falls inside a swing trader's holding; one ending within a month is as good as unlocked.
  defaults: { burnedPct: 95, penalty: -25, lastingDays: 365, endingSoonDays: 90, unlockSoonDays: 30 },
  findings: {
    LP_UNBURNED: {
      severity: 'high',
      points: 'penalty',
      when: 'the main pool is a traditional AMM with less than `burnedPct` of its LP burned or locked (or burned, and who holds the rest could not be read: not shown locked)',
      why: "Its holder can pull the liquidity (the reference weight); 95% leaves room for the pool's minimum LP",
      excludes: besides('LP_UNBURNED'),
    },
    LP_UNLOCKS_SOON: {
      severity: 'high',
      points: 'penalty',
      when: 'burned plus locked LP reaches `burnedPct`, but the locks release enough of it in under `unlockSoonDays` days',
      why: 'Within a month the holder can pull the liquidity: weighed as unburned LP',
      excludes: besides('LP_UNLOCKS_SOON'),
    },
    LP_LOCK_ENDING_SOON: {
      severity: 'medium',
      points: -10,
      when: 'burned plus locked LP reaches `burnedPct` and the locks release it in `unlockSoonDays`–`endingSoonDays` days (the date is named)',
      why: 'The liquidity can be pulled within a quarter: inside the time a position is held',
      excludes: besides('LP_LOCK_ENDING_SOON'),
    },
    LP_LOCK_UNDATED: {
      severity: 'medium',
      points: -10,
      when: 'burned plus locked LP reaches `burnedPct`, but a lock it depends on could not be dated',
      why: 'Locked now, for a time not known: weighed as a lock ending within a quarter',
      excludes: besides('LP_LOCK_UNDATED'),
    },
    LP_LOCK_ENDING: {
      severity: 'low',
      points: -5,
      when: 'burned plus locked LP reaches `burnedPct` and the locks release it in `endingSoonDays`–`lastingDays` days (the date is named)',
      why: 'The liquidity is safe for months, not for good',
      excludes: besides('LP_LOCK_ENDING'),
    },
    LP_LOCKED: {
      severity: 'info',
      points: 0,
      when: 'burned plus locked LP reaches `burnedPct`, held for good (permanent locks) or at least `lastingDays` days',
      excludes: besides('LP_LOCKED'),
    },
    LP_BURNED: {
      severity: 'info',
      points: 0,
      when: "the main pool's LP is burned (≥ `burnedPct`)",
      excludes: besides('LP_BURNED'),
    },
    LP_NOT_APPLICABLE: {
      severity: 'info',
      points: 0,
      when: 'the main pool is concentrated liquidity (CLMM, DLMM, DAMM v2): positions are NFTs',
      excludes: besides('LP_NOT_APPLICABLE'),
    },
    LP_NOT_READ: {
      severity: 'info',
      points: 0,
      when: 'the main pool is a traditional AMM whose LP mint could not be read (`lp_status` UNKNOWN)',
      excludes: besides('LP_NOT_READ'),
    },
    BONDING_CURVE: {
      severity: 'info',
      points: 0,
      when: 'the liquidity sits in a launchpad bonding curve',
      excludes: besides('BONDING_CURVE'),
    },
  },
})

type Options = typeof meta.defaults

/** The quick scan's `liquidity_lock_status` where there is no LP to read. */
const noLock = (source: 'not_applicable' | 'no_pool' | 'unknown') => ({
  locked: null,
  lock_duration_days: null,
  permanent: null,
  locked_pct: null,
  burned_pct: null,
  lock_program_pct: null,
  source,
})

/** "in 12 days", "within a day", "now": when a lock releases, `days` from now. */
const releaseIn = (days: number) =>
  days <= 0 ? 'now' : days < 1 ? 'within a day' : `in ${count(Math.round(days), 'day')}`

/** The one LP finding of a traditional pool's reading (burned %, locked %, unlock dates together). */
function verdict(lock: LpLock, pool: string, options: Options, now: number): Factor {
  const round2 = (value: number) => Math.round(value * 100) / 100
  if (lock.kind === 'burned')
    return finding(
      meta,
      options,
      'LP_BURNED',
      `LP ${pct(round2(lock.burnedPct))} burned`,
      "The pool's LP tokens are burned: its liquidity cannot be pulled.",
      { pool, burned_pct: lock.burnedPct },
    )
  if (lock.kind === 'unread')
    return finding(
      meta,
      options,
      'LP_UNBURNED',
      `LP ${pct(round2(lock.burnedPct))} burned, lock not read`,
      'Most LP tokens still exist and who holds them could not be read: not shown locked, their holders may withdraw the liquidity (a rug pull).',
      { pool, burned_pct: lock.burnedPct, locks_read: false },
    )
  const evidence = {
    pool,
    burned_pct: lock.burnedPct,
    locked_pct: lock.lockedPct,
    permanent_locked_pct: lock.entry.permanentLockedPct,
    unlocks: lock.entry.unlocks,
  }
  if (lock.kind === 'open')
    return finding(
      meta,
      options,
      'LP_UNBURNED',
      `LP ${pct(round2(lock.burnedPct + lock.lockedPct))} burned or locked`,
      'Most LP tokens still exist and no lock program holds them: their holders can withdraw the liquidity (a rug pull).',
      evidence,
    )
  const held = round2(lock.burnedPct + lock.lockedPct)
  const { span } = lock
  if (!span)
    return finding(
      meta,
      options,
      'LP_LOCK_UNDATED',
      `LP ${pct(held)} burned or locked, release date not read`,
      'A lock program holds the LP, but when it releases it could not be read.',
      evidence,
    )
  if (span.permanent)
    return finding(
      meta,
      options,
      'LP_LOCKED',
      `LP ${pct(held)} burned or locked for good`,
      'Burned LP and permanent lock programs hold it: nothing can release it.',
      { ...evidence, lock_duration_days: span.days, permanent: true },
    )
  const date = unlockDate(now, span.days)
  const dated = { ...evidence, lock_duration_days: span.days, unlock_date: date }
  if (span.days >= options.lastingDays)
    return finding(
      meta,
      options,
      'LP_LOCKED',
      `LP locked until ${date}`,
      `${pct(held)} of the LP is burned or held by lock programs until ${date} (${releaseIn(span.days)}): longer than a position lasts.`,
      dated,
    )
  const then = 'then its holder can withdraw the liquidity.'
  if (span.days >= options.endingSoonDays)
    return finding(
      meta,
      options,
      'LP_LOCK_ENDING',
      `LP locked until ${date} (${releaseIn(span.days)})`,
      `${pct(held)} of the LP is burned or held by lock programs until ${date}; ${then}`,
      dated,
    )
  if (span.days >= options.unlockSoonDays)
    return finding(
      meta,
      options,
      'LP_LOCK_ENDING_SOON',
      `LP unlocks ${releaseIn(span.days)} (${date})`,
      `${pct(held)} of the LP is burned or held by lock programs until ${date}; ${then}`,
      dated,
    )
  return finding(
    meta,
    options,
    'LP_UNLOCKS_SOON',
    `LP unlocks ${releaseIn(span.days)}`,
    `The lock releases the LP ${releaseIn(span.days)} (${date}): its holder can then withdraw the liquidity (a rug pull).`,
    dated,
  )
}

/**
 * `lp_model`, `lp_status`, `lp_burned` and the quick scan's `liquidity_lock_status`, with one finding
 * about the main pool's LP. The deep dive's `liquidity_lock_status` is liquidity-lock's, from the same
 * reading (src/pipeline/derive/lp-lock.ts).
 */
export default defineSignal({
  meta,
  detect(facts, options, { now }) {
    const pools = facts.get('pools')
    const launchpad = facts.get('launchpad')
    if (!pools)
      return unknownOutcome(meta, ['pools'], {
        lp_model: 'UNKNOWN',
        lp_status: 'UNKNOWN',
        lp_burned: null,
        liquidity_lock_status: noLock('unknown'),
      })
    // The main pool: the first listed (the market lists the deepest first).
    const main = pools.pools[0]
    if (!main) {
      const curve = launchpad?.pumpFun
      if (curve && !curve.complete)
        return ok(
          [
            finding(
              meta,
              options,
              'BONDING_CURVE',
              'Liquidity on a bonding curve',
              "The liquidity is held by the launchpad's bonding-curve program, not by LP holders: no one can withdraw it.",
              { bonding_curve: curve.bondingCurve },
            ),
          ],
          { lp_model: 'UNKNOWN', lp_status: 'CUSTODIAL', lp_burned: null, liquidity_lock_status: CURVE_LOCK_STATUS },
        )
      return ok([], {
        lp_model: 'UNKNOWN',
        lp_status: 'UNKNOWN',
        lp_burned: null,
        liquidity_lock_status: noLock('no_pool'),
      })
    }
    if (main.model === 'CLMM_DLMM')
      return ok(
        [
          finding(
            meta,
            options,
            'LP_NOT_APPLICABLE',
            `${main.venue}: positions, not LP tokens`,
            'Concentrated-liquidity positions are NFTs: LP burn does not apply; providers can withdraw their own positions.',
            { pool: main.address },
          ),
        ],
        {
          lp_model: 'CLMM_DLMM',
          lp_status: 'NOT_APPLICABLE',
          lp_burned: null,
          liquidity_lock_status: noLock('not_applicable'),
        },
      )
    if (!main.lp)
      return ok(
        [
          finding(
            meta,
            options,
            'LP_NOT_READ',
            'LP not read',
            "The pool's LP mint could not be read: whether its liquidity can be pulled is not known.",
            { pool: main.address },
          ),
        ],
        {
          lp_model: 'TRADITIONAL_AMM',
          lp_status: 'UNKNOWN',
          lp_burned: null,
          liquidity_lock_status: noLock('unknown'),
        },
      )
    const locks = facts.get('lp_locks')
    const lock = lpLockOf(main.address, main.lp, locks, options.burnedPct)
    const burned = lock.kind === 'burned'
    const fields = {
      lp_model: 'TRADITIONAL_AMM',
      lp_status: burned ? 'BURNED' : 'UNBURNED',
      lp_burned: burned,
      liquidity_lock_status: lockStatusOf(lock),
    }
    const factors = [verdict(lock, main.address, options, now)]
    // Not burned and its holders not read: the finding says so; the missing fact is named.
    if (lock.kind === 'unread' && !locks) return { status: 'unknown', missing: ['lp_locks'], factors, fields }
    return ok(factors, fields)
  },
})
