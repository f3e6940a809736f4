import { defineRoute } from '../../src/http/define-route.ts'
import { suggestTrade } from './service.ts'
import { manifest } from './manifest.ts'

export { manifest }

/** `POST /trade/suggest`: one trade idea, checked by every scanner. */
export const tradeSuggestPlugin = defineRoute(manifest, {
  suggest: (ctx, { body, deadline }) => suggestTrade(ctx, body, deadline),
})
