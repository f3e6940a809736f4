import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { MemoryBuckets } from './token-buckets.ts'
import type { Store } from './store.ts'
import type { JobStore } from './jobs.ts'
import { sqliteLaunches } from './launches.ts'
import { sqliteAnswers } from './answers.ts'
import { sqliteWatches } from './watches.ts'
import { type Database, openDatabase } from '../runtime/sqlite-driver.ts'
import { OPEN_STATES, RETRYABLE_STATES, type PaymentLedger, type PaymentRecord } from './ledger.ts'

/**
 * Opens the embedded store: `<dataDir>/solsentry.db` in WAL mode, or an in-memory database when
 * `dataDir` is `:memory:`. Rate-limit buckets stay in process memory (see MemoryBuckets). `open` is the
 * runtime's driver (src/runtime/sqlite-driver.ts); tests hand the other one.
 */
export function openSqliteStore(dataDir: string, open: (path: string) => Database = openDatabase): Store {
  const path = dataDir === ':memory:' ? ':memory:' : join(dataDir, 'solsentry.db')
  if (path !== ':memory:') mkdirSync(dataDir, { recursive: true })
  const db = open(path)
  db.run('PRAGMA journal_mode = WAL')
  db.run('PRAGMA synchronous = NORMAL')
  db.run('PRAGMA busy_timeout = 5000')
  const buckets = new MemoryBuckets()

  return {
    kind: 'sqlite',
    ledger: sqliteLedger(db),
    jobs: sqliteJobs(db),
    launches: sqliteLaunches(db),
    answers: sqliteAnswers(db),
    watches: sqliteWatches(db),
    async takeToken(key, shape, nowMs = Date.now()) {
      return buckets.take(key, shape, nowMs)
    },
    takeTokenSync(key, shape, nowMs = Date.now()) {
      return buckets.take(key, shape, nowMs)
    },
    async ping() {
      try {
        db.query('SELECT 1').get()
        return true
      } catch {
        return false
      }
    },
    async close() {
      db.close()
    },
  }
}

interface PaymentRow {
  key: string
  state: PaymentRecord['state']
  network: string
  amount: string
  resource: string
  request_hash: string | null
  request_id: string
  payer: string | null
  tx: string | null
  reason: string | null
  evidence: string | null
  created_at: number
  updated_at: number
}

const toRecord = (row: PaymentRow): PaymentRecord => ({
  key: row.key,
  state: row.state,
  network: row.network,
  amount: row.amount,
  resource: row.resource,
  requestHash: row.request_hash,
  requestId: row.request_id,
  payer: row.payer,
  transaction: row.tx,
  reason: row.reason,
  evidence: row.evidence,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
})

/**
 * The ledger in one table. Each claim is a single statement (an insert, or an update guarded by the
 * retryable states), so concurrent copies of one payment cannot both win, within or across processes
 * sharing the file.
 */
function sqliteLedger(db: Database): PaymentLedger {
  db.run(`CREATE TABLE IF NOT EXISTS payments (
    key TEXT PRIMARY KEY, state TEXT NOT NULL, network TEXT NOT NULL, amount TEXT NOT NULL, resource TEXT NOT NULL,
    request_id TEXT NOT NULL, payer TEXT, tx TEXT, reason TEXT, evidence TEXT, request_hash TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`)
  // A data directory from before `evidence` or `request_hash` existed gets the column (NULL for its old payments).
  const columns = new Set(
    db
      .query<{ name: string }, []>('PRAGMA table_info(payments)')
      .all()
      .map((column) => column.name),
  )
  for (const column of ['evidence', 'request_hash'])
    if (!columns.has(column)) db.run(`ALTER TABLE payments ADD COLUMN ${column} TEXT`)
  db.run('CREATE INDEX IF NOT EXISTS payments_state ON payments (state)')
  const retryable = RETRYABLE_STATES.map((state) => `'${state}'`).join(', ')
  const insert = db.query(
    `INSERT INTO payments (key, state, network, amount, resource, request_hash, request_id, evidence, created_at, updated_at)
     VALUES ($key, 'verifying', $network, $amount, $resource, $requestHash, $requestId, $evidence, $now, $now)
     ON CONFLICT (key) DO UPDATE SET state = 'verifying', network = excluded.network, amount = excluded.amount,
       resource = excluded.resource, request_hash = excluded.request_hash, request_id = excluded.request_id, payer = NULL,
       tx = NULL, reason = NULL, evidence = excluded.evidence, updated_at = excluded.updated_at
     WHERE payments.state IN (${retryable})`,
  )
  const select = db.query<PaymentRow, { key: string }>('SELECT * FROM payments WHERE key = $key')
  const move = db.query(
    `UPDATE payments SET state = $to, payer = COALESCE($payer, payer), tx = COALESCE($tx, tx), reason = COALESCE($reason, reason), updated_at = $now
     WHERE key = $key AND state = $from`,
  )
  const open = db.query<PaymentRow, []>(
    `SELECT * FROM payments WHERE state IN (${OPEN_STATES.map((state) => `'${state}'`).join(', ')}) ORDER BY created_at`,
  )
  return {
    async claim(payment, nowMs = Date.now()) {
      const { changes } = insert.run({
        ...payment,
        evidence: payment.evidence ?? null,
        requestHash: payment.requestHash ?? null,
        now: nowMs,
      })
      if (changes > 0) return { ok: true }
      return { ok: false, existing: toRecord(select.get({ key: payment.key })!) }
    },
    async transition(key, from, to, fields = {}, nowMs = Date.now()) {
      const { changes } = move.run({
        key,
        from,
        to,
        payer: fields.payer ?? null,
        tx: fields.transaction ?? null,
        reason: fields.reason ?? null,
        now: nowMs,
      })
      return changes > 0
    },
    async get(key) {
      const row = select.get({ key })
      return row ? toRecord(row) : undefined
    },
    async unresolved() {
      return open.all().map(toRecord)
    },
  }
}

/** Trade jobs in one table: the status in its own column (the guard of every transition), the job as JSON. */
function sqliteJobs(db: Database): JobStore {
  db.run(
    'CREATE TABLE IF NOT EXISTS trade_jobs (id TEXT PRIMARY KEY, status TEXT NOT NULL, job TEXT NOT NULL, updated_at INTEGER NOT NULL)',
  )
  const insert = db.query(
    'INSERT INTO trade_jobs (id, status, job, updated_at) VALUES ($id, $status, $job, $now) ON CONFLICT (id) DO NOTHING',
  )
  const select = db.query<{ id: string; status: string; job: string; updated_at: number }, { id: string }>(
    'SELECT * FROM trade_jobs WHERE id = $id',
  )
  db.run('CREATE TABLE IF NOT EXISTS trade_transactions (signature TEXT PRIMARY KEY, job_id TEXT NOT NULL)')
  const bind = db.query(
    'INSERT INTO trade_transactions (signature, job_id) VALUES ($signature, $jobId) ON CONFLICT (signature) DO NOTHING',
  )
  const ownerOf = db.query<{ job_id: string }, { signature: string }>(
    'SELECT job_id FROM trade_transactions WHERE signature = $signature',
  )
  return {
    async claimTransaction(signature, jobId) {
      bind.run({ signature, jobId })
      return ownerOf.get({ signature })!.job_id
    },
    async create(id, status, job, nowMs = Date.now()) {
      return insert.run({ id, status, job: JSON.stringify(job), now: nowMs }).changes > 0
    },
    async transition(id, from, status, job, nowMs = Date.now()) {
      if (from.length === 0) return false
      const guard = from.map((_, index) => `$from${index}`).join(', ')
      const params = Object.fromEntries(from.map((value, index) => [`from${index}`, value]))
      const update = db.query(
        `UPDATE trade_jobs SET status = $status, job = $job, updated_at = $now WHERE id = $id AND status IN (${guard})`,
      )
      return update.run({ id, status, job: JSON.stringify(job), now: nowMs, ...params }).changes > 0
    },
    async get(id) {
      const row = select.get({ id })
      return row ? { id: row.id, status: row.status, job: JSON.parse(row.job), updatedAt: row.updated_at } : undefined
    },
  }
}
