import { Type } from '@sinclair/typebox'
import { describe, expect, test } from 'bun:test'
import {
  defineManifest,
  ManifestError,
  Registry,
  responseSchemas,
  routeErrors,
  usdToAtomicUsdc,
  type RouteSpec,
} from './manifest.ts'
import { TokenRequest } from '../pipeline/schemas.ts'

const route = (overrides: Partial<RouteSpec> = {}): RouteSpec => ({
  method: 'POST',
  path: '/scan/quick',
  summary: 's',
  description: 'd',
  price: { usd: '0.02' },
  body: TokenRequest,
  response: Type.Object({}),
  rateLimit: 'scanner',
  tags: [],
  ...overrides,
})
const skill = (id: string) => ({ id, name: id, description: id, tags: [], examples: [] })

describe('usdToAtomicUsdc', () => {
  test.each([
    ['0.02', '20000'],
    ['0.20', '200000'],
    ['0.5', '500000'],
    ['0.15', '150000'],
    ['1', '1000000'],
    ['12.000001', '12000001'],
  ])('%s USD is %s atomic units', (usd, atomic) => {
    expect(usdToAtomicUsdc(usd)).toBe(atomic)
  })

  test.each(['0.0000001', '-1', '1e-2', '.5', 'free', '01'])('refuses %p', (usd) => {
    expect(() => usdToAtomicUsdc(usd)).toThrow(ManifestError)
  })
})

describe('Registry', () => {
  test('collects routes, skills and the price table', () => {
    const registry = new Registry()
    registry.register(defineManifest({ name: 'quick-scan', skill: skill('sol_quick_scan'), routes: { scan: route() } }))
    registry.register(
      defineManifest({
        name: 'other',
        routes: { free: route({ method: 'GET', path: '/free', price: 'free', body: undefined }) },
      }),
    )
    expect(registry.route('POST', '/scan/quick')?.plugin).toBe('quick-scan')
    expect(registry.route('GET', '/scan/quick')).toBeUndefined()
    expect(registry.skills().map((s) => s.id)).toEqual(['sol_quick_scan'])
    expect(registry.prices()).toEqual([
      { route: 'POST /scan/quick', skill: 'sol_quick_scan', usd: '0.02', atomic: '20000' },
    ])
  })

  test('finds a route with path parameters from a request path, and from its own pattern', () => {
    const registry = new Registry()
    const status = route({ method: 'GET', path: '/jobs/:job_id', price: 'free', body: undefined })
    registry.register(defineManifest({ name: 'jobs', routes: { status } }))
    expect(registry.route('GET', '/jobs/abc')?.key).toBe('GET /jobs/:job_id')
    expect(registry.route('GET', '/jobs/:job_id')?.key).toBe('GET /jobs/:job_id')
    expect(registry.route('GET', '/jobs/')).toBeUndefined()
    expect(registry.route('GET', '/jobs/abc/more')).toBeUndefined()
    expect(registry.route('POST', '/jobs/abc')).toBeUndefined()
  })

  test('refuses a duplicate route and names both plugins', () => {
    const registry = new Registry()
    registry.register({ name: 'a', routes: { scan: route() } })
    expect(() => registry.register({ name: 'b', routes: { scan: route() } })).toThrow(
      'duplicate route POST /scan/quick: declared by plugin:a and plugin:b',
    )
    // Nothing of the refused manifest was registered.
    expect(registry.routes()).toHaveLength(1)
  })

  test('refuses a route declared twice in one manifest', () => {
    expect(() => new Registry().register({ name: 'a', routes: { one: route(), two: route() } })).toThrow(
      'duplicate route POST /scan/quick: declared by plugin:a and plugin:a',
    )
  })

  test('refuses a duplicate skill id', () => {
    const registry = new Registry()
    registry.register({ name: 'a', skill: skill('sol_quick_scan'), routes: { one: route() } })
    expect(() =>
      registry.register({ name: 'b', skill: skill('sol_quick_scan'), routes: { one: route({ path: '/other' }) } }),
    ).toThrow('duplicate skill id sol_quick_scan: declared by plugin:a and plugin:b')
  })

  test('a dependency must be in the plugin list, mounted or switched off (checked at boot)', () => {
    const registry = new Registry()
    registry.register({ name: 'suggest', dependsOn: ['exit', 'radar'], routes: {} })
    registry.register({ name: 'exit', routes: {} })
    expect(() => registry.checkDependencies()).toThrow(
      'plugin:suggest depends on plugin:radar, which is not in the plugin list',
    )
    const requires = [{ source: 'jupiter', why: 'its source is not configured' }]
    registry.register({ name: 'radar', routes: { radar: route({ path: '/radar', requires }) } }, () => false)
    expect(() => registry.checkDependencies()).not.toThrow()
  })

  test('switches off a route whose source is not configured: its first unmet requirement says why', () => {
    const registry = new Registry()
    const requires = [
      { source: 'jupiter', why: 'JUPITER_URL is not set' },
      { source: ['news', 'x'], why: 'no posts' },
    ]
    const manifest = defineManifest({
      name: 'feeds',
      routes: {
        a: route({ path: '/a', requires }),
        b: route({ path: '/b', requires }),
        c: route({ path: '/c' }),
      },
    })
    expect(registry.register(manifest, (source) => source === 'x')).toEqual(['c'])
    expect(registry.off()).toEqual([{ plugin: 'feeds', routes: ['POST /a', 'POST /b'], why: 'JUPITER_URL is not set' }])
    expect(registry.routes().map((entry) => entry.key)).toEqual(['POST /c'])
    const other = new Registry()
    expect(
      other.register(
        { name: 'feeds', routes: { a: route({ path: '/a', requires }) } },
        (source) => source === 'jupiter',
      ),
    ).toEqual([])
    expect(other.off()).toEqual([{ plugin: 'feeds', routes: ['POST /a'], why: 'no posts' }])
    expect(other.plugins()).toEqual([])
  })

  test('refuses a scanner or a feed whose entry does not say what its kind needs', () => {
    expect(() => new Registry().register({ name: 's', routes: { r: route({ kind: 'scanner' }) } })).toThrow(
      'is a scanner',
    )
    expect(() =>
      new Registry().register({
        name: 'f',
        routes: { r: route({ kind: 'feed', deadlineMs: { feedAt: 1, answerAt: 2 } }) },
      }),
    ).toThrow('is a feed')
    expect(() => new Registry().register({ name: 'd', routes: { r: route({ deadlineMs: 0 }) } })).toThrow(
      'not a positive number of ms',
    )
  })

  test('refuses a plugin registered twice, a bad path and a bad price', () => {
    const registry = new Registry()
    registry.register({ name: 'a', routes: {} })
    expect(() => registry.register({ name: 'a', routes: {} })).toThrow('plugin:a is registered twice')
    expect(() => registry.register({ name: 'b', routes: { r: route({ path: 'scan' }) } })).toThrow('must start with /')
    expect(() => registry.register({ name: 'c', routes: { r: route({ price: { usd: '0.0000001' } }) } })).toThrow(
      'is not a USD amount',
    )
  })
})

describe('routeErrors', () => {
  test('derives the errors a paid scanner route can answer', () => {
    // Sorted by HTTP status, then code.
    expect(routeErrors(route()) as string[]).toEqual([
      'INVALID_ADDRESS',
      'INVALID_JSON',
      'INVALID_REQUEST',
      'PAYMENT_REQUIRED',
      'PAYMENT_ID_CONFLICT',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'RATE_LIMITED',
      'INTERNAL',
      'FACILITATOR_UNAVAILABLE',
      'LEDGER_UNAVAILABLE',
    ])
  })

  test('a route given a token mint can refuse it (404 TOKEN_NOT_FOUND, 422 NOT_A_TOKEN_MINT); one given a wallet, 422 NOT_A_WALLET', () => {
    const token = routeErrors(route({ accounts: { token_address: 'token_mint' } }))
    expect(token).toContain('TOKEN_NOT_FOUND')
    expect(token).toContain('NOT_A_TOKEN_MINT')
    expect(token).not.toContain('NOT_A_WALLET')
    const wallet = routeErrors(route({ accounts: { token_address: 'wallet' } }))
    expect(wallet).toContain('NOT_A_WALLET')
    expect(wallet).not.toContain('TOKEN_NOT_FOUND')
  })

  test('an account declared for a member the body does not have is refused at boot', () => {
    expect(() =>
      new Registry().register({ name: 'a', routes: { r: route({ accounts: { wallet: 'wallet' } }) } }),
    ).toThrow('declares the account of "wallet", which is no member of its body')
  })

  test('a fuller error body keeps the other codes of its status beside it', () => {
    const fuller = Type.Object({ code: Type.Literal('TRADE_REJECTED'), job_id: Type.String() })
    const spec = route({ errors: ['TRADE_REJECTED'], errorBodies: { 422: fuller } })
    expect(responseSchemas(spec)[422]).toBe(fuller)
    const both = responseSchemas({ ...spec, accounts: { token_address: 'token_mint' } })[422] as { anyOf?: unknown[] }
    expect(both.anyOf?.[0]).toBe(fuller)
    expect(JSON.stringify(both.anyOf?.[1])).toContain('NOT_A_TOKEN_MINT')
    expect(JSON.stringify(both.anyOf?.[1])).not.toContain('TRADE_REJECTED')
  })

  test('a free GET route without inputs can only fail internally', () => {
    expect(routeErrors(route({ method: 'GET', body: undefined, rateLimit: undefined, price: 'free' }))).toEqual([
      'INTERNAL',
    ])
  })
})
