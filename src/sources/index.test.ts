import { afterAll, describe, expect, test } from 'bun:test'
import { loadConfig } from '../settings.ts'
import { createSources, jupiterPerMinute, xSearchLimit } from './index.ts'
import { JupiterSource } from './jupiter.ts'
import { CallMeter, type UpstreamError } from './upstream.ts'

/** A loopback Jupiter that records the headers of each request and knows no token. */
const seen: Headers[] = []
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(request) {
    seen.push(request.headers)
    return Response.json([])
  },
})
afterAll(() => server.stop(true))

const jupiterWith = (env: Record<string, string>) =>
  createSources(loadConfig({ DATA_DIR: ':memory:', JUPITER_URL: `http://127.0.0.1:${server.port}`, ...env })).jupiter!

describe('createSources', () => {
  test('JUPITER_API_KEY travels as x-api-key on every Jupiter request', async () => {
    seen.length = 0
    await jupiterWith({ JUPITER_API_KEY: 'key-123' }).token(
      'So11111111111111111111111111111111111111112',
      new CallMeter(),
    )
    expect(seen.map((headers) => headers.get('x-api-key'))).toEqual(['key-123'])
  })

  test('without a key no x-api-key header is sent (the keyless tier)', async () => {
    seen.length = 0
    await jupiterWith({}).token('So11111111111111111111111111111111111111112', new CallMeter())
    expect(seen.length).toBe(1)
    expect(seen[0]!.has('x-api-key')).toBe(false)
  })

  test('the mainnet profile points Jupiter at api.jup.ag (lite-api.jup.ag is being retired)', () => {
    const config = loadConfig({
      SOLSENTRY_PROFILE: 'mainnet',
      DATA_DIR: ':memory:',
      PUBLIC_URL: 'https://solsentry.example',
      FACILITATOR_URL: 'https://facilitator.example',
      PAY_TO_SOLANA: 'So11111111111111111111111111111111111111112',
      PAY_TO_BASE: '0x0000000000000000000000000000000000000001',
    })
    expect(config.JUPITER_URL).toBe('https://api.jup.ag')
  })
})

describe('paced to the provider: Jupiter and DexScreener limits', () => {
  const mainnet = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: ':memory:', JUPITER_URL: 'https://api.jup.ag', ...env })

  test.each([
    [{}, 30],
    [{ JUPITER_API_KEY: 'k' }, 60],
    [{ JUPITER_API_KEY: 'k', JUPITER_REQUESTS_PER_MINUTE: '600' }, 600],
    [{ JUPITER_URL: 'http://127.0.0.1:1' }, undefined],
    [{ JUPITER_URL: 'http://127.0.0.1:1', JUPITER_REQUESTS_PER_MINUTE: '5' }, 5],
  ])('%j: %p requests per minute', (env, expected) => {
    expect(jupiterPerMinute(mainnet(env as Record<string, string>))).toBe(expected)
  })

  test('requests past the limit wait for the window instead of drawing 429s; an answered scan drops its waiting ones', async () => {
    // A loopback provider allowing 3 requests per 500 ms, as Jupiter's sliding window does.
    const arrivals: number[] = []
    let refused = 0
    const provider = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch() {
        const now = Date.now()
        if (arrivals.filter((at) => at > now - 500).length >= 3) {
          refused++
          return new Response('{"message":"Rate limit exceeded"}', { status: 429 })
        }
        arrivals.push(now)
        return Response.json([])
      },
    })
    try {
      const source = new JupiterSource({
        baseUrl: `http://127.0.0.1:${provider.port}`,
        limit: { requests: 3, windowMs: 550 },
        retries: 0,
      })
      const mints = Array.from({ length: 7 }, (_, index) => `So1111111111111111111111111111111111111111${index}`)
      const started = Date.now()
      await Promise.all(mints.map((mint) => source.token(mint, new CallMeter())))
      expect(refused).toBe(0)
      expect(arrivals).toHaveLength(7)
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000) // three windows: 3 + 3 + 1

      await Bun.sleep(600)
      const answered = new CallMeter()
      const waiting = ['a', 'b', 'c', 'd', 'e'].map((suffix) =>
        source.token(`So111111111111111111111111111111111111111${suffix}`, answered).then(
          () => 'answered',
          (error: UpstreamError) => error.reason,
        ),
      )
      await Bun.sleep(50)
      answered.close()
      expect(await Promise.all(waiting)).toEqual(['answered', 'answered', 'answered', 'cancelled', 'cancelled'])
    } finally {
      provider.stop(true)
    }
  })
})

describe('paced to the provider: X recent search', () => {
  const x = (env: Record<string, string>) =>
    xSearchLimit(loadConfig({ DATA_DIR: ':memory:', X_API_URL: 'https://api.x.com', X_BEARER_TOKEN: 't', ...env }))

  test.each([
    [{}, 60],
    [{ X_SEARCHES_PER_15_MIN: '450' }, 450],
    [{ X_API_URL: 'https://api.twitter.com', X_SEARCHES_PER_15_MIN: '300' }, 300],
  ])('%p: %p searches per 15 minutes (and a margin)', (env, requests) => {
    expect(x(env)).toEqual({ requests, windowMs: expect.any(Number) })
    expect(x(env)!.windowMs).toBeGreaterThanOrEqual(15 * 60_000)
  })

  test('a stand-in on another host is not paced', () => {
    expect(x({ X_API_URL: 'http://127.0.0.1:8905' })).toBeUndefined()
  })
})
