import { defineRoute } from '../../src/http/define-route.ts'
import { manifest } from './manifest.ts'
import { trendingFeed } from './service.ts'

export { manifest }

/** `POST /scan/trending`: Jupiter's token rankings, each token graded. */
export const trendingPlugin = defineRoute(manifest, {
  trending: (ctx, { body, deadline, sources }) => trendingFeed(ctx, sources.jupiter, body, deadline),
})
