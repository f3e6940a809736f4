import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { arrivalOf } from '../../src/http/request.ts'
import { routeOptions } from '../../src/http/route-options.ts'
import { createTokenContext } from '../../src/facts/index.ts'
import { EXIT_CHECK_DEADLINE_MS, exitCheck, usdcOf } from './service.ts'
import { manifest } from './manifest.ts'
import { EXIT_SIZE_USDC } from './schemas.ts'

export { EXIT_CHECK_DEADLINE_MS, manifest }

/** `POST /exit/check`: can a holder sell back to USDC now. */
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
