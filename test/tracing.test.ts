import { afterAll, expect, test } from 'bun:test'
import pino from 'pino'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { createApp } from '../src/app.ts'
import { closeContext, createContext } from '../src/context.ts'
import { loadConfig } from '../src/settings.ts'
import { flushTraces, parseHeaders } from '../src/kernel/tracing.ts'
import { WAIVED_PAYMENTS } from './support/payments.ts'
import { scanRequest } from './support/service.ts'

// Tracing on (OTEL_EXPORTER_OTLP_ENDPOINT): the service's own OTLP/HTTP exporter posts its spans to a
// collector on loopback, which keeps what it receives in the OTLP JSON encoding a collector reads.
interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[]
}
const received: { headers: Headers; spans: OtlpSpan[]; service: string | undefined }[] = []
const collector = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    if (request.method !== 'POST' || new URL(request.url).pathname !== '/v1/traces')
      return new Response('not found', { status: 404 })
    const body = (await request.json()) as {
      resourceSpans: {
        resource: { attributes: { key: string; value: { stringValue?: string } }[] }
        scopeSpans: { spans: OtlpSpan[] }[]
      }[]
    }
    for (const resource of body.resourceSpans)
      received.push({
        headers: request.headers,
        service: resource.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue,
        spans: resource.scopeSpans.flatMap((scope) => scope.spans),
      })
    return Response.json({})
  },
})
const sandbox = await startSandbox(ephemeralSandboxOptions())
const ctx = createContext(
  loadConfig({
    ...sandbox.serviceSettings,
    DATA_DIR: ':memory:',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}`,
    OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=k%3D1,x-tenant=solsentry',
  }),
  { logger: pino({ level: 'silent' }), payments: WAIVED_PAYMENTS },
)
const app = createApp(ctx)
afterAll(async () => {
  await closeContext(ctx)
  await sandbox.stop()
  collector.stop(true)
})
const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((entry) => entry.key === key)?.value
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue))
}

test("a traced scan: the request's span under the caller's trace, each upstream attempt under it, sent to the collector", async () => {
  const mint = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
  const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736'
  const callerSpan = '00f067aa0ba902b7'
  const request = scanRequest('/scan/quick', { token_address: mint })
  request.headers.set('traceparent', `00-${callerTrace}-${callerSpan}-01`)
  const response = await app.handle(request)
  expect(response.status).toBe(200)
  await response.arrayBuffer()
  await flushTraces()

  const spans = received.flatMap((batch) => batch.spans).filter((span) => span.traceId === callerTrace)
  const server = spans.find((span) => span.name === 'POST /scan/quick')!
  expect(server).toBeDefined()
  expect(server.parentSpanId).toBe(callerSpan)
  expect(server.kind).toBe(2) // SERVER
  expect(attribute(server, 'solsentry.request_id')).toBe(response.headers.get('x-request-id')!)
  expect(attribute(server, 'http.route')).toBe('/scan/quick')
  expect(attribute(server, 'http.response.status_code')).toBe(200)
  // The scan read the chain, the market and the aggregator: one client span per attempt, under the request's.
  const upstream = spans.filter((span) => span.parentSpanId === server.spanId)
  expect(upstream.length).toBeGreaterThan(2)
  for (const span of upstream) {
    expect(span.kind).toBe(3) // CLIENT
    expect(attribute(span, 'solsentry.upstream.outcome')).toBe('ok')
  }
  const sources = new Set(upstream.map((span) => attribute(span, 'solsentry.upstream.source')))
  expect(sources.has('solana_rpc')).toBe(true)
  expect(sources.has('dexscreener')).toBe(true)
  // The collector's headers and the resource, as configured.
  expect(received[0]!.headers.get('x-collector-key')).toBe('k=1')
  expect(received[0]!.headers.get('x-tenant')).toBe('solsentry')
  expect(received[0]!.service).toBe('solsentry')
})

test('a request without a traceparent starts its own trace; a path no route serves is not traced', async () => {
  const before = received.flatMap((batch) => batch.spans).length
  const health = await app.handle(new Request('http://localhost/health'))
  const missing = await app.handle(new Request('http://localhost/no/such/route'))
  expect(missing.status).toBe(404)
  await flushTraces()
  const spans = received.flatMap((batch) => batch.spans).slice(before)
  const own = spans.find((span) => span.name === 'GET /health')!
  expect(own).toBeDefined()
  expect(own.parentSpanId ?? '').toBe('')
  expect(attribute(own, 'solsentry.request_id')).toBe(health.headers.get('x-request-id')!)
  expect(spans.some((span) => attribute(span, 'url.path') === '/no/such/route')).toBe(false)
})

test('OTEL_EXPORTER_OTLP_HEADERS is read as OpenTelemetry writes it', () => {
  expect(parseHeaders('a=1, b=x%2Cy ,=bad,novalue')).toEqual({ a: '1', b: 'x,y' })
  expect(parseHeaders(undefined)).toEqual({})
})
