import { createTokenContext } from '../../src/facts/index.ts'
import { defineRoute } from '../../src/http/define-route.ts'
import { usdcOf } from '../exit-check/service.ts'
import { EXIT_SIZE_USDC } from '../exit-check/schemas.ts'
import { manifest } from './manifest.ts'
import { crossCheck } from './service.ts'

export { manifest }

/**
 * `POST /exit/cross-check`: the exit check, then a LI.FI bridge quote home. The quote is for the
 * caller's addresses when given, else the service's own receiving ones.
 */
export const exitCrossCheckPlugin = defineRoute(manifest, {
  crossCheck: async (ctx, { body, deadline, sources }) => {
    const facts = createTokenContext(body.token_address, ctx.sources, deadline.exitAt)
    try {
      return await crossCheck(facts, sources.lifi, {
        sizeUsdc: body.size_usdc ?? EXIT_SIZE_USDC.default,
        home: body.home_chain ?? 'base',
        usdcMint: usdcOf(ctx),
        // Without PAY_TO_SOLANA (a test), any valid Solana address quotes alike: the mint is one.
        fromAddress: body.wallet_address ?? ctx.config.PAY_TO_SOLANA ?? body.token_address,
        toAddress: body.home_address ?? ctx.config.PAY_TO_BASE ?? ZERO_EVM_ADDRESS,
        bridgeDeadlineAt: deadline.bridgeAt,
      })
    } finally {
      facts.close(ctx.logger)
    }
  },
})

/** Used only when neither the caller nor the operator names an EVM address (PAY_TO_BASE unset). */
const ZERO_EVM_ADDRESS = '0x0000000000000000000000000000000000000000'
