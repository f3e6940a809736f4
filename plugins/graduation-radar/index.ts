import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { arrivalOf } from '../../src/http/request.ts'
import { routeOptions } from '../../src/http/route-options.ts'
import { manifest } from './manifest.ts'
import { graduationRadar } from './service.ts'

export { manifest }

/** Answers within 8 s; the grades stop half a second earlier. */
export const GRADUATION_RADAR_DEADLINE_MS = 7_500

/**
 * `POST /graduation/radar`: curves close to graduating, soonest first, from the launchpad index. Off without SOLANA_RPC_URL (nothing could
 * follow the launchpad).
 */
export function graduationRadarPlugin(ctx: ServiceContext) {
  if (!ctx.sources.solana) {
    ctx.registry.switchOff(manifest, 'SOLANA_RPC_URL is not set: the radars read the launchpad the RPC follows')
    return new Elysia({ name: 'plugin:graduation-radar' })
  }
  ctx.registry.register(manifest)
  const route = manifest.routes.graduationRadar
  return new Elysia({ name: 'plugin:graduation-radar' }).post(
    route.path,
    ({ body, request }) => graduationRadar(ctx, body, arrivalOf(request) + GRADUATION_RADAR_DEADLINE_MS),
    routeOptions(ctx, route),
  )
}
