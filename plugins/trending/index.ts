import { defineFeed } from '../../src/http/define-feed.ts'
import { manifest } from './manifest.ts'
import { trendingFeed } from './service.ts'

export { manifest }

/** Answer within 8 s: the ranking is read within 3 s, the items' grades until half a second before. */
export const TRENDING_DEADLINE_MS = 7_500

/** `POST /scan/trending` (0.02 USD): Jupiter's token rankings, each token graded. Off without JUPITER_URL. */
export const trendingPlugin = defineFeed({
  manifest,
  route: 'trending',
  source: (ctx) => ctx.sources.jupiter,
  offBecause: 'JUPITER_URL is not set: the trending feed reads Jupiter’s token rankings',
  feedMs: 3_000,
  answerMs: TRENDING_DEADLINE_MS,
  answer: trendingFeed,
})
