import { Type } from '@sinclair/typebox'
import { defineManifest } from '../../src/kernel/manifest.ts'
import { FeedLimit, FocusToken } from '../../src/feeds/feed-answer.ts'
import { JUPITER_INTERVALS } from '../../src/sources/jupiter.ts'
import { RADAR_LIMIT, MIN_SIGNALS, RadarResult } from './schemas.ts'

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
      body: Type.Object({
        token_address: FocusToken,
        interval: Type.Optional(
          Type.Union(
            JUPITER_INTERVALS.map((value) => Type.Literal(value)),
            { default: '1h', description: 'The window the signals read (default 1h)' },
          ),
        ),
        limit: FeedLimit(RADAR_LIMIT.default, RADAR_LIMIT.max),
        min_signals: Type.Optional(
          Type.Integer({
            minimum: MIN_SIGNALS.min,
            maximum: MIN_SIGNALS.max,
            default: MIN_SIGNALS.default,
            description: `Signals that must fire for a token to be listed, ${MIN_SIGNALS.min} to ${MIN_SIGNALS.max} (default ${MIN_SIGNALS.default})`,
          }),
        ),
      }),
      response: RadarResult,
      rateLimit: 'scanner',
      tags: ['catalogue'],
    },
  },
})
