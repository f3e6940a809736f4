import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { arrivalOf } from '../../src/http/request.ts'
import { routeOptions } from '../../src/http/route-options.ts'
import { manifest } from './manifest.ts'
import { launchRadar } from './service.ts'

export { manifest }

/** Answers within 8 s; the grades stop half a second earlier. */
export const LAUNCH_RADAR_DEADLINE_MS = 7_500

/**
 * `POST /launch/radar`: live launchpad coins by stage, from the launchpad index the ingester keeps (src/launchpad-index/ingester.ts). Off without SOLANA_RPC_URL (nothing could
 * follow the launchpad).
 */
export function launchRadarPlugin(ctx: ServiceContext) {
  if (!ctx.sources.solana) {
    ctx.registry.switchOff(manifest, 'SOLANA_RPC_URL is not set: the radars read the launchpad the RPC follows')
    return new Elysia({ name: 'plugin:launch-radar' })
  }
  ctx.registry.register(manifest)
  const route = manifest.routes.launchRadar
  return new Elysia({ name: 'plugin:launch-radar' }).post(
    route.path,
    ({ body, request }) => launchRadar(ctx, body, arrivalOf(request) + LAUNCH_RADAR_DEADLINE_MS),
    routeOptions(ctx, route),
  )
}
