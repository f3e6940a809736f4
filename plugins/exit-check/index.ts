import { defineRoute } from '../../src/http/define-route.ts'
import { exitCheckOf } from './service.ts'
import { manifest } from './manifest.ts'

export { manifest }

/** `POST /exit/check`: can a holder sell back to USDC now. */
export const exitCheckPlugin = defineRoute(manifest, {
  check: (ctx, { body, deadline }) => exitCheckOf(ctx, body, deadline),
})
