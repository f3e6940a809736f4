import { defineManifest } from '../../src/kernel/manifest.ts'
import { RadarBody, RadarResult } from './schemas.ts'
import { JUPITER_INTERVALS } from '../../src/sources/jupiter.ts'
import { windowAt } from '../../src/kernel/asked.ts'

export * from './schemas.ts'

export const manifest = defineManifest({
  name: 'signal-radar',
  skill: {
    id: 'signal_radar',
    name: 'Solana signal radar',
    description:
      'Solana tokens where independent bullish signals converge (volume spike, momentum, buy pressure, organic activity, holder and liquidity growth): a convergence score, the signal breakdown, flags and a safety grade.',
    tags: ['solana', 'signals', 'momentum', 'risk'],
    examples: ['Where do bullish signals converge on Solana now?', 'Signal radar over the last 6 hours'],
  },
  routes: {
    radar: {
      method: 'POST',
      path: '/signal/radar',
      summary: 'Where independent bullish signals converge, each token graded',
      description:
        "The tokens in Jupiter's trending, most-traded and organic rankings over `interval` whose signals agree: a volume " +
        'spike, price momentum, buy pressure, organic activity, holder growth, liquidity growth, broad participation. ' +
        'Each token shows `convergence_score` (0–100, the weights of the signals that fired), `signal_breakdown[]`, ' +
        'flags for care (thin liquidity, inorganic volume, a D/F grade, sell pressure) and its quick-scan grade. ' +
        'Tokens with fewer than `min_signals` fired are left out; stablecoins, liquid-staking tokens and wrapped SOL ' +
        'always are. With `token_address`, that token is read whatever its signals. Answers within 8 s.',
      price: { usd: '0.04' },
      accounts: { token_address: 'token_mint' },
      body: RadarBody,
      response: RadarResult,
      rateLimit: 'scanner',
      askedBy: {
        phrases: ['signal radar', 'bullish signals', 'signals converge', 'signals'],
        read: (text) => windowAt(text, JUPITER_INTERVALS),
      },
      tags: ['catalogue'],
      kind: 'feed',
      // Answers within 8 s: the rankings are read within 3 s, the items' grades until half a second before.
      deadlineMs: { feedAt: 3_000, answerAt: 7_500 },
      requires: [{ source: 'jupiter', why: 'JUPITER_URL is not set: the signal radar reads Jupiter’s token rankings' }],
    },
  },
})
