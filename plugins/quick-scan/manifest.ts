import { defineManifest } from '../../src/kernel/manifest.ts'
import { QUICK_SCAN_DEADLINE_MS } from '../../src/pipeline/policies.ts'
import { TokenRequest } from '../../src/pipeline/schemas.ts'
import { QuickScanResult } from './schemas.ts'

export const manifest = defineManifest({
  name: 'quick-scan',
  skill: {
    id: 'sol_quick_scan',
    name: 'Solana quick scan',
    description:
      'Structural safety check of a Solana SPL token: A to F grade from authorities, Token-2022 extensions, holder concentration, liquidity and LP status.',
    tags: ['solana', 'token', 'risk', 'security'],
    examples: [
      'Is EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v safe to buy?',
      'Quick scan DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
    ],
  },
  routes: {
    scan: {
      method: 'POST',
      path: '/scan/quick',
      summary: 'Structural safety check (A to F)',
      description:
        "Grades a token's structure: mint and freeze authorities (issuer-controlled stablecoins exempt), Token-2022 extensions, holder concentration, liquidity depth, LP model and burn, token age, mutable metadata. Answers within 5 s; unreachable sources lower data_quality and are listed in missing_fields.",
      price: { usd: '0.02' },
      body: TokenRequest,
      accounts: { token_address: 'token_mint' },
      response: QuickScanResult,
      rateLimit: 'scanner',
      askedBy: { phrases: ['quick scan', 'safe to buy', 'safe to hold', 'safety check', 'rug check', 'scan', 'safe'] },
      tags: ['scanners'],
      kind: 'scanner',
      // Spec target: answer within 5 s; the facts stop half a second earlier (the feeds' grades read the same).
      deadlineMs: QUICK_SCAN_DEADLINE_MS,
      callOrder: { step: 1, when: 'before any swap or buy decision' },
    },
  },
})
