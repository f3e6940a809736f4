/**
 * Optional OpenTelemetry tracing (docs/operations.md, "Traces"). With OTEL_EXPORTER_OTLP_ENDPOINT set,
 * every request to a route is a server span — a child of the caller's `traceparent` when it sends one —
 * and every upstream attempt made for it (RPC, market data, the aggregator, the facilitator's verify and
 * settle, the model) a client span under it, exported over OTLP/HTTP (JSON) in batches. Without the
 * setting nothing is created: a request costs what it did. Exporting never holds a request up; a
 * collector that is down loses spans, nothing else.
 */
import {
  defaultTextMapGetter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapPropagator,
  type Tracer,
  trace,
} from '@opentelemetry/api'
import type { TracerProvider } from '@opentelemetry/sdk-trace'
import { currentSpan } from './request-scope.ts'
// Its lazy `require` calls below need one on Deno too (src/runtime/require.ts).
import '../runtime/require.ts'

export type { Span }

let provider: TracerProvider | undefined
let tracer: Tracer | undefined
let propagator: TextMapPropagator | undefined

export interface TracingOptions {
  /** The collector's base URL: spans go to `<endpoint>/v1/traces`. */
  endpoint: string
  /** Headers for the collector (its key), as OTEL_EXPORTER_OTLP_HEADERS gives them: `name=value,…`. */
  headers?: string
  serviceName: string
  serviceVersion: string
  instanceId: string
}

/** Starts exporting spans (once per process; a second call changes nothing). */
export function startTracing(options: TracingOptions): void {
  if (provider) return
  // The SDK and the exporter are loaded here, when tracing is on, not with the module: they are about a
  // sixth of the process's start-up CPU, and tracing is off unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
  const { W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof import('@opentelemetry/core')
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http')
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources')
  const { BatchSpanProcessor, TracerProvider } =
    require('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace')
  propagator ??= new W3CTraceContextPropagator()
  const exporter = new OTLPTraceExporter({
    url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces`,
    headers: parseHeaders(options.headers),
  })
  provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': options.serviceName,
      'service.version': options.serviceVersion,
      'service.instance.id': options.instanceId,
    }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  })
  tracer = provider.getTracer('solsentry', options.serviceVersion)
}

/** Sends the spans not yet exported. */
export async function flushTraces(): Promise<void> {
  await provider?.forceFlush()
}

/** Flushes and stops exporting. */
export async function stopTracing(): Promise<void> {
  const stopping = provider
  provider = undefined
  tracer = undefined
  await stopping?.shutdown()
}

/** OTEL_EXPORTER_OTLP_HEADERS's form (`name=value` pairs, comma-separated, values URL-encoded) as an object. */
export function parseHeaders(raw: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const pair of (raw ?? '').split(',')) {
    const at = pair.indexOf('=')
    if (at <= 0) continue
    headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim())
  }
  return headers
}

/**
 * A request's server span, started now, as a child of the caller's `traceparent` when it sends one;
 * undefined when tracing is off.
 */
export function startRequestSpan(request: Request, route: string, requestId: string, path: string): Span | undefined {
  if (!tracer) return undefined
  const parent =
    propagator && request.headers.has('traceparent')
      ? propagator.extract(ROOT_CONTEXT, Object.fromEntries(request.headers), defaultTextMapGetter)
      : ROOT_CONTEXT
  return tracer.startSpan(
    route,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': request.method,
        'http.route': route.slice(route.indexOf(' ') + 1),
        'url.path': path,
        'solsentry.request_id': requestId,
      },
    },
    parent,
  )
}

/** Ends a request's span with its answer's status (5xx is an error). */
export function endRequestSpan(span: Span, status: number): void {
  span.setAttribute('http.response.status_code', status)
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
  span.end()
}

/**
 * One upstream attempt, as a client span of the request it was made for (none outside a request: the
 * launchpad's ingestion and the payment recovery run on their own), from `startedAt` (performance.now())
 * to now. `outcome` is `ok` or the failure's reason, as /metrics counts it.
 */
export function traceUpstream(
  source: string,
  method: string,
  outcome: string,
  attempt: number,
  startedAt: number,
): void {
  if (!tracer) return
  const parent = currentSpan()
  if (!parent) return
  const span = tracer.startSpan(
    `${source} ${method}`,
    {
      kind: SpanKind.CLIENT,
      startTime: performance.timeOrigin + startedAt,
      attributes: {
        'solsentry.upstream.source': source,
        'solsentry.upstream.method': method,
        'solsentry.upstream.outcome': outcome,
        'solsentry.upstream.attempt': attempt,
      },
    },
    trace.setSpan(ROOT_CONTEXT, parent),
  )
  if (outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome })
  span.end()
}
