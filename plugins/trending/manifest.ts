import { defineManifest } from '../../src/kernel/manifest.ts'
import { TrendingBody, TrendingResult } from './schemas.ts'
import { JUPITER_INTERVALS } from '../../src/sources/jupiter.ts'
import { saysPhrase, windowAt } from '../../src/kernel/asked.ts'

export const manifest = defineManifest({
  name: 'trending',
  skill: {
    id: 'trending',
    name: 'Solana trending tokens',
    description:
      "What Solana is trading now, from Jupiter's rankings (trending, volume, organic), each token with its price, liquidity, volume and safety grade.",
    tags: ['solana', 'trending', 'market', 'risk'],
    examples: ['What is trending on Solana right now?', 'Top traded Solana tokens over 24 hours, graded'],
  },
  routes: {
    trending: {
      method: 'POST',
      path: '/scan/trending',
      summary: 'Trending tokens now, each with its safety grade',
      description:
        "What Solana is trading now, from Jupiter's token rankings (`sort`: trending, volume or organic activity, over " +
        '`interval` 5m, 1h, 6h or 24h): price, liquidity, volume, trades and traders, and each token’s quick-scan grade. ' +
        'Stablecoins, liquid-staking tokens and wrapped SOL are left out unless `include_stable` is true. With ' +
        '`token_address`, the answer also centres on that token: its rank (or null) and its grade. Answers within 8 s.',
      price: { usd: '0.02' },
      accounts: { token_address: 'token_mint' },
      body: TrendingBody,
      response: TrendingResult,
      rateLimit: 'scanner',
      askedBy: {
        phrases: ['trending', 'top traded', 'most traded', 'hot tokens'],
        // "Top traded … over 24 hours": the most traded (Jupiter's toptraded) over that window.
        read: (text) => ({
          ...windowAt(text, JUPITER_INTERVALS),
          ...(saysPhrase(text, 'traded') || saysPhrase(text, 'volume') ? { sort: 'volume' } : {}),
          ...(saysPhrase(text, 'organic') ? { sort: 'organic' } : {}),
        }),
      },
      tags: ['catalogue'],
      kind: 'feed',
      // Answers within 8 s: the ranking is read within 3 s, the items' grades until half a second before.
      deadlineMs: { feedAt: 3_000, answerAt: 7_500 },
      requires: [
        { source: 'jupiter', why: 'JUPITER_URL is not set: the trending feed reads Jupiter’s token rankings' },
      ],
    },
  },
})
