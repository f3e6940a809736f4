import { expect, test } from 'bun:test'
import { describeBackends, redisForFile } from '../../test/support/redis.ts'
import { respConnection } from '../runtime/redis-connection.ts'
import { openNodeSqlite } from '../runtime/sqlite-driver.ts'
import { redisClient } from './redis.ts'
import { openSqliteStore } from './sqlite.ts'
import type { WatchRecord, WatchStore } from './watches.ts'
import { redisWatches } from './watches-redis.ts'

const redis = redisForFile()

const backends: [string, () => { watches: WatchStore; close(): unknown }][] = [
  ['SQLite', () => openSqliteStore(':memory:')],
  ['SQLite, node:sqlite', () => openSqliteStore(':memory:', openNodeSqlite)],
  [
    'Redis',
    () => {
      const client = redisClient(redis.url)
      return { watches: redisWatches(client), close: () => client.close() }
    },
  ],
  [
    'Redis, RESP over node:net',
    () => {
      const client = redisClient(redis.url, respConnection)
      return { watches: redisWatches(client), close: () => client.close() }
    },
  ],
]

let unique = 0
const id = (name: string) => `${name}-${process.pid}-${++unique}`

const watchOf = (watchId: string, overrides: Partial<WatchRecord> = {}): WatchRecord => ({
  id: watchId,
  subject: { kind: 'token', address: 'Gd6iFzpzAwVCDDDJyxZnnHXTT27nL9PSkUKMJejSuJnp' },
  events: ['liquidity_removed', 'mint_used'],
  thresholds: { liquidity_removed_pct: 30 },
  webhookUrl: 'http://127.0.0.1:1/hook',
  exit: { userPublicKey: 'So11111111111111111111111111111111111111112', slippageBps: 300 },
  payer: 'payer-wallet',
  paidFrom: 1_000,
  paidUntil: 3_601_000,
  state: 'active',
  createdAt: 1_000,
  ...overrides,
})

describeBackends(backends, 'watches', (open) => {
  test('a watch is created once, read whole, listed while active, and its state moves only from what it is', async () => {
    const { watches, close } = open()
    const watch = watchOf(id('w'))
    expect(await watches.create(watch)).toBe(true)
    expect(await watches.create({ ...watch, payer: 'someone-else' })).toBe(false)
    expect(await watches.get(watch.id)).toEqual(watch)
    expect(await watches.get(id('absent'))).toBeUndefined()
    expect((await watches.active()).map((entry) => entry.id)).toContain(watch.id)
    expect(await watches.setState(watch.id, ['expired'], 'cancelled')).toBe(false)
    expect(await watches.setState(watch.id, ['active'], 'cancelled')).toBe(true)
    expect((await watches.get(watch.id))?.state).toBe('cancelled')
    expect((await watches.active()).map((entry) => entry.id)).not.toContain(watch.id)
    await close()
  })

  test('events keep their order, each event id once; a watch without a webhook keeps them undelivered', async () => {
    const { watches, close } = open()
    const watchId = id('events')
    expect(await watches.append(watchId, 'e1', { kind: 'mint_used', n: 1 }, { deliver: true, nowMs: 10 })).toEqual({
      seq: 1,
      fresh: true,
    })
    expect(await watches.append(watchId, 'e2', { kind: 'paused', list: [] }, { deliver: true, nowMs: 11 })).toEqual({
      seq: 2,
      fresh: true,
    })
    // The catch-up re-detects e1: kept once, at its first place.
    expect(await watches.append(watchId, 'e1', { kind: 'mint_used', n: 99 }, { deliver: true })).toEqual({
      seq: 1,
      fresh: false,
    })
    const listed = await watches.events<{ kind: string; n?: number; list?: unknown[] }>(watchId)
    expect(listed.map((entry) => [entry.seq, entry.eventId, entry.event.kind])).toEqual([
      [1, 'e1', 'mint_used'],
      [2, 'e2', 'paused'],
    ])
    expect(listed[0]!.event.n).toBe(1)
    // JSON round-trips as given (an empty array stays an array).
    expect(listed[1]!.event.list).toEqual([])
    expect(listed[0]!.delivery).toEqual({
      state: 'pending',
      attempts: 0,
      nextAttemptAt: 10,
      lastError: null,
      deliveredAt: null,
    })
    expect((await watches.events(watchId, { afterSeq: 1 })).map((entry) => entry.eventId)).toEqual(['e2'])
    const quiet = id('quiet')
    await watches.append(quiet, 'q1', { kind: 'paused' }, { deliver: false })
    expect((await watches.events(quiet))[0]!.delivery.state).toBe('none')
    expect(await watches.nextPending(quiet)).toBeUndefined()
    await close()
  })

  test('of ten concurrent appends of one event id, one is fresh', async () => {
    const { watches, close } = open()
    const watchId = id('race')
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, n) => watches.append(watchId, 'same', { n }, { deliver: true })),
    )
    expect(results.filter((result) => result.fresh)).toHaveLength(1)
    expect(new Set(results.map((result) => result.seq))).toEqual(new Set([1]))
    await close()
  })

  test('delivery: the oldest pending first; retries, delivery and dead-letter are final once; pending watches listed', async () => {
    const { watches, close } = open()
    const watchId = id('deliver')
    await watches.append(watchId, 'a', { n: 1 }, { deliver: true, nowMs: 1 })
    await watches.append(watchId, 'b', { n: 2 }, { deliver: true, nowMs: 2 })
    expect(await watches.pendingWatches()).toContain(watchId)
    expect((await watches.nextPending(watchId))?.eventId).toBe('a')
    expect(await watches.recordAttempt(watchId, 1, { outcome: 'retry', error: 'HTTP 500', nextAttemptAt: 500 })).toBe(
      true,
    )
    expect((await watches.nextPending(watchId))?.delivery).toMatchObject({
      attempts: 1,
      nextAttemptAt: 500,
      lastError: 'HTTP 500',
    })
    expect(await watches.recordAttempt(watchId, 1, { outcome: 'dead', error: 'refused' }, 600)).toBe(true)
    // Final: a late sender's outcome changes nothing.
    expect(await watches.recordAttempt(watchId, 1, { outcome: 'delivered' })).toBe(false)
    expect((await watches.nextPending(watchId))?.eventId).toBe('b')
    expect(await watches.recordAttempt(watchId, 2, { outcome: 'delivered' }, 700)).toBe(true)
    expect(await watches.nextPending(watchId)).toBeUndefined()
    expect(await watches.pendingWatches()).not.toContain(watchId)
    const [first, second] = await watches.events(watchId)
    expect(first!.delivery).toMatchObject({ state: 'dead', attempts: 2, lastError: 'refused', nextAttemptAt: null })
    expect(second!.delivery).toMatchObject({ state: 'delivered', attempts: 1, deliveredAt: 700 })
    await close()
  })

  test('the latest snapshot of a subject: absent, then the last one saved', async () => {
    const { watches, close } = open()
    const subject = id('mint')
    expect(await watches.snapshot(subject)).toBeUndefined()
    await watches.saveSnapshot(subject, '{"slot":1}')
    await watches.saveSnapshot(subject, '{"slot":2}')
    expect(await watches.snapshot(subject)).toBe('{"slot":2}')
    await close()
  })
})
