import { defineRoute } from '../../src/http/define-route.ts'
import { manifest } from './manifest.ts'
import { briefAnswer, pulsePlusAnswer, reportAnswer } from './service.ts'

export { manifest }

/** `POST /news/brief`, `/news/pulse_plus`, `/news/report`: written by the language model. */
export const newsWrittenPlugin = defineRoute(manifest, {
  brief: (ctx, { body, deadline }) => briefAnswer(ctx, body, deadline),
  pulsePlus: (ctx, { body, deadline }) => pulsePlusAnswer(ctx, body, deadline),
  report: (ctx, { body, deadline }) => reportAnswer(ctx, body, deadline),
})
