import type { Config } from '../core/config.ts'
import type { HealthBoard } from '../core/health.ts'
import { DexScreenerSource } from './dexscreener.ts'
import { JupiterSource } from './jupiter.ts'
import { providerOf } from './rpc-providers.ts'
import { type IssuerRegistry, loadIssuerRegistry } from '../onchain/issuers.ts'
import { headersSetting } from '../core/config.ts'
import { RedisCache, type SharedCache } from '../store/shared-cache.ts'
import { SolanaSource } from './solana-rpc.ts'

export interface ConfiguredSources {
  solana: SolanaSource
  dexscreener: DexScreenerSource
  jupiter: JupiterSource
  issuers: IssuerRegistry
}

/**
 * The upstream sources named by config, or undefined where a URL is not configured (the scanners then
 * report those facts missing), sharing the Redis cache when REDIS_URL is set. Each registers its
 * breaker state (and the cache its reachability) on the health board.
 */
export function createSources(
  config: Config,
  health?: HealthBoard,
): Partial<ConfiguredSources> & { cache?: SharedCache } {
  // RPC answers are cached in kit's bigint form; the HTTP sources' JSON stays plain.
  const cache = config.REDIS_URL ? new RedisCache(config.REDIS_URL, 'json-bigint') : undefined
  const httpCache = config.REDIS_URL ? new RedisCache(config.REDIS_URL, 'json') : undefined
  const sources: Partial<ConfiguredSources> = { issuers: loadIssuerRegistry(config.ISSUER_REGISTRY) }
  if (config.SOLANA_RPC_URL)
    sources.solana = new SolanaSource({
      url: config.SOLANA_RPC_URL,
      cache,
      provider: providerOf(config.SOLANA_RPC_URL, config.SOLANA_RPC_PROVIDER),
      headers: headersSetting(config, 'SOLANA_RPC_HEADERS'),
    })
  if (config.DEXSCREENER_URL)
    sources.dexscreener = new DexScreenerSource({ baseUrl: config.DEXSCREENER_URL, cache: httpCache })
  if (config.JUPITER_URL)
    sources.jupiter = new JupiterSource({
      baseUrl: config.JUPITER_URL,
      cache: httpCache,
      ...(config.JUPITER_API_KEY ? { headers: { 'x-api-key': config.JUPITER_API_KEY } } : {}),
    })
  if (health) {
    for (const source of [sources.solana, sources.dexscreener, sources.jupiter])
      if (source) health.register(source.upstream.name, () => source.upstream.health())
    if (cache) health.register('cache', () => cache.health())
  }
  return { ...sources, cache }
}
