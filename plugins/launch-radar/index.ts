import { defineRoute } from '../../src/http/define-route.ts'
import { manifest } from './manifest.ts'
import { launchRadar } from './service.ts'

export { manifest }

/**
 * `POST /launch/radar`: live launchpad coins by stage, from the launchpad index the ingester keeps
 * (src/launchpad-index/ingester.ts).
 */
export const launchRadarPlugin = defineRoute(manifest, {
  launchRadar: (ctx, { body, deadline }) => launchRadar(ctx, body, deadline),
})
