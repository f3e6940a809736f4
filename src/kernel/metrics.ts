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
  help: 'Each dependency of /health: 1 ok, 0.5 degraded, 0 down; absent while unknown (not yet probed or seen)',
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
export const watchGauges = new Gauge({
  name: 'solsentry_watch_state',
  help: "The position guard's engine now: `watches` in force, `subjects` (tokens snapshotted, one per token however many watches share it), `subscriptions` (logsSubscribe held, one per watched account) and `references` to them",
  labelNames: ['what'] as const,
  registers: [metrics],
})
export const watchEvents = new Counter({
  name: 'solsentry_watch_events_total',
  help: 'Watch events detected (each event id once), by kind and severity',
  labelNames: ['kind', 'severity'] as const,
  registers: [metrics],
})
export const watchDeliveries = new Counter({
  name: 'solsentry_watch_deliveries_total',
  help: 'Webhook delivery attempts of watch events, by outcome (delivered, retry, dead)',
  labelNames: ['outcome'] as const,
  registers: [metrics],
})

/** What prom-client keeps per label set (15.x, pinned): a counter's value, a histogram's buckets, sum and count. */
interface CounterEntry {
  value: number
}
interface HistogramEntry {
  labels: Record<string, string | number>
  bucketValues: Record<string, number>
  sum: number
  count: number
}

/**
 * The front door's two families (`http_requests_total` by route and status, `http_request_duration_seconds`
 * by route), resolved once per label set: the first request of a label set goes through prom-client's own
 * `inc` and `observe` (which create its entry, in the order the families list them), every later one adds
 * to that entry directly — what `inc` and `observe` do after hashing and checking the labels, which cost
 * about a tenth of a cheap request twice over. A scrape reads the same numbers in the same order
 * (`src/kernel/metrics.test.ts` compares the two ways, and fails if an upgrade of prom-client changes
 * its entries). The entries are kept, so these families are never reset.
 */
export class RouteMeter {
  readonly #counter: Counter<'route' | 'status'>
  readonly #histogram: Histogram<'route'>
  readonly #bounds: readonly number[]
  /** The buckets' keys in prom-client's entries (the bounds as strings, converted once). */
  readonly #bucketKeys: readonly string[]
  readonly #requests = new Map<string, Map<number, CounterEntry>>()
  readonly #durations = new Map<string, HistogramEntry>()

  constructor(counter: Counter<'route' | 'status'>, histogram: Histogram<'route'>, buckets: readonly number[]) {
    this.#counter = counter
    this.#histogram = histogram
    this.#bounds = buckets
    this.#bucketKeys = buckets.map(String)
  }

  /** Counts one answer of `route` with `status`, which took `seconds`. */
  count(route: string, status: number, seconds: number): void {
    let byStatus = this.#requests.get(route)
    if (!byStatus) {
      byStatus = new Map()
      this.#requests.set(route, byStatus)
    }
    const requests = byStatus.get(status)
    if (requests) requests.value += 1
    else {
      const { labelHash } = this.#counter.inc({ route, status }) as unknown as { labelHash: string }
      byStatus.set(status, entries<CounterEntry>(this.#counter)[labelHash]!)
    }
    const durations = this.#durations.get(route)
    if (!durations) {
      this.#histogram.observe({ route }, seconds)
      const found = Object.values(entries<HistogramEntry>(this.#histogram)).find(
        (entry) => entry.labels.route === route,
      )
      this.#durations.set(route, found!)
      return
    }
    durations.sum += seconds
    durations.count += 1
    const bounds = this.#bounds
    for (let i = 0; i < bounds.length; i++)
      if (seconds <= bounds[i]!) {
        durations.bucketValues[this.#bucketKeys[i]!]! += 1
        break
      }
  }
}

function entries<Entry>(metric: Counter | Histogram): Record<string, Entry> {
  return (metric as unknown as { hashMap: Record<string, Entry> }).hashMap
}

/** The meter the front door counts requests with. */
export const httpMeter = new RouteMeter(httpRequests, httpDuration, LATENCY_BUCKETS)

const STATE_VALUE = { ok: 1, degraded: 0.5, down: 0 } as const

/** The text of every family, the gauges read now from the health board. */
export async function renderMetrics(
  health: { read(): Promise<{ components: Record<string, 'unknown' | 'ok' | 'degraded' | 'down'> }> },
  breakers: () => Record<string, boolean>,
): Promise<string> {
  const { components } = await health.read()
  dependencyState.reset()
  for (const [name, state] of Object.entries(components))
    if (state !== 'unknown') dependencyState.set({ name }, STATE_VALUE[state])
  breakerOpen.reset()
  for (const [source, open] of Object.entries(breakers())) breakerOpen.set({ source }, open ? 1 : 0)
  return metrics.metrics()
}
