import { defineManifest } from '../../src/kernel/manifest.ts'
import { TokenRequest } from '../../src/pipeline/schemas.ts'
import { MarketIntelResult } from './schemas.ts'

export const manifest = defineManifest({
  name: 'market-intel',
  skill: {
    id: 'sol_market_intel',
    name: 'Solana market intel',
    description:
      'Market signal for a Solana SPL token: price and its 5 m to 24 h changes (15 m from trades), all-time high, volume, liquidity, buy/sell pressure, large trades in the last hour, volatility, token health and a BULLISH/BEARISH/NEUTRAL signal with its subtype.',
    tags: ['solana', 'token', 'market', 'price', 'trading'],
    examples: [
      'What is the market doing on DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263?',
      'Is anyone still trading EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v?',
    ],
  },
  routes: {
    intel: {
      method: 'POST',
      path: '/market/intel',
      summary: 'Market signal (price, volume, pressure, large trades, BULLISH/BEARISH/NEUTRAL)',
      description:
        "Reads the token's market pairs and its main pool's recent trades: price and changes, all-time high when the trades cover the token's whole life, volume, liquidity, buy/sell pressure, large trades in the last hour, volatility, token health, and a signal with its subtype. Market signals only: structural risk is the quick scan's. Answers within 10 s; unreachable sources lower data_quality and are listed in missing_fields.",
      price: { usd: '0.20' },
      body: TokenRequest,
      accounts: { token_address: 'token_mint' },
      response: MarketIntelResult,
      rateLimit: 'scanner',
      askedBy: { phrases: ['market intel', 'market', 'trading', 'price', 'volume', 'buy pressure', 'sell pressure'] },
      tags: ['scanners'],
      kind: 'scanner',
      // Spec target: answer within 10 s; the facts stop half a second earlier to leave room to answer.
      deadlineMs: 9_500,
      callOrder: { step: 3, when: 'for price, volume and momentum' },
    },
  },
})
