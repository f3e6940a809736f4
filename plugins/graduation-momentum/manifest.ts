import { Type } from '@sinclair/typebox'
import { defineManifest } from '../../src/kernel/manifest.ts'
import { FeedLimit, FocusToken } from '../../src/feeds/feed-answer.ts'
import { MOMENTUM_LIMIT, MOMENTUM_MIN_PROGRESS, MomentumResult } from './schemas.ts'

export const manifest = defineManifest({
  name: 'graduation-momentum',
  dependsOn: ['exit-check'],
  skill: {
    id: 'graduation_momentum',
    name: 'Solana graduation momentum',
    description:
      'The top near-graduation pump.fun curves enriched with market intel, an exit check and developer history: momentum score 0-100, label (HOT, HEATING, COOLING, FLAT) and the cited factors.',
    tags: ['solana', 'launchpad', 'momentum', 'risk'],
    examples: ['Which curve about to graduate has the most momentum?', 'Is this near-graduation coin safe to ride?'],
  },
  routes: {
    momentum: {
      method: 'POST',
      path: '/graduation/momentum',
      summary: 'Which near-graduation curve has the momentum, and is it safe to ride?',
      description:
        'The top candidates of the graduation radar (at least `min_progress_pct` sold, default 60), each enriched with ' +
        'market intel, an exit check and its developer’s history: `momentum_score` 0–100 and a label (HOT, HEATING, ' +
        'COOLING, FLAT) with every point cited, hard caps (not sellable, a developer who rugged, a D/F grade), and which ' +
        'components answered. Answers within 15 s.',
      price: { usd: '0.40' },
      accounts: { token_address: 'token_mint' },
      body: Type.Object({
        token_address: FocusToken,
        min_progress_pct: Type.Optional(
          Type.Number({
            minimum: 0,
            maximum: 100,
            default: MOMENTUM_MIN_PROGRESS.default,
            description: 'Least bonding progress, percent (default 60)',
          }),
        ),
        limit: FeedLimit(MOMENTUM_LIMIT.default, MOMENTUM_LIMIT.max),
      }),
      response: MomentumResult,
      rateLimit: 'scanner',
      tags: ['catalogue'],
    },
  },
})
