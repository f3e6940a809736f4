import { Database } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { MemoryBuckets } from '../rate-limit.ts'
import type { Store } from './index.ts'

/**
 * Opens the embedded store: `<dataDir>/solsentry.db` in WAL mode, or an in-memory database when
 * `dataDir` is `:memory:`. Rate-limit buckets stay in process memory (see MemoryBuckets).
 */
export function openSqliteStore(dataDir: string): Store {
  const path = dataDir === ':memory:' ? ':memory:' : join(dataDir, 'solsentry.db')
  if (path !== ':memory:') mkdirSync(dataDir, { recursive: true })
  const db = new Database(path, { create: true, strict: true })
  db.run('PRAGMA journal_mode = WAL')
  db.run('PRAGMA synchronous = NORMAL')
  db.run('PRAGMA busy_timeout = 5000')
  const buckets = new MemoryBuckets()

  return {
    kind: 'sqlite',
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
