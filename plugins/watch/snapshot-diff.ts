/**
 * Pure functions from two snapshots of a subject (before, after) to the events between them
 * (docs/watch.md): no I/O, no clock but the `now` given, so every kind has a table test.
 */
import type { DetectedEvent, EventSeverity } from './watch-events.ts'
import type { SnapshotLock, SnapshotPool, SubjectSnapshot } from './subject-snapshot.ts'
import type { Thresholds } from './thresholds.ts'

export interface DiffContext {
  /** Unix seconds: what lock times are compared with. */
  now: number
  /**
   * The oldest snapshot within the liquidity window (`liquidity_window_s`): changes split over several
   * transactions are added up from it. Absent: one step only.
   */
  windowStart?: SubjectSnapshot
}

const text = (value: bigint | null | undefined) => (value === null || value === undefined ? null : value.toString())
/** How much of `from` is gone in `to`, percent (0 when it grew or `from` is nothing). */
function dropPct(from: bigint | null, to: bigint | null): number {
  if (from === null || to === null || from <= 0n || to >= from) return 0
  return Number(((from - to) * 10_000n) / from) / 100
}
const short = (address: string | null) => (address === null ? 'nobody' : `${address.slice(0, 4)}…${address.slice(-4)}`)

/** The events from `before` to `after`, the most severe first. */
export function diffSnapshots(
  before: SubjectSnapshot,
  after: SubjectSnapshot,
  thresholds: Thresholds,
  context: DiffContext,
): DetectedEvent[] {
  const events = [
    ...mintEvents(before, after),
    ...extensionEvents(before, after, thresholds),
    ...metadataEvents(before, after),
    ...poolEvents(before, after, thresholds, context),
    ...lockEvents(before, after, thresholds, context),
    ...insiderEvents(before, after, thresholds, context),
  ]
  const rank: Record<EventSeverity, number> = { critical: 0, high: 1, medium: 2, low: 3 }
  return events.sort((a, b) => rank[a.severity] - rank[b.severity])
}

function mintEvents(before: SubjectSnapshot, after: SubjectSnapshot): DetectedEvent[] {
  const events: DetectedEvent[] = []
  const was = before.token
  const now = after.token
  if (now.supply > was.supply) {
    const grown = was.supply > 0n ? Number(((now.supply - was.supply) * 10_000n) / was.supply) / 100 : 100
    events.push({
      kind: 'mint_used',
      severity: 'critical',
      key: 'supply',
      before: { supply: text(was.supply) },
      after: { supply: text(now.supply), minted: text(now.supply - was.supply), grown_pct: grown },
      sentence: `The mint authority minted new tokens: the supply grew by ${grown}%, diluting every holder.`,
    })
  }
  for (const [kind, field, name] of [
    ['mint_authority_changed', 'mintAuthority', 'mint'],
    ['freeze_authority_changed', 'freezeAuthority', 'freeze'],
  ] as const) {
    if (was[field] === now[field]) continue
    const revoked = now[field] === null
    events.push({
      kind,
      severity: revoked ? 'low' : 'high',
      key: field,
      before: { authority: was[field] },
      after: { authority: now[field] },
      sentence: revoked
        ? `The ${name} authority was revoked: nobody can ${name === 'mint' ? 'mint more' : 'freeze holders'} any more.`
        : `The ${name} authority moved from ${short(was[field])} to ${short(now[field])}: a new key can ${name === 'mint' ? 'mint more tokens' : 'freeze holders’ accounts'}.`,
    })
  }
  return events
}

function extensionEvents(before: SubjectSnapshot, after: SubjectSnapshot, thresholds: Thresholds): DetectedEvent[] {
  const events: DetectedEvent[] = []
  const was = before.token
  const now = after.token
  const fee = (token: SubjectSnapshot['token']) =>
    token.transferFee === null ? 0 : Math.max(token.transferFee.basisPoints, token.transferFee.newerBasisPoints)
  if (fee(now) > fee(was)) {
    events.push({
      kind: 'transfer_fee_raised',
      severity: fee(now) >= thresholds.transfer_fee_critical_bps ? 'critical' : 'high',
      key: 'transfer_fee',
      before: { basis_points: fee(was) },
      after: {
        basis_points: fee(now),
        current_basis_points: now.transferFee?.basisPoints ?? 0,
        next_basis_points: now.transferFee?.newerBasisPoints ?? 0,
      },
      sentence: `The transfer fee was raised from ${fee(was) / 100}% to ${fee(now) / 100}%: every transfer and sale pays it.`,
    })
  }
  if (was.transferHook !== now.transferHook) {
    events.push({
      kind: 'transfer_hook_changed',
      severity: now.transferHook === null ? 'low' : 'critical',
      key: 'transfer_hook',
      before: { program: was.transferHook },
      after: { program: now.transferHook },
      sentence:
        now.transferHook === null
          ? 'The transfer hook was removed: transfers no longer run a program of the issuer’s choice.'
          : `Every transfer now runs the program ${short(now.transferHook)}, which can refuse a sale.`,
    })
  }
  if (was.defaultAccountState !== now.defaultAccountState) {
    const frozen = now.defaultAccountState === 'frozen'
    events.push({
      kind: 'default_state_changed',
      severity: frozen ? 'high' : 'low',
      key: 'default_state',
      before: { state: was.defaultAccountState },
      after: { state: now.defaultAccountState },
      sentence: frozen
        ? 'New token accounts now start frozen: a buyer’s account cannot move the token until the freeze authority thaws it.'
        : 'New token accounts no longer start frozen.',
    })
  }
  if (now.paused === true && was.paused !== true) {
    events.push({
      kind: 'paused',
      severity: 'critical',
      key: 'pause',
      before: { paused: was.paused },
      after: { paused: true },
      sentence: 'The token was paused: no holder can transfer or sell it until its pause authority resumes it.',
    })
  }
  return events
}

function metadataEvents(before: SubjectSnapshot, after: SubjectSnapshot): DetectedEvent[] {
  const was = before.metadata
  const now = after.metadata
  if (was === null || now === null) return []
  if (was.name === now.name && was.symbol === now.symbol && was.uri === now.uri) return []
  const imitates = after.impersonates !== null && before.impersonates?.mint !== after.impersonates.mint
  return [
    {
      kind: 'metadata_renamed',
      severity: imitates ? 'critical' : 'medium',
      key: 'metadata',
      before: { name: was.name, symbol: was.symbol, uri: was.uri },
      after: { name: now.name, symbol: now.symbol, uri: now.uri },
      ...(imitates ? { impersonates: after.impersonates! } : {}),
      sentence: imitates
        ? `The token renamed itself "${now.name}" (${now.symbol}) and now reads as ${after.impersonates!.name} (${after.impersonates!.symbol}), a registered asset whose mint is ${after.impersonates!.mint}: it is a copy.`
        : `The token’s metadata changed from "${was.name}" (${was.symbol}) to "${now.name}" (${now.symbol}).`,
    },
  ]
}

/** The pool of `after` as it was in `snapshot`. */
const samePool = (snapshot: SubjectSnapshot | undefined, pool: SnapshotPool) =>
  snapshot?.pools.find((entry) => entry.address === pool.address)

function poolEvents(
  before: SubjectSnapshot,
  after: SubjectSnapshot,
  thresholds: Thresholds,
  context: DiffContext,
): DetectedEvent[] {
  const events: DetectedEvent[] = []
  for (const pool of after.pools) {
    const was = samePool(before, pool)
    if (!was) continue
    // A removal takes both sides out; a sale adds tokens while it takes the quote out, and is not one.
    const removal = (from: SnapshotPool) =>
      pool.tokenReserve !== null && from.tokenReserve !== null && pool.tokenReserve <= from.tokenReserve
        ? dropPct(from.quoteReserve, pool.quoteReserve)
        : 0
    const step = removal(was)
    const start = samePool(context.windowStart, pool)
    // Within the window, the event fires once: on the step that carries the total past the threshold.
    const total = start && start !== was ? removal(start) : 0
    const beforeTotal = start && start !== was ? dropFrom(start, was) : 0
    const fired = crossing(was, start, { step, total, beforeTotal }, thresholds.liquidity_removed_pct)
    if (!fired) continue
    events.push({
      kind: 'liquidity_removed',
      severity: fired.pct >= 80 ? 'critical' : 'high',
      key: pool.address,
      ...(fired.from === was ? {} : { windowFrom: context.windowStart!.slot }),
      before: {
        pool: pool.address,
        quote_reserve: text(fired.from.quoteReserve),
        token_reserve: text(fired.from.tokenReserve),
      },
      after: {
        pool: pool.address,
        quote_reserve: text(pool.quoteReserve),
        token_reserve: text(pool.tokenReserve),
        removed_pct: fired.pct,
      },
      sentence: `${fired.pct}% of the ${pool.venue} pool’s liquidity was withdrawn${fired.from === was ? ' in one transaction' : ` within ${thresholds.liquidity_window_s / 60} minutes`}: selling now moves the price much further, and the rest may follow.`,
    })
  }
  return events
}

/** The quote side's drop from one pool state to another when it is a removal (both sides down), else 0. */
function dropFrom(from: SnapshotPool, to: SnapshotPool): number {
  if (to.tokenReserve === null || from.tokenReserve === null || to.tokenReserve > from.tokenReserve) return 0
  return dropPct(from.quoteReserve, to.quoteReserve)
}

function lockEvents(
  before: SubjectSnapshot,
  after: SubjectSnapshot,
  thresholds: Thresholds,
  context: DiffContext,
): DetectedEvent[] {
  const events: DetectedEvent[] = []
  const horizon = thresholds.lock_expiring_hours * 3_600
  for (const pool of after.pools) {
    const was = samePool(before, pool)
    if (!was) continue
    for (const lock of was.locks) {
      const now = pool.locks.find((entry) => entry.account === lock.account)
      const left = now?.amount ?? 0n
      if (left < lock.amount) {
        const pct = dropPct(lock.amount, left)
        events.push({
          kind: 'lp_moved',
          severity: 'critical',
          key: lock.account,
          before: { pool: pool.address, lock_account: lock.account, kind: lock.kind, amount: text(lock.amount) },
          after: { pool: pool.address, lock_account: lock.account, kind: lock.kind, amount: text(left) },
          sentence: `${pct}% of the LP tokens ${lock.kind === 'burn' ? 'held at a burn address' : `locked by ${lockName(lock)}`} left it: whoever holds them can withdraw the liquidity.`,
        })
        continue
      }
      if (!now || now.unlocksAt === null || now.permanent) continue
      if (now.unlocksAt <= context.now && (lock.unlocksAt ?? 0) > before.readAt / 1000) {
        events.push({
          kind: 'lp_unlocked',
          severity: 'critical',
          key: `${lock.account}:${now.unlocksAt}`,
          before: { pool: pool.address, lock_account: lock.account, unlocks_at: lock.unlocksAt },
          after: { pool: pool.address, lock_account: lock.account, unlocked: true, amount: text(now.amount) },
          sentence: `The ${lockName(now)} lock on ${pool.venue} LP has expired: its owner can now withdraw that liquidity.`,
        })
      } else if (now.unlocksAt > context.now && now.unlocksAt - context.now <= horizon) {
        const hours = Math.round(((now.unlocksAt - context.now) / 3_600) * 10) / 10
        events.push({
          kind: 'lp_lock_expiring',
          severity: 'medium',
          key: `${lock.account}:${now.unlocksAt}`,
          before: { pool: pool.address, lock_account: lock.account },
          after: { pool: pool.address, lock_account: lock.account, unlocks_at: now.unlocksAt, hours_left: hours },
          sentence: `The ${lockName(now)} lock on ${pool.venue} LP expires in ${hours} hours; after that the liquidity can be withdrawn.`,
        })
      }
    }
  }
  return events
}

const lockName = (lock: SnapshotLock) => (lock.program ?? 'an unknown locker').replaceAll('_', ' ')

function insiderEvents(
  before: SubjectSnapshot,
  after: SubjectSnapshot,
  thresholds: Thresholds,
  context: DiffContext,
): DetectedEvent[] {
  const events: DetectedEvent[] = []
  const limit = thresholds.insider_selling_pct
  for (const insider of after.insiders) {
    const find = (snapshot: SubjectSnapshot | undefined) =>
      snapshot?.insiders.find((entry) => entry.account === insider.account)
    const was = find(before)
    if (!was) continue
    const step = dropPct(was.amount, insider.amount)
    const start = find(context.windowStart)
    const total = start && context.windowStart !== before ? dropPct(start.amount, insider.amount) : 0
    const beforeTotal = start && context.windowStart !== before ? dropPct(start.amount, was.amount) : 0
    const fired = crossing(was, start, { step, total, beforeTotal }, limit)
    if (!fired) continue
    const who = insider.role === 'developer' ? 'The developer wallet' : 'A top holder'
    events.push({
      kind: 'insider_selling',
      severity: fired.pct >= 50 || insider.role === 'developer' ? 'critical' : 'high',
      key: insider.account,
      ...(fired.from === was ? {} : { windowFrom: context.windowStart!.slot }),
      before: { wallet: insider.wallet, role: insider.role, amount: text(fired.from.amount) },
      after: { wallet: insider.wallet, role: insider.role, amount: text(insider.amount), sold_pct: fired.pct },
      sentence: `${who} ${short(insider.wallet)} moved out ${fired.pct}% of its holding${fired.from === was ? '' : ` within ${thresholds.liquidity_window_s / 60} minutes`}.`,
    })
  }
  return events
}

/**
 * A fall that fires once within its window: on the step that alone reaches `limit` (from the state just
 * before), or else on the step that carries the window's total past it (from the window's start) — not
 * again on later steps once the total is past. Percentages of the fall: this step's, the window's total,
 * and the total before this step.
 */
function crossing<T>(
  was: T,
  start: T | undefined,
  fall: { step: number; total: number; beforeTotal: number },
  limit: number,
): { from: T; pct: number } | null {
  if (fall.step >= limit) return { from: was, pct: fall.step }
  if (start !== undefined && fall.total >= limit && fall.beforeTotal < limit) return { from: start, pct: fall.total }
  return null
}
