import { afterAll, describe, expect, test } from 'bun:test'
import { CallMeter, Memo, statusFailure, Upstream, UpstreamError } from './upstream.ts'

/** A local upstream answering with the statuses queued for it (then 200). */
const statuses: number[] = []
let received = 0
const server = Bun.serve({
  port: 0,
  fetch() {
    received++
    return new Response('{}', { status: statuses.shift() ?? 200 })
  },
})
afterAll(() => server.stop(true))

function attempt(upstream: Upstream) {
  return async (signal: AbortSignal) => {
    const response = await fetch(`http://127.0.0.1:${server.port}`, { signal })
    const failure = statusFailure(upstream.name, response.status)
    if (failure) throw failure
    return response.status
  }
}

describe('Upstream', () => {
  test('retries 429 and 5xx, then succeeds; every attempt is counted', async () => {
    const upstream = new Upstream({ name: 'test', retries: 2, backoffMs: 1 })
    const meter = new CallMeter()
    statuses.push(429, 503)
    received = 0
    expect(await upstream.run([meter], attempt(upstream))).toBe(200)
    expect(received).toBe(3)
    expect(meter.toJSON()).toEqual({ test: 3 })
    expect(meter.depth()).toBe(3)
  })

  test('does not retry a refusal (404)', async () => {
    const upstream = new Upstream({ name: 'test', retries: 2, backoffMs: 1 })
    statuses.push(404)
    received = 0
    await expect(upstream.run([new CallMeter()], attempt(upstream))).rejects.toMatchObject({ reason: 'rejected' })
    expect(received).toBe(1)
  })

  test('opens its breaker after consecutive failures and fails fast until the cooldown', async () => {
    const upstream = new Upstream({ name: 'test', retries: 0, breakerThreshold: 3, breakerCooldownMs: 50 })
    for (let i = 0; i < 3; i++) {
      statuses.push(500)
      await expect(upstream.run([new CallMeter()], attempt(upstream))).rejects.toBeInstanceOf(UpstreamError)
    }
    expect(upstream.health()).toBe('down')
    received = 0
    await expect(upstream.run([new CallMeter()], attempt(upstream))).rejects.toMatchObject({ reason: 'circuit_open' })
    expect(received).toBe(0)
    await Bun.sleep(60)
    expect(upstream.breaker).toBe('half-open')
    expect(await upstream.run([new CallMeter()], attempt(upstream))).toBe(200)
    expect(upstream.health()).toBe('ok')
  })

  test('times out a slow answer as `timeout`', async () => {
    const slow = Bun.serve({
      port: 0,
      fetch: async () => {
        await Bun.sleep(500)
        return new Response('{}')
      },
    })
    const upstream = new Upstream({ name: 'slow', timeoutMs: 50, retries: 0 })
    await expect(
      upstream.run([new CallMeter()], (signal) => fetch(`http://127.0.0.1:${slow.port}`, { signal })),
    ).rejects.toMatchObject({ reason: 'timeout' })
    await slow.stop(true)
  })
})

describe('Memo', () => {
  test('coalesces concurrent loads and serves the cached value within the TTL', async () => {
    const memo = new Memo()
    let loads = 0
    const load = async () => {
      await Bun.sleep(5)
      return ++loads
    }
    const values = await Promise.all(Array.from({ length: 10 }, () => memo.get('k', 1_000, load)))
    expect(values).toEqual(Array(10).fill(1))
    expect(await memo.get('k', 1_000, load)).toBe(1)
    expect(loads).toBe(1)
  })

  test('does not cache failures', async () => {
    const memo = new Memo()
    await expect(memo.get('k', 1_000, async () => Promise.reject(new Error('down')))).rejects.toThrow('down')
    expect(await memo.get('k', 1_000, async () => 'up')).toBe('up')
  })

  test('expires entries after the TTL', async () => {
    const memo = new Memo()
    let loads = 0
    await memo.get('k', 10, async () => ++loads)
    await Bun.sleep(20)
    await memo.get('k', 10, async () => ++loads)
    expect(loads).toBe(2)
  })

  test('keeps an answer read from the shared cache only for what remains of its life there', async () => {
    // Another instance wrote the answer with a 60 s TTL, 59.95 s ago: 50 ms remain in the shared cache.
    let sharedReads = 0
    const shared = {
      get: async () => (++sharedReads === 1 ? { value: 'written elsewhere', ttlMs: 50 } : undefined),
      set: async () => {},
      health: () => 'ok' as const,
      close: () => {},
    }
    const memo = new Memo(10, shared)
    let loads = 0
    const load = async () => `loaded ${++loads}`
    expect(await memo.get('k', 60_000, load)).toBe('written elsewhere')
    expect(await memo.get('k', 60_000, load)).toBe('written elsewhere') // within the 50 ms
    await Bun.sleep(80)
    // Not the full 60 s again: past its life in the shared cache the answer is loaded afresh.
    expect(await memo.get('k', 60_000, load)).toBe('loaded 1')
    expect(loads).toBe(1)
  })
})
