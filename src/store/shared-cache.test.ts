import { afterAll, describe, expect, test } from 'bun:test'
import { eventually } from '../../test/support/eventually.ts'
import { describeWithRedis, redisForFile } from '../../test/support/redis.ts'
import { redisClient } from './redis.ts'
import { RedisCache } from './shared-cache.ts'
import { SolanaSource } from '../sources/solana-rpc.ts'
import { CallMeter } from '../sources/upstream.ts'

const redis = redisForFile()
/** A JSON-RPC peer that counts the getBalance calls it answers. */
let answered = 0
const rpcPeer = Bun.serve({
  port: 0,
  async fetch(request) {
    const body = (await request.json()) as { id: number } | { id: number }[]
    const calls = Array.isArray(body) ? body : [body]
    answered += calls.length
    // The u64 is written as bare digits, as a real RPC does (a JS number would lose it).
    const answers = calls.map(
      (call) => `{"jsonrpc":"2.0","id":${call.id},"result":{"context":{"slot":1},"value":12345678901234567890}}`,
    )
    return new Response(Array.isArray(body) ? `[${answers.join(',')}]` : answers[0], {
      headers: { 'content-type': 'application/json' },
    })
  },
})

afterAll(() => rpcPeer.stop(true))

describeWithRedis('RedisCache', () => {
  test('json-bigint keeps u64s exact (every integer reads back as a bigint, as kit parses RPC answers)', async () => {
    const cache = new RedisCache(redis.url, 'json-bigint')
    await cache.set('k', { lamports: 18446744073709551615n, list: [1, 'two'] }, 200)
    const entry = await cache.get('k')
    expect(entry?.value).toEqual({ lamports: 18446744073709551615n, list: [1n, 'two'] })
    // Its remaining life in Redis comes with it: a reader keeps it no longer.
    expect(entry?.ttlMs).toBeGreaterThan(0)
    expect(entry?.ttlMs).toBeLessThanOrEqual(200)
    await Bun.sleep(250)
    expect(await cache.get('k')).toBeUndefined()
    expect(cache.health()).toBe('ok')
    cache.close()
  })

  test('json keeps plain numbers, and the two formats never read each other', async () => {
    const plain = new RedisCache(redis.url, 'json')
    await plain.set('k', { buys: 3, price: '0.1' }, 1_000)
    expect((await plain.get('k'))?.value).toEqual({ buys: 3, price: '0.1' })
    expect(await new RedisCache(redis.url, 'json-bigint').get('k')).toBeUndefined()
  })

  test('two service instances share answers: the second does not call the upstream', async () => {
    const url = `http://127.0.0.1:${rpcPeer.port}`
    const first = new SolanaSource({ url, cache: new RedisCache(redis.url, 'json-bigint') })
    const second = new SolanaSource({ url, cache: new RedisCache(redis.url, 'json-bigint') })
    answered = 0
    const account = '11111111111111111111111111111112' as never
    const a = await first.rpc(new CallMeter()).getBalance(account).send()
    // The write to Redis is not awaited by the caller: wait until Redis holds it.
    const probe = redisClient(redis.url)
    const keys = async () => ((await probe.send('KEYS', ['*getBalance*'])) as string[]).length
    await eventually('the answer in Redis', keys, (count) => count > 0)
    probe.close()
    const meter = new CallMeter()
    const b = await second.rpc(meter).getBalance(account).send()
    expect<unknown>(b.value).toBe(a.value)
    expect<unknown>(b.value).toBe(12345678901234567890n)
    expect(answered).toBe(1)
    expect(meter.total()).toBe(0)
  })
})

describe('RedisCache without a server', () => {
  test('an unreachable Redis is a miss, not an error', async () => {
    const cache = new RedisCache('redis://127.0.0.1:1', 'json-bigint')
    expect(await cache.get('k')).toBeUndefined()
    await cache.set('k', 1, 1000)
    expect(cache.health()).toBe('down')
    const source = new SolanaSource({ url: `http://127.0.0.1:${rpcPeer.port}`, cache })
    answered = 0
    const { value } = await source
      .rpc(new CallMeter())
      .getBalance('11111111111111111111111111111113' as never)
      .send()
    expect<unknown>(value).toBe(12345678901234567890n)
    expect(answered).toBe(1)
  })
})
