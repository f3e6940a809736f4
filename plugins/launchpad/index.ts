import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { arrivalOf } from '../../src/core/request.ts'
import { routeOptions } from '../../src/core/route-options.ts'
import { manifest } from './manifest.ts'
import { graduationMomentum } from './momentum.ts'
import { graduationRadar, launchRadar, smartMoney } from './radar.ts'

export { manifest }

/** Both radars answer within 8 s; the grades stop half a second earlier. */
export const LAUNCHPAD_DEADLINE_MS = 7_500
/** Graduation momentum answers within 15 s: its enrichments stop half a second earlier. */
export const MOMENTUM_DEADLINE_MS = 14_500

/**
 * `POST /launch/radar` (0.05 USD) and `POST /graduation/radar` (0.06 USD): the launchpad index the
 * ingester keeps (src/launchpad/ingester.ts). Off without SOLANA_RPC_URL (nothing could follow the
 * launchpad).
 */
export function launchpadPlugin(ctx: ServiceContext) {
  if (!ctx.sources.solana) {
    ctx.registry.switchOff(manifest, 'SOLANA_RPC_URL is not set: the radars read the launchpad the RPC follows')
    return new Elysia({ name: 'plugin:launchpad' })
  }
  ctx.registry.register(manifest)
  const { launchRadar: launch, graduationRadar: graduation, smartMoney: smart, momentum } = manifest.routes
  return new Elysia({ name: 'plugin:launchpad' })
    .post(
      launch.path,
      ({ body, request }) => launchRadar(ctx, body, arrivalOf(request) + LAUNCHPAD_DEADLINE_MS),
      routeOptions(ctx, launch),
    )
    .post(
      graduation.path,
      ({ body, request }) => graduationRadar(ctx, body, arrivalOf(request) + LAUNCHPAD_DEADLINE_MS),
      routeOptions(ctx, graduation),
    )
    .post(
      momentum.path,
      ({ body, request }) => graduationMomentum(ctx, body, arrivalOf(request) + MOMENTUM_DEADLINE_MS),
      routeOptions(ctx, momentum),
    )
    .post(
      smart.path,
      ({ body, request }) => smartMoney(ctx, body, arrivalOf(request) + LAUNCHPAD_DEADLINE_MS),
      routeOptions(ctx, smart),
    )
}
