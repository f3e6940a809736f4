import { describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BucketShape, type BucketState, MemoryBuckets, takeFromBucket } from './token-buckets.ts'
import { openSqliteStore } from './index.ts'

const shape: BucketShape = { capacity: 3, refillPerSecond: 1 }

describe('takeFromBucket', () => {
  test('a new client gets the full burst, then waits for refill', () => {
    let state: BucketState | undefined
    const results = []
    for (let i = 0; i < 4; i++) {
      const taken = takeFromBucket(state, shape, 1_000)
      state = taken.next
      results.push(taken.result)
    }
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false])
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0])
    expect(results[3]!.retryAfterS).toBe(1)
    // Half a second later still nothing; a full second later one token.
    expect(takeFromBucket(state, shape, 1_500).result.allowed).toBe(false)
    expect(takeFromBucket(state, shape, 2_000).result.allowed).toBe(true)
  })

  test('refill never exceeds the capacity', () => {
    const { result } = takeFromBucket({ tokens: 0, updatedMs: 0 }, shape, 1_000_000)
    expect(result.remaining).toBe(2)
  })

  test('retry-after rounds up to whole seconds at slow refill rates', () => {
    const slow = { capacity: 1, refillPerSecond: 1 / 60 }
    const first = takeFromBucket(undefined, slow, 0)
    const second = takeFromBucket(first.next, slow, 0)
    expect(second.result).toEqual({ allowed: false, remaining: 0, retryAfterS: 60 })
  })
})

describe('MemoryBuckets', () => {
  test('limits per key', () => {
    const buckets = new MemoryBuckets()
    const take = (key: string) => buckets.take(key, shape, 5_000).allowed
    expect([take('a'), take('a'), take('a'), take('a')]).toEqual([true, true, true, false])
    expect(take('b')).toBe(true)
  })

  test('a sweep drops only buckets idle long enough to be full again', () => {
    const buckets = new MemoryBuckets()
    buckets.take('old', shape, 0)
    buckets.take('recent', shape, 2_500)
    buckets.sweep(3_500) // 'old' refills in 3 s, so it expired at 3 000 ms
    expect(buckets.size).toBe(1)
    // The swept client starts again with a full bucket, exactly as if it had been kept.
    expect(buckets.take('old', shape, 3_500).remaining).toBe(2)
  })
})

describe('SQLite store', () => {
  test('takes tokens synchronously and asynchronously from the same buckets', async () => {
    const store = openSqliteStore(':memory:')
    expect(store.takeTokenSync!('k', { capacity: 1, refillPerSecond: 1 }, 0).allowed).toBe(true)
    expect((await store.takeToken('k', { capacity: 1, refillPerSecond: 1 }, 0)).allowed).toBe(false)
    await store.close()
  })

  test('creates its data directory and answers ping until closed', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'solsentry-store-')), 'nested', 'data')
    const store = openSqliteStore(dir)
    expect(await store.ping()).toBe(true)
    expect(existsSync(join(dir, 'solsentry.db'))).toBe(true)
    await store.close()
    expect(await store.ping()).toBe(false)
  })
})
