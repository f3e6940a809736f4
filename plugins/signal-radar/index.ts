import { defineFeed } from '../../src/http/define-feed.ts'
import { manifest } from './manifest.ts'
import { signalRadar } from './service.ts'

export { manifest }

/** Answer within 8 s: the rankings are read within 3 s, the items' grades until half a second before. */
export const RADAR_DEADLINE_MS = 7_500

/** `POST /signal/radar` (0.04 USD): converging bullish signals from Jupiter's rankings. Off without JUPITER_URL. */
export const signalRadarPlugin = defineFeed({
  manifest,
  route: 'radar',
  source: (ctx) => ctx.sources.jupiter,
  offBecause: 'JUPITER_URL is not set: the signal radar reads Jupiter’s token rankings',
  feedMs: 3_000,
  answerMs: RADAR_DEADLINE_MS,
  answer: signalRadar,
})
