import type { Config } from '../config.ts'
import type { HealthBoard } from '../health.ts'
import { DexScreenerSource } from './dexscreener.ts'
import { JupiterSource } from './jupiter.ts'
import { SolanaSource } from './solana-rpc.ts'

export interface ConfiguredSources {
  solana: SolanaSource
  dexscreener: DexScreenerSource
  jupiter: JupiterSource
}

/**
 * The upstream sources named by config, or undefined where a URL is not configured (the scanners then
 * report those facts missing). Each registers its breaker state on the health board.
 */
export function createSources(config: Config, health?: HealthBoard): Partial<ConfiguredSources> {
  const sources: Partial<ConfiguredSources> = {}
  if (config.SOLANA_RPC_URL) sources.solana = new SolanaSource({ url: config.SOLANA_RPC_URL })
  if (config.DEXSCREENER_URL) sources.dexscreener = new DexScreenerSource({ baseUrl: config.DEXSCREENER_URL })
  if (config.JUPITER_URL) sources.jupiter = new JupiterSource({ baseUrl: config.JUPITER_URL })
  if (health) for (const source of Object.values(sources)) health.register(source.upstream.name, () => source.upstream.health())
  return sources
}
