import type { BucketShape, TakeResult } from './token-buckets.ts'
import type { JobStore } from './jobs.ts'
import type { LaunchIndex } from './launches.ts'
import type { PaymentLedger } from './ledger.ts'
import type { AnswerStore } from './answers.ts'
import type { WatchStore } from './watches.ts'

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
  /** The position guard's watches, their events and the events' webhook deliveries (src/store/watches.ts). */
  readonly watches: WatchStore
  /** True when the store answers. */
  ping(): Promise<boolean>
  close(): Promise<void>
}
