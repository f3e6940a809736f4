/**
 * Generated requests for every route of a registry (the fuzz suite, test/fuzz.test.ts, and
 * bench/fuzz.ts): methods, paths (the route's, with junk, encoded or unknown), headers (content types,
 * request ids, payment and sign-in headers of random or near-valid bytes) and bodies (arbitrary JSON,
 * the route's members with wrong types or hostile strings, invalid JSON, empty), and what every answer
 * must be: never a 5xx, always the JSON error shape with a catalogue code, never a stack trace or a
 * filesystem path.
 */
import fc from 'fast-check'
import { ERROR_CODES } from '../../src/kernel/errors.ts'
import type { RegisteredRoute } from '../../src/kernel/manifest.ts'

export interface FuzzRequest {
  method: string
  path: string
  headers: Record<string, string>
  body: string | undefined
}

const MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263'
/** The only codes a 503 may carry: the service cannot take the call now, and says when to retry. */
const UNAVAILABLE = ['UPSTREAM_UNAVAILABLE', 'FACILITATOR_UNAVAILABLE', 'LEDGER_UNAVAILABLE', 'SHUTTING_DOWN']
const hostile = fc.constantFrom(
  '',
  ' ',
  '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  'BONK',
  MINT,
  `${MINT}${MINT}`,
  '../../etc/passwd',
  '%00',
  '\u0000',
  '"; DROP TABLE payments; --',
  '<script>alert(1)</script>',
  // A log4j-style lookup, written with its dollar sign apart.
  `${'$'}{jndi:ldap://x}`,
  '𝓤𝓷𝓲𝓬𝓸𝓭𝓮',
  'a'.repeat(5_000),
  '-1',
  '1e309',
  'NaN',
  'null',
)
const junkValue = fc.oneof(
  hostile,
  fc.string({ maxLength: 64 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
)

/** A body for `route`: its own members with junk values, arbitrary JSON, invalid JSON, or none. */
function bodyFor(route: RegisteredRoute): fc.Arbitrary<string | undefined> {
  const members = Object.keys(((route.body as { properties?: object } | undefined)?.properties ?? {}) as object)
  const shaped =
    members.length === 0
      ? fc.constant('{}')
      : fc
          .dictionary(fc.constantFrom(...members, 'unexpected_member'), junkValue, { maxKeys: members.length + 1 })
          .map((object) => JSON.stringify(object))
  return fc.oneof(
    { weight: 4, arbitrary: shaped },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    { weight: 1, arbitrary: fc.constantFrom('{', '{"token_address":', '[1,2', '\u0000', '{}{}', 'null', '"x"') },
    { weight: 1, arbitrary: fc.constant(undefined) },
  )
}

const base64Of = (text: string) => Buffer.from(text).toString('base64')
const paymentLike = fc.oneof(
  fc.string({ maxLength: 100 }),
  fc.jsonValue({ maxDepth: 3 }).map((value) => base64Of(JSON.stringify(value))),
  fc
    .record({
      x402Version: fc.constantFrom(1, 2, 3, '2', null),
      scheme: fc.constantFrom('exact', 'upto', ''),
      network: fc.constantFrom('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', 'eip155:8453', 'base', 'nope'),
      accepted: fc.oneof(
        fc.constant({}),
        fc.record({ amount: fc.string({ maxLength: 10 }), network: fc.string({ maxLength: 20 }) }),
      ),
      payload: fc.oneof(
        fc.constant({}),
        fc.record({ transaction: fc.string({ maxLength: 40 }), signature: fc.string({ maxLength: 40 }) }),
      ),
      extensions: fc.oneof(
        fc.constant(undefined),
        fc.record({
          'payment-identifier': fc.record({
            info: fc.record({ id: fc.oneof(fc.string({ maxLength: 200 }), fc.integer()) }),
          }),
        }),
      ),
    })
    .map((value) => base64Of(JSON.stringify(value))),
)

const headersArbitrary = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      '',
    ),
    'x-request-id': fc.oneof(fc.uuid(), fc.string({ maxLength: 200 })),
    'x-payment': paymentLike,
    'payment-signature': paymentLike,
    'sign-in-with-x': fc.oneof(
      fc.string({ maxLength: 100 }),
      fc.jsonValue({ maxDepth: 2 }).map((value) => base64Of(JSON.stringify(value))),
    ),
    origin: fc.constantFrom('https://example.com', 'null'),
  },
  { requiredKeys: [] },
)

/** Paths around a route's: itself, with a junk suffix, a query, encoded bytes, its parameters filled with junk. */
function pathFor(route: RegisteredRoute): fc.Arbitrary<string> {
  const filled = fc
    .string({ maxLength: 40 })
    .map((junk) => route.path.replace(/:(\w+)/g, () => encodeURIComponent(junk) || 'x'))
  return fc.oneof(
    { weight: 6, arbitrary: filled },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((junk) => `${route.path}/${encodeURIComponent(junk)}`) },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((junk) => `${route.path}?${encodeURIComponent(junk)}=1`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(`${route.path}%00`, `${route.path}/..`, '/nope', '/', '//', '/%2e%2e/etc'),
    },
  )
}

/** Requests aimed at `routes`: mostly their own method, sometimes another. */
export function requestsFor(routes: readonly RegisteredRoute[]): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...routes).chain((route) =>
    fc.record({
      method: fc.oneof(
        { weight: 8, arbitrary: fc.constant(route.method) },
        { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH') },
      ),
      path: pathFor(route),
      headers: headersArbitrary,
      body: bodyFor(route),
    }),
  )
}

/** A problem with an answer, or undefined when it is what every answer must be. */
export function answerProblem(status: number, contentType: string | null, text: string, path = ''): string | undefined {
  if (status >= 500 && status !== 503) return `status ${status}`
  // 503 only as the catalogue's "cannot be served now" answers (a source or the facilitator down, shutting down).
  // Served assets (the page's script) are code; answers and errors never carry a trace or a path.
  const isAnswer = status >= 400 || (contentType?.includes('application/json') ?? false)
  if (isAnswer && /\bat .+\.(ts|js):\d+|node_modules|\/work\/|\/home\/|\/tmp\//.test(text))
    return 'a stack trace or a filesystem path'
  if (status >= 400) {
    if (!contentType?.includes('application/json')) return `an error of type ${contentType}`
    let body: { error?: unknown; code?: unknown; message?: unknown }
    try {
      body = JSON.parse(text)
    } catch {
      return 'an error body that is not JSON'
    }
    // The MCP and A2A endpoints answer in their protocols' terms: a JSON-RPC error object.
    const rpc = body as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } }
    if (/^\/(mcp|a2a)\b/.test(path) && rpc.jsonrpc === '2.0' && typeof rpc.error?.message === 'string') return undefined
    if (body.error !== true) return 'an error body without error: true'
    if (!(ERROR_CODES as readonly unknown[]).includes(body.code)) return `an unknown code ${String(body.code)}`
    if (typeof body.message !== 'string' || body.message === '') return 'an error without a message'
    if (status === 503 && !UNAVAILABLE.includes(String(body.code))) return `a 503 with ${String(body.code)}`
  }
  return undefined
}

/** Sends one generated request to `handle`, with its timing. */
export async function send(
  handle: (request: Request) => Promise<Response>,
  request: FuzzRequest,
): Promise<{ status: number; contentType: string | null; text: string; ms: number }> {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    try {
      headers.set(name, value)
    } catch {
      // A value Headers refuses (control characters) cannot be sent by any client either.
    }
  }
  const withBody = request.body !== undefined && request.method !== 'GET'
  const started = performance.now()
  const response = await handle(
    new Request(`http://fuzz.local${request.path.startsWith('/') ? request.path : `/${request.path}`}`, {
      method: request.method,
      headers,
      ...(withBody ? { body: request.body } : {}),
    }),
  )
  const text = await response.text()
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    ms: performance.now() - started,
  }
}
