import { defineManifest } from '../../src/kernel/manifest.ts'
import { FOLLOWS_LAUNCHPAD } from '../../src/launchpad-index/schemas.ts'
import { MomentumBody, MomentumResult } from './schemas.ts'
import { percentAt } from '../../src/kernel/asked.ts'

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
      body: MomentumBody,
      response: MomentumResult,
      rateLimit: 'scanner',
      askedBy: {
        phrases: ['graduation momentum', 'momentum', 'safe to ride', 'near-graduation'],
        read: (text) => percentAt(text, 'min_progress_pct'),
      },
      tags: ['catalogue'],
      // Answers within 15 s: its enrichments stop half a second earlier.
      deadlineMs: 14_500,
      requires: [FOLLOWS_LAUNCHPAD],
    },
  },
})
