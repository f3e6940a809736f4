import { Database } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { idleExpiryMs, takeFromBucket, type BucketShape, type BucketState } from '../rate-limit.ts'
import type { Store } from './index.ts'

/** Every this many takes, idle buckets are swept so the table stays the size of the active clients. */
const SWEEP_EVERY_TAKES = 10_000

/**
 * Opens the embedded store: `<dataDir>/solsentry.db` in WAL mode, or an in-memory database when
 * `dataDir` is `:memory:`. Several processes on one host may share the file.
 */
export function openSqliteStore(dataDir: string): Store {
  const path = dataDir === ':memory:' ? ':memory:' : join(dataDir, 'solsentry.db')
  if (path !== ':memory:') mkdirSync(dataDir, { recursive: true })
  const db = new Database(path, { create: true, strict: true })
  db.run('PRAGMA journal_mode = WAL')
  db.run('PRAGMA synchronous = NORMAL')
  db.run('PRAGMA busy_timeout = 5000')
  db.run(`CREATE TABLE IF NOT EXISTS rate_buckets (
    key TEXT PRIMARY KEY,
    tokens REAL NOT NULL,
    updated_ms INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL
  ) WITHOUT ROWID`)

  const select = db.query<{ tokens: number; updated_ms: number }, { key: string }>(
    'SELECT tokens, updated_ms FROM rate_buckets WHERE key = $key',
  )
  const upsert = db.query(
    `INSERT INTO rate_buckets (key, tokens, updated_ms, expires_ms) VALUES ($key, $tokens, $updated, $expires)
     ON CONFLICT(key) DO UPDATE SET tokens = excluded.tokens, updated_ms = excluded.updated_ms, expires_ms = excluded.expires_ms`,
  )
  const sweep = db.query('DELETE FROM rate_buckets WHERE expires_ms < $now')
  let takesSinceSweep = 0

  // IMMEDIATE takes the write lock up front, so two processes cannot both read the same token.
  const take = db.transaction((key: string, shape: BucketShape, nowMs: number) => {
    const row = select.get({ key })
    const state: BucketState | undefined = row ? { tokens: row.tokens, updatedMs: row.updated_ms } : undefined
    const { next, result } = takeFromBucket(state, shape, nowMs)
    upsert.run({ key, tokens: next.tokens, updated: next.updatedMs, expires: nowMs + idleExpiryMs(shape) })
    return result
  })

  return {
    kind: 'sqlite',
    async takeToken(key, shape, nowMs = Date.now()) {
      if (++takesSinceSweep >= SWEEP_EVERY_TAKES) {
        takesSinceSweep = 0
        sweep.run({ now: nowMs })
      }
      return take.immediate(key, shape, nowMs)
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
