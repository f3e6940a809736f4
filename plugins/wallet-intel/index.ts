import { defineRoute } from '../../src/http/define-route.ts'
import { walletIntel } from './service.ts'
import { manifest } from './manifest.ts'

export { manifest }

/** `POST /wallet/intel`: a wallet's record from its own history. */
export const walletIntelPlugin = defineRoute(manifest, {
  intel: (ctx, { body, deadline }) => walletIntel(ctx, body.wallet_address, deadline),
})
