/**
 * The service's metrics in Prometheus text (GET /metrics; docs/operations.md "Metrics"), on
 * prom-client: one registry per process, the families below, each counted where it happens. Labels are
 * bounded: routes are manifest routes (or `unmatched`), sources and methods are the upstreams' own.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

export const metrics = new Registry()
collectDefaultMetrics({ register: metrics, prefix: 'solsentry_' })

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

export const httpRequests = new Counter({
  name: 'solsentry_http_requests_total',
  help: 'Requests answered, by route (METHOD /path of the manifest, or unmatched) and status',
  labelNames: ['route', 'status'] as const,
  registers: [metrics],
})
export const httpDuration = new Histogram({
  name: 'solsentry_http_request_duration_seconds',
  help: 'Time from arrival to answer, by route',
  labelNames: ['route'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metrics],
})
export const upstreamCalls = new Counter({
  name: 'solsentry_upstream_calls_total',
  help: 'Upstream requests (each attempt), by source, method (the breaker key: an RPC method, or default) and outcome (ok or the failure reason)',
  labelNames: ['source', 'method', 'outcome'] as const,
  registers: [metrics],
})
export const upstreamDuration = new Histogram({
  name: 'solsentry_upstream_call_duration_seconds',
  help: 'Upstream request latency, by source and method',
  labelNames: ['source', 'method'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metrics],
})
export const cacheLookups = new Counter({
  name: 'solsentry_cache_lookups_total',
  help: 'Upstream answer cache lookups: hit (stored), coalesced (joined one in flight), miss (fetched)',
  labelNames: ['result'] as const,
  registers: [metrics],
})
export const breakerOpen = new Gauge({
  name: 'solsentry_upstream_breaker_open',
  help: 'Circuit breakers open now, by source (1 open, 0 closed)',
  labelNames: ['source'] as const,
  registers: [metrics],
})
export const dependencyState = new Gauge({
  name: 'solsentry_dependency_up',
  help: 'Each dependency of /health: 1 ok, 0.5 degraded, 0 down',
  labelNames: ['name'] as const,
  registers: [metrics],
})
export const payments = new Counter({
  name: 'solsentry_payments_total',
  help: 'Payments by what happened (challenged, verified, settled, settle_failed, pending, released) and network (the rail; none for a challenge)',
  labelNames: ['state', 'network'] as const,
  registers: [metrics],
})
export const settlementDuration = new Histogram({
  name: 'solsentry_settlement_duration_seconds',
  help: "The facilitator's settlement time, by network",
  labelNames: ['network'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metrics],
})
export const reconciliations = new Counter({
  name: 'solsentry_ledger_reconciliations_total',
  help: 'Open payments settled by the books: left unfinished by a previous run (at start-up), or open longer than any call holds one; released or left pending',
  labelNames: ['outcome'] as const,
  registers: [metrics],
})
export const ledgerWritesQueued = new Gauge({
  name: 'solsentry_ledger_writes_queued',
  help: 'Payment ledger transitions waiting for the ledger to answer again (Redis away): written in order once it does',
  registers: [metrics],
})
export const tradeJobs = new Counter({
  name: 'solsentry_trade_jobs_total',
  help: 'Trade job transitions, by the status entered',
  labelNames: ['status'] as const,
  registers: [metrics],
})
export const rateLimited = new Counter({
  name: 'solsentry_rate_limited_total',
  help: 'Requests refused by the per-client limits, by limit class',
  labelNames: ['class'] as const,
  registers: [metrics],
})

const STATE_VALUE = { ok: 1, degraded: 0.5, down: 0 } as const

/** The text of every family, the gauges read now from the health board. */
export async function renderMetrics(
  health: { read(): Promise<{ components: Record<string, 'ok' | 'degraded' | 'down'> }> },
  breakers: () => Record<string, boolean>,
): Promise<string> {
  const { components } = await health.read()
  dependencyState.reset()
  for (const [name, state] of Object.entries(components)) dependencyState.set({ name }, STATE_VALUE[state])
  breakerOpen.reset()
  for (const [source, open] of Object.entries(breakers())) breakerOpen.set({ source }, open ? 1 : 0)
  return metrics.metrics()
}
