import { Type } from '@sinclair/typebox'
import { defineManifest } from '../../src/core/manifest.ts'
import { SchemaVersion, SolanaAddress } from '../../src/core/schemas.ts'
import { ExitCheckResult, ExitSize } from '../../src/exit/schemas.ts'
import { DataQuality, NullableNumber } from '../../src/pipeline/schemas.ts'

export { BLOCKER_CODES, EXIT_SIZE_USDC, ExitCheckResult } from '../../src/exit/schemas.ts'

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
    },
  },
})

/** The chains an exit can be bridged home to (LI.FI keys and USDC: src/sources/lifi.ts). */
export const HOME_CHAIN_NAMES = ['base', 'ethereum', 'arbitrum', 'optimism', 'polygon'] as const

export const ExitCrossCheckResult = Type.Object({
  schema_version: SchemaVersion,
  data_quality: DataQuality,
  missing_fields: Type.Array(Type.String(), { description: 'Facts that could not be gathered (docs/data-quality.md)' }),
  token_address: Type.String(),
  size_usdc: Type.Number({ description: 'The USDC value checked: what size_usdc buys now, sold back, then bridged' }),
  home_chain: Type.Union(HOME_CHAIN_NAMES.map((name) => Type.Literal(name))),
  sellable: ExitCheckResult.properties.sellable,
  expected_return_usdc: ExitCheckResult.properties.expected_return_usdc,
  exit_price_impact_pct: ExitCheckResult.properties.exit_price_impact_pct,
  exit_loss_pct: ExitCheckResult.properties.exit_loss_pct,
  exit_rating: ExitCheckResult.properties.exit_rating,
  blockers: ExitCheckResult.properties.blockers,
  bridgeable: Type.Union([Type.Boolean(), Type.Null()], {
    description:
      'Whether the USDC the sale returns can be bridged home now: false when the bridge aggregator has no route; null when there was nothing to bridge or no answer',
  }),
  bridge: Type.Union(
    [
      Type.Object({
        tool: Type.String({ description: "The bridge aggregator's route (LI.FI's tool key)" }),
        tool_name: Type.String(),
        from_usdc: Type.Number({ description: 'USDC sent from Solana' }),
        output_usdc: Type.Number({ description: 'USDC expected on the home chain' }),
        min_output_usdc: Type.Number({ description: 'USDC guaranteed on the home chain (after slippage)' }),
        fee_usd: Type.Number({ description: 'Bridge fees taken out of the transfer (LI.FI fee, destination gas)' }),
        gas_usd: Type.Number({ description: "The sender's own network fees, paid on top (in SOL)" }),
        duration_s: Type.Number({ description: 'Expected time until the USDC arrives, seconds' }),
      }),
      Type.Null(),
    ],
    { description: 'The bridge quote (read-only; nothing is signed or sent); null without one' },
  ),
  net_home_output_usdc: NullableNumber(
    'USDC arriving on the home chain for size_usdc of the token now; null without both quotes',
  ),
  all_in_cost_pct: NullableNumber(
    'What the whole exit costs, percent of size_usdc: the sale, the bridge fees and the sender’s gas; null without both quotes',
  ),
  summary: Type.String(),
})

export const crossCheckManifest = defineManifest({
  name: 'exit-cross-check',
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
    },
  },
})
