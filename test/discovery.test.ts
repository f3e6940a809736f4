import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { Type } from '@sinclair/typebox'
import { createApp } from '../src/app.ts'
import { routeOptions } from '../src/http/route-options.ts'
import { ManifestError, type RouteSpec } from '../src/kernel/manifest.ts'
import { fixturePlugin } from './fixtures/fixture-plugin.ts'
import { send, testApp, testContext } from './support/app.ts'

describe('GET /health', () => {
  test('reports status, version, uptime and each dependency', async () => {
    const { app } = testApp()
    const sent = await send(app, 'GET', '/health')
    expect(sent.status).toBe(200)
    expect(sent.json).toMatchObject({ schema_version: '2.0', status: 'ok', version: '2.0.0', sources: { store: 'ok' } })
    expect(sent.json.uptime_s).toBeGreaterThanOrEqual(0)
  })

  test('a feed whose source is not configured is off: not served, not advertised, and /health says why', async () => {
    // testApp names no JUPITER_URL: the Jupiter-ranked feeds cannot answer.
    const { app, ctx } = testApp()
    const health = await send(app, 'GET', '/health')
    expect(health.json.routes_off).toEqual([
      { routes: ['POST /exit/cross-check'], why: expect.stringContaining('LIFI_URL') },
      { routes: ['POST /scan/trending'], why: expect.stringContaining('JUPITER_URL') },
      { routes: ['POST /signal/radar'], why: expect.stringContaining('JUPITER_URL') },
      { routes: ['POST /wallet/intel'], why: expect.stringContaining('SOLANA_RPC_URL') },
      { routes: ['POST /launch/radar'], why: expect.stringContaining('SOLANA_RPC_URL') },
      { routes: ['POST /graduation/radar'], why: expect.stringContaining('SOLANA_RPC_URL') },
      { routes: ['POST /graduation/momentum'], why: expect.stringContaining('SOLANA_RPC_URL') },
      { routes: ['POST /scan/smart-money'], why: expect.stringContaining('SOLANA_RPC_URL') },
      { routes: ['POST /news/pulse'], why: expect.stringContaining('NEWS_FEEDS') },
      {
        routes: ['POST /news/brief', 'POST /news/pulse_plus', 'POST /news/report'],
        why: expect.stringContaining('LLM_URL'),
      },
      { routes: ['POST /trade/suggest'], why: expect.stringContaining('JUPITER_URL') },
      {
        routes: ['POST /watch', 'GET /watch/:id', 'DELETE /watch/:id', 'GET /watch/:id/events'],
        why: expect.stringContaining('SOLANA_RPC_URL'),
      },
    ])
    expect((await send(app, 'POST', '/scan/trending', { json: {} })).status).toBe(404)
    expect(ctx.registry.routes().map((route) => route.key)).not.toContain('POST /signal/radar')
    expect((await send(app, 'GET', '/llms.txt')).text).not.toContain('/scan/trending')
  })

  test('is down, still 200, when the store is down', async () => {
    const { app, ctx } = testApp()
    await ctx.store.close()
    const sent = await send(app, 'GET', '/health')
    expect(sent.status).toBe(200)
    expect(sent.json).toMatchObject({ status: 'down', sources: { store: 'down' } })
  })
})

describe('GET /.well-known/x402', () => {
  test('lists exactly the paid routes that are mounted', async () => {
    const { app, ctx } = testApp()
    const sent = await send(app, 'GET', '/.well-known/x402')
    expect(sent.json).toEqual({
      schema_version: '2.0',
      version: 1,
      resources: [
        'POST /fixture/scan',
        'POST /scan/quick',
        'POST /scan/quick/batch',
        'POST /market/intel',
        'POST /scan/deep',
        'POST /trade/execute',
        'POST /exit/check',
      ],
      discovery: expect.any(Array),
      attestation: {
        alg: 'Ed25519',
        public_key: ctx.attestor.publicKey,
        header: 'x-attestation',
        docs: 'docs/attestations.md (in the service repository)',
      },
    })
  })

  test('the service alone lists its own paid routes only', async () => {
    const app = createApp(testContext())
    expect((await send(app, 'GET', '/.well-known/x402')).json.resources).toEqual([
      'POST /scan/quick',
      'POST /scan/quick/batch',
      'POST /market/intel',
      'POST /scan/deep',
      'POST /trade/execute',
      'POST /exit/check',
    ])
  })
})

describe('GET /.well-known/agent.json', () => {
  test('is the agent card of spec §4.6 with the skills of mounted plugins', async () => {
    const { app } = testApp()
    const sent = await send(app, 'GET', '/.well-known/agent.json')
    expect(sent.json).toMatchObject({
      name: 'solsentry',
      url: 'http://localhost',
      version: '2.0.0',
      capabilities: { streaming: false, pushNotifications: false },
      defaultInputModes: ['application/json'],
      defaultOutputModes: ['application/json'],
    })
    expect(typeof sent.json.description).toBe('string')
    // The declared skills, and one for each paid route of no skill (the exit check), named as its MCP tool.
    expect(sent.json.skills.map((skill: { id: string }) => skill.id)).toEqual([
      'fixture_scan',
      'sol_quick_scan',
      'sol_quick_scan_batch',
      'sol_market_intel',
      'sol_deep_dive',
      'sol_trade',
      'sol_exit_check',
    ])
    expect(sent.json.skills[0]).toEqual({
      id: 'fixture_scan',
      name: 'Fixture scan',
      description:
        'Echoes a validated mint address Routes: POST /fixture/scan (0.02 USD); GET /fixture/boom (free); GET /fixture/slow (free).',
      tags: ['test'],
      examples: ['Scan DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263'],
    })
    expect(sent.json.skills[6]).toMatchObject({ id: 'sol_exit_check', examples: [] })
    expect(sent.json.skills[6].description).toEndWith('Routes: POST /exit/check (0.01 USD).')
  })

  test('uses PUBLIC_URL when it is set', async () => {
    const { app } = testApp({ PUBLIC_URL: 'https://solsentry.example' })
    expect((await send(app, 'GET', '/.well-known/agent.json')).json.url).toBe('https://solsentry.example')
  })

  test('with PUBLIC_URL set (required on mainnet), a spoofed Host header never names the service', async () => {
    const { app } = testApp({ PUBLIC_URL: 'https://solsentry.example' })
    // The 402 challenge's resource URL comes from the same publicOrigin helper.
    for (const path of ['/.well-known/agent.json', '/llm.txt']) {
      const text = await (
        await app.handle(new Request(`http://evil.example${path}`, { headers: { host: 'evil.example' } }))
      ).text()
      expect(text).toContain('https://solsentry.example')
      expect(text).not.toContain('evil.example')
    }
  })
})

describe('GET /openapi.json', () => {
  test('is a valid OpenAPI 3.1 document (independent validator)', async () => {
    const { app } = testApp()
    const sent = await send(app, 'GET', '/openapi.json')
    expect(sent.status).toBe(200)
    const validator = new Validator()
    const result = await validator.validate(sent.json)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
    expect(sent.json['x-schema-version']).toBe('2.0')
  })

  test('documents every mounted route, dotted paths included', async () => {
    const { app, ctx } = testApp()
    const document = (await send(app, 'GET', '/openapi.json')).json
    for (const route of ctx.registry.routes()) {
      const path = route.path.replace(/:(\w+)/g, '{$1}')
      expect(document.paths[path]?.[route.method.toLowerCase()]).toBeDefined()
    }
  })

  test('a paid route carries its request schema, errors and x-payment-info', async () => {
    // Both payees set: both sandbox rails are advertised (test/one-rail.test.ts: one alone).
    const { app } = testApp({
      PAY_TO_SOLANA: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
      PAY_TO_BASE: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    })
    const operation = (await send(app, 'GET', '/openapi.json')).json.paths['/fixture/scan'].post
    expect(Object.keys(operation.requestBody.content)).toEqual(['application/json'])
    const body = operation.requestBody.content['application/json'].schema
    expect(body.required).toEqual(['token_address'])
    expect(body.properties.token_address).toMatchObject({ minLength: 32, maxLength: 44, format: 'solana-address' })
    expect(Object.keys(operation.responses).sort()).toEqual([
      '200',
      '400',
      '402',
      '409',
      '413',
      '415',
      '429',
      '500',
      '503',
    ])
    expect(JSON.stringify(operation.responses['402'].content['application/json'].schema.properties.code)).toContain(
      '"PAYMENT_REQUIRED"',
    )
    expect(JSON.stringify(operation.responses['503'].content['application/json'].schema.properties.code)).toContain(
      '"FACILITATOR_UNAVAILABLE"',
    )
    expect(JSON.stringify(operation.responses['503'].content['application/json'].schema.properties.code)).toContain(
      '"LEDGER_UNAVAILABLE"',
    )
    const badRequest = operation.responses['400'].content['application/json'].schema
    expect(badRequest.properties.code.enum).toEqual(['INVALID_ADDRESS', 'INVALID_JSON', 'INVALID_REQUEST'])
    expect(operation['x-payment-info']).toMatchObject({
      price: { mode: 'fixed', currency: 'USD', amount: '0.02' },
      price_usd: '0.02',
      amount: '20000',
      currency: 'USDC',
      decimals: 6,
      scheme: 'exact',
      networks: ['eip155:31337', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'],
    })
  })

  test('the mainnet profile advertises the mainnet rails', async () => {
    const { app } = testApp({
      SOLSENTRY_PROFILE: 'mainnet',
      PUBLIC_URL: 'https://solsentry.example',
      FACILITATOR_URL: 'https://facilitator.example',
      PAY_TO_SOLANA: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
      PAY_TO_BASE: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    })
    const operation = (await send(app, 'GET', '/openapi.json')).json.paths['/fixture/scan'].post
    expect(operation['x-payment-info'].networks).toEqual(['eip155:8453', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'])
  })

  test('free routes carry no x-payment-info', async () => {
    const { app } = testApp()
    const document = (await send(app, 'GET', '/openapi.json')).json
    expect(document.paths['/health'].get['x-payment-info']).toBeUndefined()
  })
})

describe('GET /llm.txt', () => {
  test('is plain text naming each endpoint with its price, input and output fields', async () => {
    const { app } = testApp()
    const sent = await send(app, 'GET', '/llm.txt')
    expect(sent.headers.get('content-type')).toStartWith('text/plain')
    expect(sent.text).toContain('### POST /fixture/scan (0.02 USD; MCP tool sol_fixture_scan_scan)')
    expect(sent.text).toContain('- token_address: string — Solana SPL mint address')
    expect(sent.text).toContain('Errors: 400 INVALID_ADDRESS')
    expect(sent.text).toContain('Details: http://localhost/docs/routes/fixture-scan.md')
    expect(sent.text).toContain('### GET /health (free)')
    expect(sent.text).toContain('X-PAYMENT')
  })
})

describe('GET /.well-known/agent-card.json (A2A)', () => {
  test('the official @a2a-js/sdk resolver reads it: protocol version, interfaces, skills with modes', async () => {
    const { DefaultAgentCardResolver } = await import('@a2a-js/sdk/client')
    const { app } = testApp({ PUBLIC_URL: 'https://solsentry.example' })
    const resolver = new DefaultAgentCardResolver({
      fetchImpl: ((input: string, init?: RequestInit) => app.handle(new Request(input, init))) as typeof fetch,
    })
    const card = await resolver.resolve('https://solsentry.example')
    expect(card.name).toBe('solsentry')
    expect(card.supportedInterfaces).toEqual([
      { url: 'https://solsentry.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
      { url: 'https://solsentry.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3', tenant: '' },
      { url: 'https://solsentry.example/mcp', protocolBinding: 'MCP', protocolVersion: '1.0', tenant: '' },
      { url: 'https://solsentry.example/openapi.json', protocolBinding: 'OPENAPI', protocolVersion: '1.0', tenant: '' },
    ])
    expect(card.capabilities).toMatchObject({ streaming: false, pushNotifications: false })
    // A 0.3 client reads where to talk from the members its card version has (the SDK's parser agrees).
    const raw = JSON.parse((await send(app, 'GET', '/.well-known/agent-card.json')).text)
    expect(raw).toMatchObject({
      url: 'https://solsentry.example/a2a',
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3',
    })
    const { parseLegacyAgentCard } = await import('@a2a-js/sdk/compat/v0_3/client')
    const { url, preferredTransport, protocolVersion, ...unversioned } = raw
    const legacy = parseLegacyAgentCard({
      url,
      preferredTransport,
      protocolVersion,
      ...unversioned,
      supportedInterfaces: undefined,
    })
    expect(legacy.supportedInterfaces[0]).toMatchObject({
      url: 'https://solsentry.example/a2a',
      protocolBinding: 'JSONRPC',
    })
    // Payment is the A2A x402 extension, required (google-agentic-commerce/a2a-x402 spec v0.2 §3).
    expect(card.capabilities?.extensions.map(({ uri, required }) => ({ uri, required }))).toEqual([
      { uri: 'https://github.com/google-agentic-commerce/a2a-x402/blob/main/spec/v0.2', required: true },
    ])
    expect(card.skills.map((skill) => skill.id).sort()).toEqual([
      'fixture_scan',
      'sol_deep_dive',
      'sol_exit_check',
      'sol_market_intel',
      'sol_quick_scan',
      'sol_quick_scan_batch',
      'sol_trade',
    ])
    expect(card.skills[0]).toMatchObject({ inputModes: ['application/json'], outputModes: ['application/json'] })
    // The card is A2A's alone: no member of this service's envelope.
    expect('schema_version' in card).toBe(false)
  })
})

describe('GET /llms.txt', () => {
  test('is in the llmstxt.org format: an H1, a summary blockquote, H2 sections of links', async () => {
    const { app } = testApp({ PUBLIC_URL: 'https://solsentry.example' })
    const sent = await send(app, 'GET', '/llms.txt')
    expect(sent.headers.get('content-type')).toStartWith('text/markdown')
    const lines = sent.text.split('\n')
    expect(lines[0]).toBe('# solsentry')
    expect(lines[2]).toStartWith('> ')
    const sections = lines.filter((line) => line.startsWith('## '))
    expect(sections).toEqual(['## Docs', '## Endpoints', '## Optional'])
    // Every line under a section is a link item: `- [title](url): notes`.
    const items = lines.slice(lines.indexOf('## Docs')).filter((line) => line !== '' && !line.startsWith('## '))
    for (const item of items) expect(item).toMatch(/^- \[[^\]]+\]\(https:\/\/solsentry\.example\/[^)]*\): \S/)
    expect(sent.text).toContain('- [POST /fixture/scan](https://solsentry.example/docs/routes/fixture-scan.md): ')
    expect(sent.text).toContain(' — 0.02 USD. MCP tool `sol_fixture_scan_scan`.')
  })
})

describe('GET /skill.md', () => {
  test('is the agent skill: front matter naming it, the call order, payment and how answers read', async () => {
    const { app } = testApp({ PUBLIC_URL: 'https://solsentry.example' })
    const sent = await send(app, 'GET', '/skill.md')
    expect(sent.headers.get('content-type')).toStartWith('text/markdown')
    expect(sent.text).toStartWith('---\nname: solsentry\ndescription: >-\n')
    expect(sent.text).toContain('Base URL: https://solsentry.example')
    expect(sent.text).toContain('### POST /fixture/scan — 0.02 USD')
    expect(sent.text).toContain('_meta["x402/payment"]')
    expect(sent.text).toContain('missing_fields')
  })
})

describe('GET /docs', () => {
  test('serves the reference page pointing at /openapi.json', async () => {
    const { app } = testApp()
    const sent = await send(app, 'GET', '/docs')
    expect(sent.headers.get('content-type')).toStartWith('text/html')
    expect(sent.text).toContain('data-url="/openapi.json"')
  })
})

describe('boot checks', () => {
  test('a duplicate route or skill id stops the boot with a clear message', () => {
    const ctx = testContext()
    expect(() => createApp(ctx, { plugins: [fixturePlugin(ctx), fixturePlugin(ctx)] })).toThrow(ManifestError)
    const other = testContext()
    expect(() => createApp(other, { plugins: [fixturePlugin(other), fixturePlugin(other)] })).toThrow(
      'plugin:fixture is registered twice',
    )
  })

  test('two plugins claiming one route name both', () => {
    const ctx = testContext()
    const claim = (name: string) => {
      ctx.registry.register({
        name,
        routes: {
          health: {
            method: 'GET',
            path: '/health',
            summary: '',
            description: '',
            price: 'free',
            response: Type.Object({}),
            tags: [],
          },
        },
      })
      return new Elysia({ name })
    }
    expect(() => createApp(ctx, { plugins: [claim('impostor')] })).toThrow(
      'duplicate route GET /health: declared by plugin:impostor and plugin:discovery',
    )
  })

  test('a declared route that is not served stops the boot', () => {
    const ctx = testContext()
    ctx.registry.register({
      name: 'ghost',
      routes: {
        r: {
          method: 'GET',
          path: '/ghost',
          summary: '',
          description: '',
          price: 'free',
          response: Type.Object({}),
          tags: [],
        },
      },
    })
    expect(() => createApp(ctx)).toThrow('plugin:ghost declares GET /ghost but does not serve it')
  })

  test('a priced route served without its payment stops the boot (served by hand, not with routeOptions)', () => {
    const ctx = testContext()
    const spec = {
      method: 'POST' as const,
      path: '/free-lunch',
      summary: '',
      description: '',
      price: { usd: '0.05' as const },
      response: Type.Object({}),
      tags: [],
    } satisfies RouteSpec
    ctx.registry.register({ name: 'free-lunch', routes: { lunch: spec } })
    const plugin = new Elysia({ name: 'free-lunch' }).post(spec.path, () => ({}))
    expect(() => createApp(ctx, { plugins: [plugin] })).toThrow(
      'plugin:free-lunch serves POST /free-lunch at 0.05 USD without payment',
    )
  })

  test('a deferred-payment route whose handler never holds the payment stops the boot', () => {
    const ctx = testContext()
    const spec = {
      method: 'POST' as const,
      path: '/later',
      summary: '',
      description: '',
      price: { usd: '0.10' as const },
      deferredPayment: true as const,
      response: Type.Object({}),
      tags: [],
    } satisfies RouteSpec
    ctx.registry.register({ name: 'later', routes: { later: spec } })
    const plugin = new Elysia({ name: 'later' }).post(spec.path, () => ({}), routeOptions(ctx, spec))
    expect(() => createApp(ctx, { plugins: [plugin] })).toThrow(
      'hold the payment in its handler with holdPayment(ctx, spec)',
    )
  })

  test('a served route that no manifest declares stops the boot', () => {
    const ctx = testContext()
    const rogue = new Elysia({ name: 'rogue' }).get('/rogue', () => 'hi')
    expect(() => createApp(ctx, { plugins: [rogue] })).toThrow(
      'GET /rogue is served but declared in no plugin manifest',
    )
  })
})
