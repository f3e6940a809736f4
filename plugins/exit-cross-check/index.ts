import { defineRoute } from '../../src/http/define-route.ts'
import { manifest } from './manifest.ts'
import { crossCheckOf } from './service.ts'

export { manifest }

/**
 * `POST /exit/cross-check`: the exit check, then a LI.FI bridge quote home. The quote is for the
 * caller's addresses when given, else the service's own receiving ones.
 */
export const exitCrossCheckPlugin = defineRoute(manifest, {
  crossCheck: (ctx, { body, deadline, sources }) => crossCheckOf(ctx, sources.lifi, body, deadline),
})
