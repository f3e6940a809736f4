import { parseJsonWithBigInts, stringifyJsonWithBigInts } from '@solana/rpc-spec-types'
import { type Redis, redisClient } from './redis.ts'

/**
 * A cache several service instances share (Redis), behind the in-process one: a fact one instance
 * fetched is reused by the others within its TTL. Failures of the cache itself are misses, never
 * errors: a scan does not depend on the cache being up.
 */
export interface SharedCache {
  /** The value and how long Redis keeps it still (ms), or undefined on a miss. */
  get(key: string): Promise<SharedEntry | undefined>
  set(key: string, value: unknown, ttlMs: number): Promise<void>
  health(): 'ok' | 'down'
  close(): void
}

/** A shared answer and its remaining life: a reader keeps it no longer than Redis does. */
export interface SharedEntry {
  value: unknown
  ttlMs: number
}

/** Keys are namespaced so the cache can share a Redis with other data. */
const PREFIX = 'solsentry:cache:'
/** A cache answer later than this is a miss: the cache must never slow a scan down. */
const CACHE_TIMEOUT_MS = 150

/**
 * How values are written: `json-bigint` keeps u64s exact and reads every integer back as a bigint —
 * the form @solana/kit's transport parses RPC answers into; `json` is plain JSON for the HTTP sources.
 */
export type CacheFormat = 'json' | 'json-bigint'

/** The shared cache on Redis (the runtime's connection: src/runtime/redis-connection.ts). */
export class RedisCache implements SharedCache {
  readonly #client: Redis
  readonly #format: CacheFormat
  #healthy = true

  constructor(url: string, format: CacheFormat) {
    this.#format = format
    this.#client = redisClient(url)
  }

  async get(key: string): Promise<SharedEntry | undefined> {
    const name = `${PREFIX + this.#format}:${key}`
    // Sent together (the connection pipelines them): one round trip for the value and its remaining life.
    const [text, ttlMs] = await Promise.all([
      this.#within(this.#client.send('GET', [name], CACHE_TIMEOUT_MS)),
      this.#within(this.#client.send('PTTL', [name], CACHE_TIMEOUT_MS)),
    ])
    // PTTL answers -2 for a key gone (expired between the two) and -1 for one without expiry (never written so).
    if (typeof text !== 'string' || typeof ttlMs !== 'number' || ttlMs <= 0) return undefined
    return { value: this.#format === 'json-bigint' ? parseJsonWithBigInts(text) : JSON.parse(text), ttlMs }
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    const text = this.#format === 'json-bigint' ? stringifyJsonWithBigInts(value) : JSON.stringify(value)
    await this.#within(
      this.#client.send(
        'SET',
        [`${PREFIX + this.#format}:${key}`, text, 'PX', String(Math.max(1, Math.round(ttlMs)))],
        CACHE_TIMEOUT_MS,
      ),
    )
  }

  /** The command's answer, or undefined when it fails or takes longer than CACHE_TIMEOUT_MS (its deadline). */
  async #within<T>(command: Promise<T>): Promise<T | undefined> {
    try {
      const answer = await command
      this.#healthy = true
      return answer
    } catch {
      this.#healthy = false
      return undefined
    }
  }

  health(): 'ok' | 'down' {
    return this.#healthy ? 'ok' : 'down'
  }

  close(): void {
    this.#client.close()
  }
}
