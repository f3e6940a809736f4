import { redisAnswers } from './answers.ts'
import type { Store } from './store.ts'
import { redisBuckets } from './buckets-redis.ts'
import { redisJobs } from './jobs-redis.ts'
import { redisLaunches } from './launches-redis.ts'
import { redisLedger } from './ledger-redis.ts'
import { redisWatches } from './watches-redis.ts'
import { redisClient, redisPing } from './redis.ts'
import { openSqliteStore } from './sqlite.ts'

export { openSqliteStore }
export type { Store }

/**
 * The store this configuration names: the embedded SQLite store, whose rate-limit buckets, payment
 * ledger and trade jobs move to Redis when REDIS_URL is set, so instances sharing the Redis hold a
 * client to one limit, use a payment once and execute a job once across all of them.
 */
export function openStore(config: { DATA_DIR: string; REDIS_URL?: string }): Store {
  const store = openSqliteStore(config.DATA_DIR)
  if (!config.REDIS_URL) return store
  // One connection serves the ledger, the jobs and the buckets (the connection pipelines commands).
  const client = redisClient(config.REDIS_URL)
  const buckets = redisBuckets(client)
  return {
    kind: 'redis',
    ledger: redisLedger(client),
    jobs: redisJobs(client),
    // One launchpad index for every instance: one ingests (under a lease), all read.
    launches: redisLaunches(client),
    answers: redisAnswers(client),
    // Watches shared by every instance: whichever holds a watched subject, all read its events.
    watches: redisWatches(client),
    takeToken: (key, shape, nowMs) => buckets.take(key, shape, nowMs),
    ping: async () => (await store.ping()) && (await redisPing(client)),
    async close() {
      client.close()
      await store.close()
    },
  }
}
export type { PaymentLedger, PaymentRecord, PaymentState } from './ledger.ts'
