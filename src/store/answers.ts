/**
 * Paid answers kept for a while (docs/payments.md "Idempotency and re-fetching"): a retried call with
 * the same payment identifier, or its payer signing in with their wallet, gets the stored answer
 * instead of paying again. An entry is claimed before the work (so a retry waits for the first run
 * instead of running twice), finished with the answer on success, released on failure.
 */
import type { Database } from '../runtime/sqlite-driver.ts'
import type { Redis } from './redis.ts'

/** A stored answer: its status, the headers worth replaying, and its body bytes (base64). */
export interface StoredAnswer {
  status: number
  headers: Record<string, string>
  body_b64: string
}

export type Claim = { claimed: true } | { claimed: false; fingerprint: string; answer: StoredAnswer | null }

export interface AnswerStore {
  /** Claims `key` for work fingerprinted `fingerprint`, unless held: then what holds it (running: answer null). */
  claim(key: string, fingerprint: string, ttlMs: number, nowMs?: number): Promise<Claim>
  /** The finished answer of `key` (kept `ttlMs` from now). */
  finish(key: string, answer: StoredAnswer, ttlMs: number, nowMs?: number): Promise<void>
  /** Stores an answer under `key` whatever held it (the payer's copy). */
  put(key: string, answer: StoredAnswer, ttlMs: number, nowMs?: number): Promise<void>
  /** The answer under `key`, or null (none, running or expired). */
  get(key: string, nowMs?: number): Promise<StoredAnswer | null>
  /** Drops `key` (the work failed: the identifier may be used again). */
  release(key: string): Promise<void>
}

export function sqliteAnswers(db: Database): AnswerStore {
  db.run(`CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    answer TEXT,
    expires_at INTEGER NOT NULL
  )`)
  type Row = { fingerprint: string; answer: string | null; expires_at: number }
  const select = db.query<Row, [string]>('SELECT fingerprint, answer, expires_at FROM answers WHERE key = ?')
  const insert = db.query('INSERT OR REPLACE INTO answers (key, fingerprint, answer, expires_at) VALUES (?, ?, ?, ?)')
  const remove = db.query('DELETE FROM answers WHERE key = ?')
  const live = (key: string, nowMs: number) => {
    const row = select.get(key)
    if (row && row.expires_at <= nowMs) {
      remove.run(key)
      return null
    }
    return row
  }
  return {
    async claim(key, fingerprint, ttlMs, nowMs = Date.now()) {
      // One transaction: the check and the claim together (SQLite serialises writers).
      return db.transaction((): Claim => {
        const row = live(key, nowMs)
        if (row)
          return { claimed: false, fingerprint: row.fingerprint, answer: row.answer ? JSON.parse(row.answer) : null }
        insert.run(key, fingerprint, null, nowMs + ttlMs)
        return { claimed: true }
      })()
    },
    async finish(key, answer, ttlMs, nowMs = Date.now()) {
      db.query('UPDATE answers SET answer = ?, expires_at = ? WHERE key = ?').run(
        JSON.stringify(answer),
        nowMs + ttlMs,
        key,
      )
    },
    async put(key, answer, ttlMs, nowMs = Date.now()) {
      insert.run(key, 'put', JSON.stringify(answer), nowMs + ttlMs)
    },
    async get(key, nowMs = Date.now()) {
      const row = live(key, nowMs)
      return row?.answer ? (JSON.parse(row.answer) as StoredAnswer) : null
    },
    async release(key) {
      remove.run(key)
    },
  }
}

const PREFIX = 'solsentry:answer:'

/** In Redis (REDIS_URL): one JSON value per key, `SET NX PX` to claim, so instances share the claims. */
export function redisAnswers(client: Redis): AnswerStore {
  const read = async (key: string) => {
    const raw = (await client.send('GET', [PREFIX + key])) as string | null
    return raw ? (JSON.parse(raw) as { fingerprint: string; answer: StoredAnswer | null }) : null
  }
  return {
    async claim(key, fingerprint, ttlMs) {
      const set = await client.send('SET', [
        PREFIX + key,
        JSON.stringify({ fingerprint, answer: null }),
        'NX',
        'PX',
        String(ttlMs),
      ])
      if (set === 'OK') return { claimed: true }
      const held = await read(key)
      // Expired between the two commands: claim again.
      if (!held) return this.claim(key, fingerprint, ttlMs)
      return { claimed: false, fingerprint: held.fingerprint, answer: held.answer }
    },
    async finish(key, answer, ttlMs) {
      const held = await read(key)
      await client.send('SET', [
        PREFIX + key,
        JSON.stringify({ fingerprint: held?.fingerprint ?? 'finished', answer }),
        'PX',
        String(ttlMs),
      ])
    },
    async put(key, answer, ttlMs) {
      await client.send('SET', [PREFIX + key, JSON.stringify({ fingerprint: 'put', answer }), 'PX', String(ttlMs)])
    },
    async get(key) {
      return (await read(key))?.answer ?? null
    },
    async release(key) {
      await client.send('DEL', [PREFIX + key])
    },
  }
}
