import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { arrivalOf } from '../../src/http/request.ts'
import { routeOptions } from '../../src/http/route-options.ts'
import { manifest } from './manifest.ts'
import { graduationMomentum } from './service.ts'

export { manifest }

/** Graduation momentum answers within 15 s: its enrichments stop half a second earlier. */
export const MOMENTUM_DEADLINE_MS = 14_500

/**
 * `POST /graduation/momentum`: the top graduation candidates enriched with market intel, an exit check and developer history. Off without SOLANA_RPC_URL (nothing could
 * follow the launchpad).
 */
export function graduationMomentumPlugin(ctx: ServiceContext) {
  if (!ctx.sources.solana) {
    ctx.registry.switchOff(manifest, 'SOLANA_RPC_URL is not set: the radars read the launchpad the RPC follows')
    return new Elysia({ name: 'plugin:graduation-momentum' })
  }
  ctx.registry.register(manifest)
  const route = manifest.routes.momentum
  return new Elysia({ name: 'plugin:graduation-momentum' }).post(
    route.path,
    ({ body, request }) => graduationMomentum(ctx, body, arrivalOf(request) + MOMENTUM_DEADLINE_MS),
    routeOptions(ctx, route),
  )
}
