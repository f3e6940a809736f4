import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { arrivalOf } from '../../src/core/request.ts'
import { routeOptions } from '../../src/core/route-options.ts'
import { createTokenContext } from '../../src/facts/index.ts'
import { USDC_MINT_ADDRESS } from '../../src/onchain/programs.ts'
import { exitCheck } from './exit.ts'
import { EXIT_SIZE_USDC, manifest } from './manifest.ts'

export { manifest }

/** Answer within 5 s; the facts stop half a second earlier to leave room to answer. */
export const EXIT_CHECK_DEADLINE_MS = 4_500

/** `POST /exit/check` (0.01 USD, priced in its manifest): can a holder sell back to USDC now. */
export function exitCheckPlugin(ctx: ServiceContext) {
  ctx.registry.register(manifest)
  const { check } = manifest.routes
  // The USDC the service is paid in on Solana: what "back to USDC" means here.
  const usdcMint = ctx.config.SOLANA_PAYMENT_ASSET ?? USDC_MINT_ADDRESS
  return new Elysia({ name: 'plugin:exit-check' }).post(
    check.path,
    async function exitCheckRoute({ body, request }) {
      const facts = createTokenContext(body.token_address, ctx.sources, arrivalOf(request) + EXIT_CHECK_DEADLINE_MS)
      try {
        return await exitCheck(facts, body.size_usdc ?? EXIT_SIZE_USDC.default, usdcMint)
      } finally {
        facts.close(ctx.logger)
      }
    },
    routeOptions(ctx, check),
  )
}
