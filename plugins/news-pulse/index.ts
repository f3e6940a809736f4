import { defineRoute } from '../../src/http/define-route.ts'
import { manifest } from './manifest.ts'
import { pulseAnswer } from './service.ts'

export { manifest }

/** `POST /news/pulse`: the crowd's lean, scored without a language model. */
export const newsPulsePlugin = defineRoute(manifest, {
  pulse: (ctx, { body, deadline }) => pulseAnswer(ctx, body, deadline),
})
