import { describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { takeFromBucket, type BucketShape } from './rate-limit.ts'
import { openSqliteStore } from './store/index.ts'

const shape: BucketShape = { capacity: 3, refillPerSecond: 1 }

describe('takeFromBucket', () => {
  test('a new client gets the full burst, then waits for refill', () => {
    let state
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

describe('SQLite store buckets', () => {
  test('limit per key', async () => {
    const store = openSqliteStore(':memory:')
    const take = (key: string) => store.takeToken(key, shape, 5_000).then((r) => r.allowed)
    expect([await take('a'), await take('a'), await take('a'), await take('a')]).toEqual([true, true, true, false])
    expect(await take('b')).toBe(true)
    await store.close()
  })

  test('two stores on one data directory share their buckets, as two processes on one host do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'solsentry-store-'))
    const one = openSqliteStore(dir)
    const two = openSqliteStore(dir)
    const allowed = []
    for (let i = 0; i < 4; i++) allowed.push((await (i % 2 ? two : one).takeToken('ip', shape, 9_000)).allowed)
    expect(allowed).toEqual([true, true, true, false])
    expect(await one.ping()).toBe(true)
    await one.close()
    await two.close()
    expect(await one.ping()).toBe(false)
  })
})
