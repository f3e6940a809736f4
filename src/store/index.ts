import type { BucketShape, TakeResult } from '../rate-limit.ts'
import type { PaymentLedger } from './ledger.ts'

/**
 * Where the service keeps state: rate-limit buckets and the payment ledger now; trade jobs and the
 * response cache as their features land. One interface: the embedded store (SQLite file, buckets in
 * process memory) for a single instance, and (with REDIS_URL) a shared one for several.
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
  /** True when the store answers. */
  ping(): Promise<boolean>
  close(): Promise<void>
}

export { openSqliteStore } from './sqlite.ts'
export type { PaymentLedger, PaymentRecord, PaymentState } from './ledger.ts'
