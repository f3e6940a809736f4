import { Type } from '@sinclair/typebox'
import { defineManifest } from '../../src/kernel/manifest.ts'
import { SolanaAddress } from '../../src/onchain/address.ts'
import { EXIT_CHECK_DEADLINE_MS, ExitSize } from '../exit-check/schemas.ts'
import { ExitCrossCheckResult, HOME_CHAIN_NAMES } from './schemas.ts'

export const manifest = defineManifest({
  name: 'exit-cross-check',
  dependsOn: ['exit-check'],
  routes: {
    crossCheck: {
      method: 'POST',
      path: '/exit/cross-check',
      summary: 'Can I get out and home? The exit check, then a bridge quote to an EVM chain',
      description:
        'The exit check (sell `size_usdc` worth of the token back to USDC on Solana, and what could stop it), then a bridge ' +
        'quote for that USDC to native USDC on `home_chain` (base, ethereum, arbitrum, optimism, polygon) from the LI.FI ' +
        'aggregator: the route, its fees, its duration, `net_home_output_usdc` and `all_in_cost_pct`. Read-only: nothing ' +
        'is signed or sent. Answers within 10 s.',
      price: { usd: '0.01' },
      accounts: { token_address: 'token_mint' },
      body: Type.Object({
        token_address: SolanaAddress('Solana SPL mint address (base58, 32 to 44 characters); not a ticker'),
        size_usdc: ExitSize,
        home_chain: Type.Optional(
          Type.Union(
            HOME_CHAIN_NAMES.map((name) => Type.Literal(name)),
            { default: 'base', description: 'Where the USDC should end up (default base)' },
          ),
        ),
        wallet_address: Type.Optional(
          SolanaAddress(
            "Optional: the Solana wallet the exit would leave from (else the service's own address quotes)",
          ),
        ),
        home_address: Type.Optional(
          Type.String({
            pattern: '^0x[0-9a-fA-F]{40}$',
            description: "Optional: the EVM address to receive the USDC (else the service's own address quotes)",
          }),
        ),
      }),
      response: ExitCrossCheckResult,
      rateLimit: 'scanner',
      tags: ['catalogue'],
      // Answers within 10 s: the exit as the exit check answers it, then the bridge quote until 9.5 s.
      deadlineMs: { exitAt: EXIT_CHECK_DEADLINE_MS, bridgeAt: 9_500 },
      requires: [{ source: 'lifi', why: 'LIFI_URL is not set: the exit cross-check reads LI.FI’s bridge quotes' }],
    },
  },
})
