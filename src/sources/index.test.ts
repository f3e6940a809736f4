import { afterAll, describe, expect, test } from 'bun:test'
import { loadConfig } from '../core/config.ts'
import { createSources } from './index.ts'
import { CallMeter } from './upstream.ts'

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
