/**
 * Watches (the position guard, docs/watch.md) and their events. A watch is one paid period of watching
 * one subject (a token mint or a wallet); its events are kept in the order they were detected, each
 * once (an event id detected twice — a catch-up re-reading what the live stream already gave — is kept
 * once), with the state of its webhook delivery beside it, so delivery survives a restart and is
 * ordered per watch: the engine sends a watch's next event only when every earlier one is delivered or
 * dead-lettered. The event itself is the engine's JSON (plugins/watch/watch-events.ts); the store keeps
 * it as it is given.
 */
import type { Database } from '../runtime/sqlite-driver.ts'

export type WatchState = 'active' | 'expired' | 'cancelled'
export type WatchSubjectKind = 'token' | 'wallet'

export interface WatchRecord {
  id: string
  subject: { kind: WatchSubjectKind; address: string }
  /** The event kinds watched (the engine's vocabulary). */
  events: string[]
  /** Per-watch threshold overrides, within the engine's bounds (name → value in its unit). */
  thresholds: Record<string, number>
  webhookUrl: string | null
  exit: { userPublicKey: string; slippageBps: number } | null
  /** The wallet that paid: the only one that may read or cancel the watch (sign-in-with-x). */
  payer: string
  /** The paid period, ms since epoch: no event is detected or delivered outside it. */
  paidFrom: number
  paidUntil: number
  state: WatchState
  createdAt: number
}

/** Where a webhook delivery stands: `none` for a watch without a webhook (its events are read, not sent). */
export type DeliveryState = 'none' | 'pending' | 'delivered' | 'dead'

export interface StoredWatchEvent<T = unknown> {
  watchId: string
  /** The event's order within its watch, from 1. */
  seq: number
  eventId: string
  event: T
  createdAt: number
  delivery: {
    state: DeliveryState
    attempts: number
    /** When the next attempt is due (ms since epoch); null once final. */
    nextAttemptAt: number | null
    lastError: string | null
    deliveredAt: number | null
  }
}

/** What one delivery attempt came to. */
export type AttemptOutcome =
  | { outcome: 'delivered' }
  | { outcome: 'retry'; error: string; nextAttemptAt: number }
  | { outcome: 'dead'; error: string }

export interface WatchStore {
  /** Creates the watch; false when the id is taken. */
  create(watch: WatchRecord): Promise<boolean>
  get(id: string): Promise<WatchRecord | undefined>
  /** Moves the watch's state when it is one of `from`; false otherwise. */
  setState(id: string, from: readonly WatchState[], to: WatchState, nowMs?: number): Promise<boolean>
  /** Every watch in the `active` state (what an engine starting up resumes). */
  active(): Promise<WatchRecord[]>
  /**
   * Keeps an event of the watch once per event id: answers its place and whether it is new. With
   * `deliver`, its delivery is pending from `nowMs`; without, it is `none`.
   */
  append(
    watchId: string,
    eventId: string,
    event: unknown,
    options: { deliver: boolean; nowMs?: number },
  ): Promise<{ seq: number; fresh: boolean }>
  /** The watch's events in order, after `afterSeq` (SSE resumes with it), at most `limit`. */
  events<T>(watchId: string, options?: { afterSeq?: number; limit?: number }): Promise<StoredWatchEvent<T>[]>
  /** The watch's oldest event whose delivery is pending: the only one that may be sent now. */
  nextPending<T>(watchId: string): Promise<StoredWatchEvent<T> | undefined>
  /** Records an attempt at a pending delivery; false when it is no longer pending (another sender won). */
  recordAttempt(watchId: string, seq: number, attempt: AttemptOutcome, nowMs?: number): Promise<boolean>
  /** The watches with a pending delivery (what a delivery worker resumes after a restart). */
  pendingWatches(): Promise<string[]>
  /**
   * The latest snapshot of a watched subject (the engine's JSON), kept so that whichever instance follows
   * it next — after a restart, or taking over a dead instance's watches — compares with it and reports
   * what changed while nobody was reading.
   */
  saveSnapshot(subject: string, snapshot: string, nowMs?: number): Promise<void>
  snapshot(subject: string): Promise<string | undefined>
}

interface WatchRow {
  id: string
  state: WatchState
  record: string
}

interface EventRow {
  watch_id: string
  seq: number
  event_id: string
  event: string
  created_at: number
  delivery: DeliveryState
  attempts: number
  next_attempt_at: number | null
  last_error: string | null
  delivered_at: number | null
}

const recordOf = (row: WatchRow): WatchRecord => ({ ...(JSON.parse(row.record) as WatchRecord), state: row.state })

export const eventOf = <T>(row: EventRow): StoredWatchEvent<T> => ({
  watchId: row.watch_id,
  seq: row.seq,
  eventId: row.event_id,
  event: JSON.parse(row.event) as T,
  createdAt: row.created_at,
  delivery: {
    state: row.delivery,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    deliveredAt: row.delivered_at,
  },
})

/** Watches and their events in the embedded store's SQLite database. */
export function sqliteWatches(db: Database): WatchStore {
  db.run(`CREATE TABLE IF NOT EXISTS watches (
    id TEXT PRIMARY KEY, state TEXT NOT NULL, record TEXT NOT NULL, updated_at INTEGER NOT NULL)`)
  db.run('CREATE INDEX IF NOT EXISTS watches_state ON watches (state)')
  db.run(`CREATE TABLE IF NOT EXISTS watch_events (
    watch_id TEXT NOT NULL, seq INTEGER NOT NULL, event_id TEXT NOT NULL, event TEXT NOT NULL, created_at INTEGER NOT NULL,
    delivery TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER, last_error TEXT,
    delivered_at INTEGER, PRIMARY KEY (watch_id, seq), UNIQUE (watch_id, event_id))`)
  db.run("CREATE INDEX IF NOT EXISTS watch_events_pending ON watch_events (delivery) WHERE delivery = 'pending'")

  const insertWatch = db.query(
    'INSERT INTO watches (id, state, record, updated_at) VALUES ($id, $state, $record, $now) ON CONFLICT (id) DO NOTHING',
  )
  const selectWatch = db.query<WatchRow, { id: string }>('SELECT id, state, record FROM watches WHERE id = $id')
  const selectActive = db.query<WatchRow, []>(
    "SELECT id, state, record FROM watches WHERE state = 'active' ORDER BY rowid",
  )
  const existing = db.query<{ seq: number }, { watchId: string; eventId: string }>(
    'SELECT seq FROM watch_events WHERE watch_id = $watchId AND event_id = $eventId',
  )
  const lastSeq = db.query<{ seq: number | null }, { watchId: string }>(
    'SELECT MAX(seq) AS seq FROM watch_events WHERE watch_id = $watchId',
  )
  const insertEvent = db.query(
    `INSERT INTO watch_events (watch_id, seq, event_id, event, created_at, delivery, next_attempt_at)
     VALUES ($watchId, $seq, $eventId, $event, $now, $delivery, $next)`,
  )
  // One transaction: the duplicate check, the next place and the insert cannot interleave with another append.
  const appendOne = db.transaction((watchId: string, eventId: string, event: string, deliver: boolean, now: number) => {
    const found = existing.get({ watchId, eventId })
    if (found) return { seq: found.seq, fresh: false }
    const seq = (lastSeq.get({ watchId })?.seq ?? 0) + 1
    insertEvent.run({
      watchId,
      seq,
      eventId,
      event,
      now,
      delivery: deliver ? 'pending' : 'none',
      next: deliver ? now : null,
    })
    return { seq, fresh: true }
  })
  const selectPending = db.query<EventRow, { watchId: string }>(
    "SELECT * FROM watch_events WHERE watch_id = $watchId AND delivery = 'pending' ORDER BY seq LIMIT 1",
  )
  const pendingWatches = db.query<{ watch_id: string }, []>(
    "SELECT DISTINCT watch_id FROM watch_events WHERE delivery = 'pending'",
  )
  const delivered = db.query(
    `UPDATE watch_events SET delivery = 'delivered', attempts = attempts + 1, next_attempt_at = NULL, delivered_at = $now
     WHERE watch_id = $watchId AND seq = $seq AND delivery = 'pending'`,
  )
  const retry = db.query(
    `UPDATE watch_events SET attempts = attempts + 1, next_attempt_at = $next, last_error = $error
     WHERE watch_id = $watchId AND seq = $seq AND delivery = 'pending'`,
  )
  const dead = db.query(
    `UPDATE watch_events SET delivery = 'dead', attempts = attempts + 1, next_attempt_at = NULL, last_error = $error
     WHERE watch_id = $watchId AND seq = $seq AND delivery = 'pending'`,
  )

  db.run(
    'CREATE TABLE IF NOT EXISTS watch_snapshots (subject TEXT PRIMARY KEY, snapshot TEXT NOT NULL, updated_at INTEGER NOT NULL)',
  )
  const saveSnapshot = db.query(
    `INSERT INTO watch_snapshots (subject, snapshot, updated_at) VALUES ($subject, $snapshot, $now)
     ON CONFLICT (subject) DO UPDATE SET snapshot = excluded.snapshot, updated_at = excluded.updated_at`,
  )
  const selectSnapshot = db.query<{ snapshot: string }, { subject: string }>(
    'SELECT snapshot FROM watch_snapshots WHERE subject = $subject',
  )

  return {
    async saveSnapshot(subject, snapshot, nowMs = Date.now()) {
      saveSnapshot.run({ subject, snapshot, now: nowMs })
    },
    async snapshot(subject) {
      return selectSnapshot.get({ subject })?.snapshot
    },
    async create(watch) {
      const { state, ...rest } = watch
      return insertWatch.run({ id: watch.id, state, record: JSON.stringify(rest), now: watch.createdAt }).changes > 0
    },
    async get(id) {
      const row = selectWatch.get({ id })
      return row ? recordOf(row) : undefined
    },
    async setState(id, from, to, nowMs = Date.now()) {
      if (from.length === 0) return false
      const guard = from.map((_, index) => `$from${index}`).join(', ')
      const params = Object.fromEntries(from.map((value, index) => [`from${index}`, value]))
      const update = db.query(
        `UPDATE watches SET state = $to, updated_at = $now WHERE id = $id AND state IN (${guard})`,
      )
      return update.run({ id, to, now: nowMs, ...params }).changes > 0
    },
    async active() {
      return selectActive.all().map(recordOf)
    },
    async append(watchId, eventId, event, { deliver, nowMs = Date.now() }) {
      return appendOne(watchId, eventId, JSON.stringify(event), deliver, nowMs)
    },
    async events<T>(watchId: string, { afterSeq = 0, limit = 1_000 } = {}) {
      const rows = db
        .query<EventRow, { watchId: string; afterSeq: number; limit: number }>(
          'SELECT * FROM watch_events WHERE watch_id = $watchId AND seq > $afterSeq ORDER BY seq LIMIT $limit',
        )
        .all({ watchId, afterSeq, limit })
      return rows.map((row) => eventOf<T>(row))
    },
    async nextPending<T>(watchId: string) {
      const row = selectPending.get({ watchId })
      return row ? eventOf<T>(row) : undefined
    },
    async recordAttempt(watchId, seq, attempt, nowMs = Date.now()) {
      const run =
        attempt.outcome === 'delivered'
          ? delivered.run({ watchId, seq, now: nowMs })
          : attempt.outcome === 'retry'
            ? retry.run({ watchId, seq, next: attempt.nextAttemptAt, error: attempt.error })
            : dead.run({ watchId, seq, error: attempt.error })
      return run.changes > 0
    },
    async pendingWatches() {
      return pendingWatches.all().map((row) => row.watch_id)
    },
  }
}
