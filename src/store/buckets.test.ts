import { describe, expect, test } from 'bun:test'
import { describeBackends, describeWithRedis, redisForFile } from '../../test/support/redis.ts'
import { MemoryBuckets, type BucketShape, type TakeResult } from './token-buckets.ts'
import { redisClient, redisPing } from './redis.ts'
import { redisBuckets } from './buckets-redis.ts'

const redis = redisForFile()

const SHAPE: BucketShape = { capacity: 3, refillPerSecond: 0.5 }
/** Takes at these times (ms) and what each answers: the burst, the refusal, the refill, the cap. */
const SEQUENCE: [number, TakeResult][] = [
  [0, { allowed: true, remaining: 2, retryAfterS: 0 }],
  [10, { allowed: true, remaining: 1, retryAfterS: 0 }],
  [20, { allowed: true, remaining: 0, retryAfterS: 0 }],
  [30, { allowed: false, remaining: 0, retryAfterS: 2 }],
  [1_030, { allowed: false, remaining: 0, retryAfterS: 1 }],
  [2_030, { allowed: true, remaining: 0, retryAfterS: 0 }],
  [60_000, { allowed: true, remaining: 2, retryAfterS: 0 }],
]

let unique = 0
const backends: [
  string,
  () => { take(key: string, shape: BucketShape, now: number): Promise<TakeResult>; close(): void },
][] = [
  [
    'memory',
    () => {
      const buckets = new MemoryBuckets()
      return { take: async (key: string, shape: BucketShape, now: number) => buckets.take(key, shape, now), close() {} }
    },
  ],
  [
    'Redis',
    () => {
      const client = redisClient(redis.url)
      return { take: redisBuckets(client).take, close: () => client.close() }
    },
  ],
]
describeBackends(backends, 'token buckets: the same arithmetic', (open) => {
  test('a burst, a refusal with its wait, the refill, the cap', async () => {
    const buckets = open()
    const key = `client-${process.pid}-${++unique}`
    for (const [at, expected] of SEQUENCE) expect(await buckets.take(key, SHAPE, 1_000_000 + at)).toEqual(expected)
    buckets.close()
  })
})

describeWithRedis('Redis buckets', () => {
  test("two instances share one client's bucket", async () => {
    const clients = [redisClient(redis.url), redisClient(redis.url)]
    const [a, b] = clients.map(redisBuckets) as [ReturnType<typeof redisBuckets>, ReturnType<typeof redisBuckets>]
    const key = `shared-${process.pid}-${++unique}`
    const answers = [
      await a.take(key, SHAPE, 5_000),
      await b.take(key, SHAPE, 5_000),
      await a.take(key, SHAPE, 5_000),
      await b.take(key, SHAPE, 5_000),
    ]
    expect(answers.map((answer) => answer.allowed)).toEqual([true, true, true, false])
    expect(await redisPing(clients[0]!)).toBe(true)
    for (const client of clients) client.close()
  })
})

describe('Redis buckets without a server', () => {
  test('an unreachable Redis lets requests through and reads down', async () => {
    const closed = Bun.serve({ port: 0, fetch: () => new Response('') })
    const url = `redis://127.0.0.1:${closed.port}`
    await closed.stop(true)
    const client = redisClient(url)
    expect(await redisBuckets(client).take('anyone', SHAPE, 0)).toMatchObject({ allowed: true })
    expect(await redisPing(client)).toBe(false)
    client.close()
  })
})
