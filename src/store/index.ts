import type { BucketShape, TakeResult } from '../core/rate-limit.ts'
import type { JobStore } from './jobs.ts'
import type { LaunchIndex } from './launches.ts'
import type { PaymentLedger } from './ledger.ts'

/**
 * Where the service keeps state: rate-limit buckets, the payment ledger and trade jobs. One
 * interface: the embedded store (SQLite file, buckets in process memory) for a single instance, and
 * (with REDIS_URL) the ledger and jobs in a Redis shared by several.
 */
export interface Store {
  readonly kind: 'sqlite' | 'redis'
  /** Atomically refills the bucket `key` and takes one token from it. */
  takeToken(key: string, shape: BucketShape, nowMs?: number): Promise<TakeResult>
  /**
   * The same, answered synchronously, for stores that can (in-process buckets). The core prefers it:
   * an asynchronous onRequest hook makes Elysia's whole request pipeline asynchronous.
   */
  takeTokenSync?(key: string, shape: BucketShape, nowMs?: number): TakeResult
  /** Every payment by its stable key and state (src/store/ledger.ts). */
  readonly ledger: PaymentLedger
  /** Trade jobs by id, transitions guarded by status (src/store/jobs.ts). */
  readonly jobs: JobStore
  /** The launchpad index the radars read (src/store/launches.ts). */
  readonly launches: LaunchIndex
  /** Paid answers kept for retries (payment identifier) and re-fetching (sign-in-with-x). */
  readonly answers: AnswerStore
  /** True when the store answers. */
  ping(): Promise<boolean>
  close(): Promise<void>
}

import { type AnswerStore, redisAnswers } from './answers.ts'
import { redisBuckets } from './buckets-redis.ts'
import { redisJobs } from './jobs-redis.ts'
import { redisLaunches } from './launches-redis.ts'
import { redisLedger } from './ledger-redis.ts'
import { redisClient, redisPing } from './redis.ts'
import { openSqliteStore } from './sqlite.ts'

export { openSqliteStore }

/**
 * The store this configuration names: the embedded SQLite store, whose rate-limit buckets, payment
 * ledger and trade jobs move to Redis when REDIS_URL is set, so instances sharing the Redis hold a
 * client to one limit, use a payment once and execute a job once across all of them.
 */
export function openStore(config: { DATA_DIR: string; REDIS_URL?: string }): Store {
  const store = openSqliteStore(config.DATA_DIR)
  if (!config.REDIS_URL) return store
  // One connection serves the ledger, the jobs and the buckets (Bun's client pipelines commands).
  const client = redisClient(config.REDIS_URL)
  const buckets = redisBuckets(client)
  return {
    kind: 'redis',
    ledger: redisLedger(client),
    jobs: redisJobs(client),
    // One launchpad index for every instance: one ingests (under a lease), all read.
    launches: redisLaunches(client),
    answers: redisAnswers(client),
    takeToken: (key, shape, nowMs) => buckets.take(key, shape, nowMs),
    ping: async () => (await store.ping()) && (await redisPing(client)),
    async close() {
      client.close()
      await store.close()
    },
  }
}
export type { PaymentLedger, PaymentRecord, PaymentState } from './ledger.ts'
