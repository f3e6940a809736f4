import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { arrivalOf } from '../../src/core/request.ts'
import { routeOptions } from '../../src/core/route-options.ts'
import { createTokenContext } from '../../src/facts/index.ts'
import { USDC_MINT_ADDRESS } from '../../src/onchain/programs.ts'
import { crossCheck } from './cross-check.ts'
import { exitCheck } from '../../src/exit/exit-check.ts'
import { crossCheckManifest, EXIT_SIZE_USDC, manifest } from './manifest.ts'

export { crossCheckManifest, manifest }

/** Answer within 5 s; the facts stop half a second earlier to leave room to answer. */
export const EXIT_CHECK_DEADLINE_MS = 4_500
/** The cross-check answers within 10 s: the exit as the exit check, then the bridge quote until 9.5 s. */
export const CROSS_CHECK_DEADLINE_MS = 9_500

/** The USDC the service is paid in on Solana: what "back to USDC" means here. */
const usdcOf = (ctx: ServiceContext) => ctx.config.SOLANA_PAYMENT_ASSET ?? USDC_MINT_ADDRESS

/** `POST /exit/check` (0.01 USD, priced in its manifest): can a holder sell back to USDC now. */
export function exitCheckPlugin(ctx: ServiceContext) {
  ctx.registry.register(manifest)
  const { check } = manifest.routes
  return new Elysia({ name: 'plugin:exit-check' }).post(
    check.path,
    async function exitCheckRoute({ body, request }) {
      const facts = createTokenContext(body.token_address, ctx.sources, arrivalOf(request) + EXIT_CHECK_DEADLINE_MS)
      try {
        return await exitCheck(facts, body.size_usdc ?? EXIT_SIZE_USDC.default, usdcOf(ctx))
      } finally {
        facts.close(ctx.logger)
      }
    },
    routeOptions(ctx, check),
  )
}

/**
 * `POST /exit/cross-check` (0.01 USD): the exit check, then a LI.FI bridge quote home. Off without
 * LIFI_URL. The quote is for the caller's addresses when given, else the service's own receiving ones.
 */
export function exitCrossCheckPlugin(ctx: ServiceContext) {
  const lifi = ctx.sources.lifi
  if (!lifi) {
    ctx.registry.switchOff(crossCheckManifest, 'LIFI_URL is not set: the exit cross-check reads LI.FI’s bridge quotes')
    return new Elysia({ name: 'plugin:exit-cross-check' })
  }
  ctx.registry.register(crossCheckManifest)
  const { crossCheck: route } = crossCheckManifest.routes
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
