import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { arrivalOf } from '../../src/http/request.ts'
import { routeOptions } from '../../src/http/route-options.ts'
import { walletIntel } from './service.ts'
import { manifest } from './manifest.ts'

export { manifest }

/** Answer within 20 s; the reads stop half a second earlier to leave room to answer. */
export const WALLET_INTEL_DEADLINE_MS = 19_500

/** `POST /wallet/intel` (0.10 USD): a wallet's record from its own history. Off without SOLANA_RPC_URL. */
export function walletIntelPlugin(ctx: ServiceContext) {
  if (!ctx.sources.solana) {
    ctx.registry.switchOff(manifest, 'SOLANA_RPC_URL is not set: wallet intel reads the wallet’s own transactions')
    return new Elysia({ name: 'plugin:wallet-intel' })
  }
  ctx.registry.register(manifest)
  const { intel } = manifest.routes
  return new Elysia({ name: 'plugin:wallet-intel' }).post(
    intel.path,
    ({ body, request }) => walletIntel(ctx, body.wallet_address, arrivalOf(request) + WALLET_INTEL_DEADLINE_MS),
    routeOptions(ctx, intel),
  )
}
