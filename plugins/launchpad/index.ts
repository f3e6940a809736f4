import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { arrivalOf } from '../../src/core/request.ts'
import { routeOptions } from '../../src/core/route-options.ts'
import {
  graduationRadarManifest,
  LAUNCHPAD_MANIFESTS,
  launchRadarManifest,
  momentumManifest,
  smartMoneyManifest,
} from './manifest.ts'
import { graduationMomentum } from '../../src/feeds/launchpad/momentum.ts'
import { graduationRadar, launchRadar, smartMoney } from '../../src/feeds/launchpad/radar.ts'

export { graduationRadarManifest, LAUNCHPAD_MANIFESTS, launchRadarManifest, momentumManifest, smartMoneyManifest }

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
    for (const manifest of LAUNCHPAD_MANIFESTS)
      ctx.registry.switchOff(manifest, 'SOLANA_RPC_URL is not set: the radars read the launchpad the RPC follows')
    return new Elysia({ name: 'plugin:launchpad' })
  }
  for (const manifest of LAUNCHPAD_MANIFESTS) ctx.registry.register(manifest)
  const launch = launchRadarManifest.routes.launchRadar
  const graduation = graduationRadarManifest.routes.graduationRadar
  const momentum = momentumManifest.routes.momentum
  const smart = smartMoneyManifest.routes.smartMoney
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
