import { defineRoute } from '../../src/http/define-route.ts'
import { manifest } from './manifest.ts'
import { signalRadar } from './service.ts'

export { manifest }

/** `POST /signal/radar`: converging bullish signals from Jupiter's rankings. */
export const signalRadarPlugin = defineRoute(manifest, {
  radar: (ctx, { body, deadline, sources }) => signalRadar(ctx, sources.jupiter, body, deadline),
})
