import { Type } from '@sinclair/typebox'
import { defineManifest } from '../../src/kernel/manifest.ts'
import { SolanaAddress } from '../../src/onchain/address.ts'
import { EXIT_CHECK_DEADLINE_MS, ExitCheckResult, ExitSize } from './schemas.ts'

export { BLOCKER_CODES, EXIT_SIZE_USDC, ExitCheckResult } from './schemas.ts'

export const manifest = defineManifest({
  name: 'exit-check',
  routes: {
    check: {
      method: 'POST',
      path: '/exit/check',
      summary: 'Can I get out? A sell of the token back to USDC, checked now',
      description:
        'What `size_usdc` (default 10) of the token buys now is quoted back to USDC through the aggregator: `sellable`, ' +
        '`expected_return_usdc`, `exit_price_impact_pct`, `exit_loss_pct` and `exit_rating` (CLEAN under 3% lost, COSTLY to ' +
        '20%, PUNITIVE beyond that or when the route cannot absorb the size, BLOCKED when it cannot be sold), ' +
        '`route_count`, and `blockers[]` from the mint (non-transferable, ' +
        'paused, default-frozen accounts, a live freeze authority, a permanent delegate, a transfer fee and whether it can ' +
        'rise, a transfer hook). Answers within 5 s.',
      price: { usd: '0.01' },
      accounts: { token_address: 'token_mint' },
      body: Type.Object({
        token_address: SolanaAddress('Solana SPL mint address (base58, 32 to 44 characters); not a ticker'),
        size_usdc: ExitSize,
      }),
      response: ExitCheckResult,
      rateLimit: 'scanner',
      tags: ['catalogue'],
      deadlineMs: EXIT_CHECK_DEADLINE_MS,
    },
  },
})
