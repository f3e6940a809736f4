import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { arrivalOf } from '../../src/http/request.ts'
import { routeOptions } from '../../src/http/route-options.ts'
import { manifest } from './manifest.ts'
import { smartMoney } from './service.ts'

export { manifest }

/** Answers within 8 s; the grades stop half a second earlier. */
export const SMART_MONEY_DEADLINE_MS = 7_500

/**
 * `POST /scan/smart-money`: what wallets proven in the launchpad index are buying. Off without SOLANA_RPC_URL (nothing could
 * follow the launchpad).
 */
export function smartMoneyPlugin(ctx: ServiceContext) {
  if (!ctx.sources.solana) {
    ctx.registry.switchOff(manifest, 'SOLANA_RPC_URL is not set: the radars read the launchpad the RPC follows')
    return new Elysia({ name: 'plugin:smart-money' })
  }
  ctx.registry.register(manifest)
  const route = manifest.routes.smartMoney
  return new Elysia({ name: 'plugin:smart-money' }).post(
    route.path,
    ({ body, request }) => smartMoney(ctx, body, arrivalOf(request) + SMART_MONEY_DEADLINE_MS),
    routeOptions(ctx, route),
  )
}
