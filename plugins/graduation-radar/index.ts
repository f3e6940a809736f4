import { defineRoute } from '../../src/http/define-route.ts'
import { manifest } from './manifest.ts'
import { graduationRadar } from './service.ts'

export { manifest }

/** `POST /graduation/radar`: curves close to graduating, soonest first, from the launchpad index. */
export const graduationRadarPlugin = defineRoute(manifest, {
  graduationRadar: (ctx, { body, deadline }) => graduationRadar(ctx, body, deadline),
})
