import { createTokenContext } from '../../src/facts/index.ts'
import { defineRoute } from '../../src/http/define-route.ts'
import { exitCheck, usdcOf } from './service.ts'
import { manifest } from './manifest.ts'
import { EXIT_SIZE_USDC } from './schemas.ts'

export { manifest }

/** `POST /exit/check`: can a holder sell back to USDC now. */
export const exitCheckPlugin = defineRoute(manifest, {
  check: async (ctx, { body, deadline }) => {
    const facts = createTokenContext(body.token_address, ctx.sources, deadline)
    try {
      return await exitCheck(facts, body.size_usdc ?? EXIT_SIZE_USDC.default, usdcOf(ctx))
    } finally {
      facts.close(ctx.logger)
    }
  },
})
