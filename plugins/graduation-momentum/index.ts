import { defineRoute } from '../../src/http/define-route.ts'
import { manifest } from './manifest.ts'
import { graduationMomentum } from './service.ts'

export { manifest }

/**
 * `POST /graduation/momentum`: the top graduation candidates enriched with market intel, an exit check
 * and developer history.
 */
export const graduationMomentumPlugin = defineRoute(manifest, {
  momentum: (ctx, { body, deadline }) => graduationMomentum(ctx, body, deadline),
})
