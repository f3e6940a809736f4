import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { arrivalOf } from '../../src/http/request.ts'
import { routeOptions } from '../../src/http/route-options.ts'
import { createTokenContext } from '../../src/facts/index.ts'
import { EXIT_CHECK_DEADLINE_MS, usdcOf } from '../exit-check/service.ts'
import { EXIT_SIZE_USDC } from '../exit-check/schemas.ts'
import { manifest } from './manifest.ts'
import { crossCheck } from './service.ts'

export { manifest }

/** The cross-check answers within 10 s: the exit as the exit check, then the bridge quote until 9.5 s. */
export const CROSS_CHECK_DEADLINE_MS = 9_500

/**
 * `POST /exit/cross-check`: the exit check, then a LI.FI bridge quote home. Off without
 * LIFI_URL. The quote is for the caller's addresses when given, else the service's own receiving ones.
 */
export function exitCrossCheckPlugin(ctx: ServiceContext) {
  const lifi = ctx.sources.lifi
  if (!lifi) {
    ctx.registry.switchOff(manifest, 'LIFI_URL is not set: the exit cross-check reads LI.FI’s bridge quotes')
    return new Elysia({ name: 'plugin:exit-cross-check' })
  }
  ctx.registry.register(manifest)
  const { crossCheck: route } = manifest.routes
  return new Elysia({ name: 'plugin:exit-cross-check' }).post(
    route.path,
    async function crossCheckRoute({ body, request }) {
      const arrival = arrivalOf(request)
      const facts = createTokenContext(body.token_address, ctx.sources, arrival + EXIT_CHECK_DEADLINE_MS)
      try {
        return await crossCheck(facts, lifi, {
          sizeUsdc: body.size_usdc ?? EXIT_SIZE_USDC.default,
          home: body.home_chain ?? 'base',
          usdcMint: usdcOf(ctx),
          // Without PAY_TO_SOLANA (a test), any valid Solana address quotes alike: the mint is one.
          fromAddress: body.wallet_address ?? ctx.config.PAY_TO_SOLANA ?? body.token_address,
          toAddress: body.home_address ?? ctx.config.PAY_TO_BASE ?? ZERO_EVM_ADDRESS,
          bridgeDeadlineAt: arrival + CROSS_CHECK_DEADLINE_MS,
        })
      } finally {
        facts.close(ctx.logger)
      }
    },
    routeOptions(ctx, route),
  )
}

/** Used only when neither the caller nor the operator names an EVM address (PAY_TO_BASE unset). */
const ZERO_EVM_ADDRESS = '0x0000000000000000000000000000000000000000'
