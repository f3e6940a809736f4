/**
 * Whether the main pool's liquidity can be pulled, from its burned LP, the LP lock programs hold and
 * their unlock dates together: one reading that lp-status (the LP finding, both scanners) and
 * liquidity-lock (the deep dive's `liquidity_lock_status` and who could pull it) share, so the two
 * scanners and the report tell one story (docs/scoring.md, "One story per fact").
 */
import type { LpLocksFact, PoolFact } from '../../facts/types.ts'
import { PERMANENT_LOCK_DAYS } from '../../kernel/vocabulary.ts'

type LockEntry = LpLocksFact['pools'][number]
type Lp = NonNullable<PoolFact['lp']>

/** How long the LP stays locked: forever (`permanent`, PERMANENT_LOCK_DAYS), or the days until enough of it is released. */
export interface LockSpan {
  days: number
  permanent: boolean
}

const FOREVER: LockSpan = { days: PERMANENT_LOCK_DAYS, permanent: true }

/**
 * The main traditional pool's LP, read against a burned-or-locked threshold (percent of the LP the
 * pool minted):
 * - `burned`: burned alone reaches it (LP sent to a burn address counts) — locked for good;
 * - `locked`: burned plus lock programs reach it, for `span` (undefined: a lock it depends on could
 *   not be dated);
 * - `open`: neither — the LP's holders can withdraw the liquidity;
 * - `unread`: not burned, and who holds the LP could not be read (the `lp_locks` fact missing).
 */
export type LpLock =
  | { kind: 'burned'; burnedPct: number; lockedPct: number }
  | { kind: 'locked'; burnedPct: number; lockedPct: number; span: LockSpan | undefined; entry: LockEntry }
  | { kind: 'open'; burnedPct: number; lockedPct: number; entry: LockEntry }
  | { kind: 'unread'; burnedPct: number }

/** The reading of `pool`'s LP, from the `lp_locks` fact when it was gathered (undefined: missing). */
export function lpLockOf(pool: string, lp: Lp, locks: LpLocksFact | undefined, thresholdPct: number): LpLock {
  const entry = locks?.pools.find((candidate) => candidate.pool === pool)
  const burnedPct = entry?.burnedPct ?? lp.burnedPct
  // No LP left in circulation: nothing to pull (the fact lists only pools with LP in circulation).
  if (lp.supply === 0n || burnedPct >= thresholdPct)
    return { kind: 'burned', burnedPct, lockedPct: entry?.lockedPct ?? 0 }
  if (!entry) return { kind: 'unread', burnedPct }
  if (burnedPct + entry.lockedPct >= thresholdPct)
    return { kind: 'locked', burnedPct, lockedPct: entry.lockedPct, span: lockSpan(entry, thresholdPct), entry }
  return { kind: 'open', burnedPct, lockedPct: entry.lockedPct, entry }
}

/**
 * How long the pool stays locked (burned + locked at least `threshold` percent): forever when burned
 * and permanent locks alone reach it, else the days until enough time locks have released to drop
 * below it (soonest first); undefined when a lock it depends on could not be dated.
 */
export function lockSpan(entry: LockEntry, threshold: number): LockSpan | undefined {
  if (entry.burnedPct + entry.permanentLockedPct >= threshold) return FOREVER
  let remaining = entry.burnedPct + entry.lockedPct
  for (const unlock of entry.unlocks) {
    if (unlock.inDays === null) return undefined
    remaining -= unlock.pct
    if (remaining < threshold) return { days: unlock.inDays, permanent: false }
  }
  return FOREVER
}

const round2 = (value: number) => Math.round(value * 100) / 100

/**
 * `liquidity_lock_status` as both scanners answer it, from one reading: null members are what was not
 * read (the quick scan's schema allows them; the deep dive leaves the object out, or gives a neutral 0
 * for an undated lock with `lock_duration_days` in missing_fields).
 */
export interface LockStatus {
  locked: boolean | null
  lock_duration_days: number | null
  permanent: boolean | null
  locked_pct: number | null
  burned_pct: number | null
  lock_program_pct: number | null
  /** `lp` the pool's LP (burn and lock programs read); `lp_burn` only its burned share (holders not read). */
  source: 'lp' | 'lp_burn' | 'bonding_curve'
}

/** The status of a pool's LP reading. */
export function lockStatusOf(lock: LpLock): LockStatus {
  const shares = (burned: number, program: number) => ({
    locked_pct: round2(Math.min(100, burned + program)),
    burned_pct: round2(burned),
    lock_program_pct: round2(program),
  })
  switch (lock.kind) {
    case 'burned':
      return {
        locked: true,
        lock_duration_days: FOREVER.days,
        permanent: true,
        ...shares(lock.burnedPct, lock.lockedPct),
        source: 'lp',
      }
    case 'locked':
      return {
        locked: true,
        lock_duration_days: lock.span?.days ?? null,
        permanent: lock.span?.permanent ?? false,
        ...shares(lock.burnedPct, lock.lockedPct),
        source: 'lp',
      }
    case 'open':
      return {
        locked: false,
        lock_duration_days: 0,
        permanent: false,
        ...shares(lock.burnedPct, lock.lockedPct),
        source: 'lp',
      }
    case 'unread':
      return {
        locked: null,
        lock_duration_days: null,
        permanent: null,
        locked_pct: null,
        burned_pct: round2(lock.burnedPct),
        lock_program_pct: null,
        source: 'lp_burn',
      }
  }
}

/** A bonding curve's reserves: held by the launchpad program, which nobody can withdraw from. */
export const CURVE_LOCK_STATUS: LockStatus = {
  locked: true,
  lock_duration_days: FOREVER.days,
  permanent: true,
  locked_pct: 100,
  burned_pct: 0,
  lock_program_pct: 100,
  source: 'bonding_curve',
}

const DAY_S = 86_400

/** The calendar day (UTC, YYYY-MM-DD) `days` after `now` (unix seconds): when a lock releases. */
export function unlockDate(now: number, days: number): string {
  return new Date((now + days * DAY_S) * 1000).toISOString().slice(0, 10)
}
