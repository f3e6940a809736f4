import { timingSafeEqual } from 'node:crypto'
import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { ApiError } from '../../src/kernel/errors.ts'
import { renderMetrics } from '../../src/kernel/metrics.ts'
import { clientIp, metaOf } from '../../src/http/request.ts'
import { routeOptions } from '../../src/http/route-options.ts'
import { upstreamsOf } from '../../src/sources/index.ts'
import { manifest } from './manifest.ts'

export { manifest }

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/**
 * Whether the request may read the metrics: the bearer token when one is set, else a loopback client —
 * the one X-Forwarded-For names behind TRUST_PROXY, not the proxy's own loopback socket.
 */
function allowed(ctx: ServiceContext, request: Request): boolean {
  const token = ctx.config.METRICS_TOKEN
  if (token) {
    const sent = Buffer.from(request.headers.get('authorization') ?? '')
    const expected = Buffer.from(`Bearer ${token}`)
    return sent.length === expected.length && timingSafeEqual(sent, expected)
  }
  const meta = metaOf(request)
  const forwarded = ctx.config.TRUST_PROXY && request.headers.has('x-forwarded-for')
  // A request without a socket is the service calling itself (tests, the MCP bridge): local.
  if (!meta.server && !forwarded) return true
  // Behind a proxy on this host every socket is loopback: the client is the one the proxy names.
  return LOOPBACK.has(clientIp(request, meta.server, ctx.config.TRUST_PROXY))
}

/** `GET /metrics`: Prometheus text for the operator. */
export function metricsPlugin(ctx: ServiceContext) {
  ctx.registry.register(manifest)
  const { metrics } = manifest.routes
  const upstreams = upstreamsOf(ctx.sources)
  return new Elysia({ name: 'plugin:metrics' }).get(
    metrics.path,
    async function metricsRoute({ request }) {
      if (!allowed(ctx, request)) throw new ApiError('FORBIDDEN')
      const text = await renderMetrics(ctx.health, () =>
        Object.fromEntries(upstreams.map((upstream) => [upstream.name, upstream.health() === 'down'])),
      )
      return new Response(text, { headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' } })
    },
    routeOptions(ctx, metrics),
  )
}

metricsPlugin.manifest = manifest
