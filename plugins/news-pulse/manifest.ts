import { defineManifest } from '../../src/kernel/manifest.ts'
import { NEEDS_POSTS, NEWS_READ_MS, NEWS_SOURCES, NewsRequest, PulseResult } from '../../src/news/schemas.ts'

export const manifest = defineManifest({
  name: 'news-pulse',
  routes: {
    pulse: {
      method: 'POST',
      path: '/news/pulse',
      summary: 'How the crowd leans on a token or the market now (no language model)',
      description: `For \`symbol\` (a ticker or a mint; empty = the market as a whole): the posts of the last \`window_hours\` about it, each scored bullish, bearish or neutral by a documented lexicon, and the lean of them all — \`signal\` BULLISH, BEARISH, MIXED or NEUTRAL, the counts and the top terms. ${NEWS_SOURCES} Answers within 8 s.`,
      price: { usd: '0.01' },
      accounts: { symbol: 'token_mint' },
      body: NewsRequest,
      response: PulseResult,
      rateLimit: 'scanner',
      tags: ['catalogue'],
      // Answers within 8 s.
      deadlineMs: { readAt: NEWS_READ_MS, answerAt: 7_500 },
      requires: [NEEDS_POSTS],
    },
  },
})
