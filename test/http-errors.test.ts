import { describe, expect, test } from 'bun:test'
import { ERROR_CATALOGUE } from '../src/kernel/errors.ts'
import { MAX_BODY_BYTES } from '../src/http/body.ts'
import { send, testApp, VALID_MINT } from './support/app.ts'
import { eventually } from './support/eventually.ts'
import { testWithRedis, startRedis } from './support/redis.ts'

const SCAN = '/fixture/scan'

function expectError(sent: { status: number; json: any; headers: Headers }, code: keyof typeof ERROR_CATALOGUE) {
  expect(sent.status).toBe(ERROR_CATALOGUE[code].status)
  expect(sent.headers.get('content-type')).toStartWith('application/json')
  expect(sent.json).toMatchObject({ schema_version: '2.0', error: true, code })
  expect(typeof sent.json.message).toBe('string')
  expect(sent.json.request_id).toBe(sent.headers.get('x-request-id'))
}

describe('a valid request', () => {
  test('is answered with schema_version and a request id', async () => {
    const { app } = testApp()
    const sent = await send(app, 'POST', SCAN, { json: { token_address: VALID_MINT } })
    expect(sent.status).toBe(200)
    expect(sent.json).toEqual({ schema_version: '2.0', token_address: VALID_MINT })
    expect(sent.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  test('accepts application/json with a charset and +json media types', async () => {
    const { app } = testApp()
    for (const type of ['application/json; charset=utf-8', 'application/vnd.api+json']) {
      const sent = await send(app, 'POST', SCAN, {
        body: JSON.stringify({ token_address: VALID_MINT }),
        headers: { 'content-type': type },
      })
      expect(sent.status).toBe(200)
    }
  })

  test('keeps a well-formed incoming x-request-id and replaces a malformed one', async () => {
    const { app } = testApp()
    const kept = await send(app, 'GET', '/health', { headers: { 'x-request-id': 'trace-42.a:b' } })
    expect(kept.headers.get('x-request-id')).toBe('trace-42.a:b')
    const replaced = await send(app, 'GET', '/health', { headers: { 'x-request-id': 'bad id <script>' } })
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('INVALID_ADDRESS (400)', () => {
  test.each([
    [{}, 'token_address is required'],
    [{ token_address: 12 }, 'must be a string'],
    [
      { token_address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
      'EVM addresses are not supported: send a Solana SPL mint address',
    ],
    [{ token_address: 'BONK' }, "send the token's mint address, not its ticker"],
    [{ token_address: 'short-but-not-a-ticker!' }, 'must be 32 to 44 characters long'],
    [{ token_address: 'O'.repeat(40) }, 'not in the base58 alphabet'],
    [{ token_address: 'z'.repeat(44) }, 'not 32'],
    [[], 'token_address is required'],
    ['just a string', 'token_address is required'],
  ])('body %p → %s', async (body, message) => {
    const { app } = testApp()
    const sent = await send(app, 'POST', SCAN, { json: body })
    expectError(sent, 'INVALID_ADDRESS')
    expect(sent.json.message).toContain(message)
    expect(sent.json.field).toBe('token_address')
  })

  test('an empty body reads as a missing token_address', async () => {
    const { app } = testApp()
    expectError(await send(app, 'POST', SCAN), 'INVALID_ADDRESS')
  })
})

describe('request body errors', () => {
  test('malformed JSON → 400 INVALID_JSON', async () => {
    const { app } = testApp()
    const sent = await send(app, 'POST', SCAN, {
      body: '{"token_address":',
      headers: { 'content-type': 'application/json' },
    })
    expectError(sent, 'INVALID_JSON')
    expect(sent.json.message).toContain('not valid JSON')
  })

  test('invalid UTF-8 → 400 INVALID_JSON', async () => {
    const { app } = testApp()
    const sent = await send(app, 'POST', SCAN, {
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
      headers: { 'content-type': 'application/json' },
    })
    expectError(sent, 'INVALID_JSON')
  })

  test.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
    'Content-Type %s → 415',
    async (type) => {
      const { app } = testApp()
      const sent = await send(app, 'POST', SCAN, {
        body: `token_address=${VALID_MINT}`,
        headers: { 'content-type': type },
      })
      expectError(sent, 'UNSUPPORTED_MEDIA_TYPE')
      expect(sent.json.message).toContain('Content-Type: application/json')
    },
  )

  test('a body without Content-Type → 415', async () => {
    const { app } = testApp()
    const sent = await send(app, 'POST', SCAN, {
      body: JSON.stringify({ token_address: VALID_MINT }),
      headers: { 'content-type': '' },
    })
    expectError(sent, 'UNSUPPORTED_MEDIA_TYPE')
  })

  test('a declared Content-Length over 16 KiB → 413 before the body is read', async () => {
    const { app } = testApp()
    const sent = await send(app, 'POST', SCAN, {
      body: JSON.stringify({ token_address: VALID_MINT, pad: 'x'.repeat(MAX_BODY_BYTES) }),
      headers: { 'content-type': 'application/json', 'content-length': String(MAX_BODY_BYTES + 100) },
    })
    expectError(sent, 'PAYLOAD_TOO_LARGE')
    expect(sent.json.limit_bytes).toBe(16 * 1024)
  })

  test('a streamed body over 16 KiB without Content-Length → 413', async () => {
    const { app } = testApp()
    const chunk = new TextEncoder().encode('x'.repeat(4096))
    let sentChunks = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sentChunks++ < 10) controller.enqueue(chunk)
        else controller.close()
      },
    })
    const response = await app.handle(
      new Request('http://localhost/fixture/scan', {
        method: 'POST',
        body: stream,
        headers: { 'content-type': 'application/json' },
      }),
    )
    expect(response.status).toBe(413)
    expect(((await response.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE')
  })

  test('a body of exactly 16 KiB is accepted', async () => {
    const { app } = testApp()
    const json = JSON.stringify({ token_address: VALID_MINT, pad: '' })
    const body = json.replace('"pad":""', `"pad":"${'x'.repeat(MAX_BODY_BYTES - json.length)}"`)
    expect(body.length).toBe(MAX_BODY_BYTES)
    const sent = await send(app, 'POST', SCAN, { body, headers: { 'content-type': 'application/json' } })
    expect(sent.status).toBe(200)
  })
})

describe('routing and unexpected errors', () => {
  test('unknown route → 404 NOT_FOUND naming the route', async () => {
    const { app } = testApp()
    const sent = await send(app, 'GET', '/scan/nothing')
    expectError(sent, 'NOT_FOUND')
    expect(sent.json.message).toContain('no route GET /scan/nothing')
  })

  test('a known path with the wrong method → 404 NOT_FOUND', async () => {
    const { app } = testApp()
    expectError(await send(app, 'GET', SCAN), 'NOT_FOUND')
  })

  test('an unexpected exception → 500 INTERNAL with the request id, no stack, no message leak', async () => {
    const { app, ctx } = testApp()
    const sent = await send(app, 'GET', '/fixture/boom', { headers: { 'x-request-id': 'req-boom' } })
    expectError(sent, 'INTERNAL')
    expect(sent.json.request_id).toBe('req-boom')
    expect(sent.text).not.toContain('kaboom')
    expect(sent.text).not.toContain('secret')
    expect(sent.text).not.toContain('.ts:')
    // The operator gets the stack in the log, keyed by the same request id.
    const logged = ctx.logs.find((line) => line.msg === 'unhandled error')
    expect(logged).toMatchObject({ req_id: 'req-boom' })
    expect(JSON.stringify(logged)).toContain('kaboom')
  })
})

describe('RATE_LIMITED (429)', () => {
  test('a client over its burst gets 429 with Retry-After; another client is unaffected', async () => {
    const { app } = testApp({ TRUST_PROXY: 'true', RATE_LIMIT_SCANNER_BURST: '2', RATE_LIMIT_SCANNER_PER_MINUTE: '6' })
    const from = (ip: string) => ({
      json: { token_address: VALID_MINT },
      headers: { 'x-forwarded-for': `203.0.113.9, ${ip}` },
    })
    expect((await send(app, 'POST', SCAN, from('198.51.100.1'))).status).toBe(200)
    expect((await send(app, 'POST', SCAN, from('198.51.100.1'))).status).toBe(200)
    const limited = await send(app, 'POST', SCAN, from('198.51.100.1'))
    expectError(limited, 'RATE_LIMITED')
    expect(limited.headers.get('retry-after')).toBe('10')
    expect(limited.json.retry_after_s).toBe(10)
    expect((await send(app, 'POST', SCAN, from('198.51.100.2'))).status).toBe(200)
  })

  test('invalid requests count against the limit too', async () => {
    const { app } = testApp({ TRUST_PROXY: 'true', RATE_LIMIT_SCANNER_BURST: '1' })
    const headers = { 'x-forwarded-for': '198.51.100.7' }
    expect((await send(app, 'POST', SCAN, { json: { token_address: 'BONK' }, headers })).status).toBe(400)
    expect((await send(app, 'POST', SCAN, { json: { token_address: VALID_MINT }, headers })).status).toBe(429)
  })

  testWithRedis('two instances sharing a Redis (REDIS_URL) hold a client to one limit', async () => {
    const redis = await startRedis()
    const env = { TRUST_PROXY: 'true', RATE_LIMIT_SCANNER_BURST: '2', REDIS_URL: redis.url }
    const [one, two] = [testApp(env), testApp(env)]
    try {
      expect(one.ctx.store.kind).toBe('redis')
      const headers = { 'x-forwarded-for': '198.51.100.8' }
      expect((await send(one.app, 'POST', SCAN, { json: { token_address: VALID_MINT }, headers })).status).toBe(200)
      expect((await send(two.app, 'POST', SCAN, { json: { token_address: VALID_MINT }, headers })).status).toBe(200)
      expectError(await send(one.app, 'POST', SCAN, { json: { token_address: VALID_MINT }, headers }), 'RATE_LIMITED')
      expectError(await send(two.app, 'POST', SCAN, { json: { token_address: VALID_MINT }, headers }), 'RATE_LIMITED')
    } finally {
      await one.ctx.store.close()
      await two.ctx.store.close()
      await redis.stop()
    }
  })

  test('a trailing slash or a query string reaches the same route, its limit and its address check', async () => {
    const { app } = testApp({ TRUST_PROXY: 'true', RATE_LIMIT_SCANNER_BURST: '2' })
    const headers = { 'x-forwarded-for': '198.51.100.9' }
    expectError(await send(app, 'POST', `${SCAN}/`, { json: { token_address: 'BONK' }, headers }), 'INVALID_ADDRESS')
    expect(
      (await send(app, 'POST', `${SCAN}?from=test`, { json: { token_address: VALID_MINT }, headers })).status,
    ).toBe(200)
    expectError(await send(app, 'POST', SCAN, { json: { token_address: VALID_MINT }, headers }), 'RATE_LIMITED')
  })

  test('routes without a limit class are never limited', async () => {
    const { app } = testApp({ RATE_LIMIT_SCANNER_BURST: '1' })
    for (let i = 0; i < 5; i++) expect((await send(app, 'GET', '/health')).status).toBe(200)
  })

  test('X-Forwarded-For is ignored unless TRUST_PROXY is set', async () => {
    const { app } = testApp({ RATE_LIMIT_SCANNER_BURST: '1' })
    const first = await send(app, 'POST', SCAN, {
      json: { token_address: VALID_MINT },
      headers: { 'x-forwarded-for': '198.51.100.1' },
    })
    const second = await send(app, 'POST', SCAN, {
      json: { token_address: VALID_MINT },
      headers: { 'x-forwarded-for': '198.51.100.2' },
    })
    expect([first.status, second.status]).toEqual([200, 429])
  })
})

describe('CORS', () => {
  test('answers a preflight and exposes the payment headers', async () => {
    const { app } = testApp()
    const sent = await send(app, 'OPTIONS', SCAN, {
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-payment',
      },
    })
    expect(sent.status).toBe(204)
    expect(sent.headers.get('access-control-allow-origin')).toBe('*')
    expect(sent.headers.get('access-control-allow-headers')).toContain('x-payment')
  })

  test("a browser's paid retry passes its preflight: every request header the official x402 browser clients send is allowed", async () => {
    const { app } = testApp()
    // @x402/fetch's paid retry sets PAYMENT-SIGNATURE (or X-PAYMENT) and, as a request header, Access-Control-Expose-Headers.
    const requested = [
      'content-type',
      'payment-signature',
      'x-payment',
      'access-control-expose-headers',
      'sign-in-with-x',
    ]
    const sent = await send(app, 'OPTIONS', SCAN, {
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': requested.join(','),
      },
    })
    expect(sent.status).toBe(204)
    const allowed = (sent.headers.get('access-control-allow-headers') ?? '').split(',').map((header) => header.trim())
    for (const header of requested) expect(allowed).toContain(header)
  })

  test('a cross-origin answer exposes payment-required, payment-response and x-payment-response', async () => {
    const { app } = testApp()
    const sent = await send(app, 'GET', '/health', { headers: { origin: 'https://agent.example' } })
    const exposed = sent.headers.get('access-control-expose-headers') ?? ''
    for (const header of ['payment-required', 'payment-response', 'x-payment-response', 'x-request-id', 'retry-after'])
      expect(exposed).toContain(header)
  })
})

describe('security headers', () => {
  test('every answer says nosniff: a success, a client error, an unknown route, a preflight', async () => {
    const { app } = testApp()
    for (const [method, path, options] of [
      ['GET', '/health', {}],
      ['POST', SCAN, { json: { token_address: 'BONK' } }],
      ['GET', '/nowhere', {}],
      ['OPTIONS', SCAN, { headers: { origin: 'https://a.example', 'access-control-request-method': 'POST' } }],
    ] as const) {
      const sent = await send(app, method, path, options)
      expect(sent.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })

  test("a paid route's answers are never cached (no-store), free routes are left to their own", async () => {
    const { app } = testApp()
    expect((await send(app, 'POST', SCAN, { json: { token_address: VALID_MINT } })).headers.get('cache-control')).toBe(
      'no-store',
    )
    expect((await send(app, 'POST', SCAN, { json: { token_address: 'BONK' } })).headers.get('cache-control')).toBe(
      'no-store',
    )
    expect((await send(app, 'GET', '/health')).headers.get('cache-control')).toBeNull()
  })

  test('an HTML page forbids framing and limits what it loads', async () => {
    const { app } = testApp()
    const page = await send(app, 'GET', '/docs')
    expect(page.headers.get('content-type')).toStartWith('text/html')
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'")
    expect(page.headers.get('x-frame-options')).toBe('DENY')
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
  })
})

describe('logging', () => {
  test('one line per request with request id, route, status and duration', async () => {
    const { app, ctx } = testApp()
    await send(app, 'POST', SCAN, { json: { token_address: 'BONK' }, headers: { 'x-request-id': 'log-1' } })
    const lines = await eventually(
      'the request line',
      () => ctx.logs.filter((line) => line.msg === 'request'),
      (found) => found.length > 0,
    )
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ req_id: 'log-1', method: 'POST', route: '/fixture/scan', status: 400 })
    expect(typeof lines[0]!.duration_ms).toBe('number')
    // Written in pino's own line format: level, time, the logger's bindings, the fields, msg.
    expect(lines[0]).toMatchObject({ level: 30, msg: 'request', pid: process.pid })
    expect(typeof lines[0]!.time).toBe('number')
    // The fixture's scanner route is rate limited: it read the client address, so the line carries it.
    expect(typeof lines[0]!.ip).toBe('string')
  })
})
