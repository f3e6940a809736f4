import { defineManifest } from '../../src/kernel/manifest.ts'
import { TokenRequest } from '../../src/pipeline/schemas.ts'
import { DeepDiveResult } from './schemas.ts'

export const manifest = defineManifest({
  name: 'deep-dive',
  skill: {
    id: 'sol_deep_dive',
    name: 'Solana deep dive',
    description:
      'Adversarial deep dive of a Solana SPL token: honeypot check, wallet clustering, developer wallet history (earlier rugs), wash trading, launchpad and bundled-launch detection, sniper activity, liquidity locks, momentum, an A to F grade and an AVOID/WATCH/CONSIDER/DYOR recommendation with a full report.',
    tags: ['solana', 'token', 'risk', 'due-diligence', 'rug-pull'],
    examples: [
      'Deep dive DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263 before I size a position',
      'Has the developer of this token rugged before? EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    ],
  },
  routes: {
    scan: {
      method: 'POST',
      path: '/scan/deep',
      summary: 'Adversarial deep dive (grade, risk breakdown, recommendation)',
      description:
        "Everything the quick scan grades plus who is behind the token: can holders sell, wallets linked by their funding, the developer wallet's earlier tokens and rugs, bundled and sniped launches, wash trading, LP burns and locks, momentum. Returns risk_grade (A to F), risk_breakdown, key_drivers, a recommendation (AVOID, WATCH, CONSIDER or DYOR; never BUY) and a readable full_risk_report. Answers within 30 s; unreachable sources lower data_quality, are listed in missing_fields, and the fields they feed are left out rather than guessed.",
      price: { usd: '0.50' },
      body: TokenRequest,
      accounts: { token_address: 'token_mint' },
      response: DeepDiveResult,
      rateLimit: 'scanner',
      askedBy: { phrases: ['deep dive', 'rugged before', 'rugged', 'developer', 'dev wallet', 'due diligence'] },
      tags: ['scanners'],
      kind: 'scanner',
      // Spec target: answer within 30 s; the facts stop a second earlier to leave room to answer.
      deadlineMs: 29_000,
      callOrder: { step: 2, when: 'after a quick scan returned grade B or better, while sizing a position' },
    },
  },
})
