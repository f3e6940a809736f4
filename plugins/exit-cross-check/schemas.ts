import { Type } from '@sinclair/typebox'
import { SchemaVersion } from '../../src/kernel/schemas.ts'
import { DataQuality, NullableNumber } from '../../src/pipeline/schemas.ts'
import { ExitCheckResult } from '../exit-check/schemas.ts'

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
