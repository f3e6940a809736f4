import type { Config } from '../kernel/config.ts'
import type { HealthBoard } from '../kernel/health.ts'
import { DexScreenerSource } from './dexscreener.ts'
import { JupiterSource } from './jupiter.ts'
import { LifiSource } from './lifi.ts'
import { providerOf } from './rpc-providers.ts'
import { type ExchangeList, loadExchangeList } from '../onchain/exchanges.ts'
import { type IssuerRegistry, loadIssuerRegistry } from '../onchain/issuers.ts'
import { headersSetting } from '../kernel/config.ts'
import { RedisCache, type SharedCache } from '../store/shared-cache.ts'
import { SolanaSource } from './solana-rpc.ts'
import { NewsFeedsSource } from './news.ts'
import { XSource } from './x.ts'
import { type EcosystemAccounts, loadEcosystemAccounts } from '../onchain/ecosystem.ts'
import { ModelClient } from './llm.ts'
import { SERVICE_VERSION } from '../kernel/version.ts'
import type { Upstream } from './upstream.ts'
import { sourceComponents } from './health-probes.ts'
import { USDC_MINT_ADDRESS } from '../onchain/programs.ts'

export interface ConfiguredSources {
  solana: SolanaSource
  dexscreener: DexScreenerSource
  jupiter: JupiterSource
  lifi: LifiSource
  /** Public RSS/Atom news feeds (NEWS_FEEDS). */
  news: NewsFeedsSource
  /** X recent search (X_API_URL with X_BEARER_TOKEN). */
  x: XSource
  /** The language model (LLM_URL, LLM_MODEL). */
  llm: ModelClient
  issuers: IssuerRegistry
  exchanges: ExchangeList
  ecosystem: EcosystemAccounts
}

/**
 * The upstream sources named by config, or undefined where a URL is not configured (the scanners then
 * report those facts missing), sharing the Redis cache when REDIS_URL is set. Each registers on the
 * health board what its live traffic shows and its probe (src/sources/health-probes.ts).
 */
export function createSources(
  config: Config,
  health?: HealthBoard,
): Partial<ConfiguredSources> & { cache?: SharedCache } {
  // RPC answers are cached in kit's bigint form; the HTTP sources' JSON stays plain.
  const cache = config.REDIS_URL ? new RedisCache(config.REDIS_URL, 'json-bigint') : undefined
  const httpCache = config.REDIS_URL ? new RedisCache(config.REDIS_URL, 'json') : undefined
  const sources: Partial<ConfiguredSources> = {
    issuers: loadIssuerRegistry(config.ISSUER_REGISTRY),
    exchanges: loadExchangeList(config.EXCHANGE_WALLETS),
    ecosystem: loadEcosystemAccounts(config.ECOSYSTEM_ACCOUNTS),
  }
  if (config.SOLANA_RPC_URL)
    sources.solana = new SolanaSource({
      url: config.SOLANA_RPC_URL,
      cache,
      provider: providerOf(config.SOLANA_RPC_URL, config.SOLANA_RPC_PROVIDER),
      headers: headersSetting(config, 'SOLANA_RPC_HEADERS'),
    })
  if (config.DEXSCREENER_URL)
    sources.dexscreener = new DexScreenerSource({
      baseUrl: config.DEXSCREENER_URL,
      cache: httpCache,
      limit: perMinute(hostIs(config.DEXSCREENER_URL, 'dexscreener.com') ? DEXSCREENER_PER_MINUTE : undefined),
    })
  if (config.JUPITER_URL)
    sources.jupiter = new JupiterSource({
      baseUrl: config.JUPITER_URL,
      cache: httpCache,
      limit: perMinute(jupiterPerMinute(config)),
      swapApi: config.JUPITER_SWAP_API,
      ...(config.JUPITER_API_KEY ? { apiKey: config.JUPITER_API_KEY } : {}),
    })
  if (config.LIFI_URL)
    sources.lifi = new LifiSource({
      baseUrl: config.LIFI_URL,
      cache: httpCache,
      limit: hostIs(config.LIFI_URL, 'li.quest')
        ? config.LIFI_API_KEY
          ? { requests: LIFI_KEYED_PER_MINUTE, windowMs: 60_000 + WINDOW_MARGIN_MS }
          : { requests: LIFI_KEYLESS_PER_TWO_HOURS, windowMs: 2 * 60 * 60_000 + WINDOW_MARGIN_MS }
        : undefined,
      ...(config.LIFI_API_KEY ? { headers: { 'x-lifi-api-key': config.LIFI_API_KEY } } : {}),
    })
  if (config.NEWS_FEEDS)
    sources.news = new NewsFeedsSource(
      config.NEWS_FEEDS.split(',').map((url) => url.trim()),
      {
        userAgent: `solsentry/${SERVICE_VERSION}${config.PUBLIC_URL ? ` (+${config.PUBLIC_URL})` : ''}`,
        cache: httpCache,
      },
    )
  if (config.X_API_URL && config.X_BEARER_TOKEN)
    sources.x = new XSource({
      baseUrl: config.X_API_URL,
      bearerToken: config.X_BEARER_TOKEN,
      cache: httpCache,
      limit: xSearchLimit(config),
    })
  if (config.LLM_URL && config.LLM_MODEL)
    sources.llm = new ModelClient({
      baseUrl: config.LLM_URL,
      apiKey: config.LLM_API_KEY,
      model: config.LLM_MODEL,
      cache: httpCache,
    })
  if (health) {
    for (const [name, component] of sourceComponents(sources, config.SOLANA_PAYMENT_ASSET ?? USDC_MINT_ADDRESS))
      health.register(name, component)
    if (cache) health.register('cache', { observe: () => cache.health(), local: true })
  }
  return { ...sources, cache }
}

/** Every configured source's upstream (each news feed is its own): what /health and /metrics report on. */
export function upstreamsOf(sources: Partial<ConfiguredSources>): Upstream[] {
  return [sources.solana, sources.dexscreener, sources.jupiter, sources.lifi, sources.x, sources.llm]
    .filter((source) => source !== undefined)
    .map((source) => source.upstream)
    .concat(sources.news?.upstreams ?? [])
}

/** DexScreener's published limit for its pair endpoints (docs.dexscreener.com): 300 requests per minute. */
const DEXSCREENER_PER_MINUTE = 300
/** Jupiter's limits on api.jup.ag (60 s sliding window): keyless 0.5 requests/s, the Free plan 1/s. */
const JUPITER_KEYLESS_PER_MINUTE = 30
const JUPITER_FREE_PER_MINUTE = 60
/** LI.FI's limits (docs.li.fi/api-reference/rate-limits): 200 requests per two hours without a key, 200 a minute with one. */
const LIFI_KEYLESS_PER_TWO_HOURS = 200
const LIFI_KEYED_PER_MINUTE = 200
/** Added to a provider's window: the time a request takes to reach it. */
const WINDOW_MARGIN_MS = 1_000

const hostIs = (url: string, domain: string) => {
  const { hostname } = new URL(url)
  return hostname === domain || hostname.endsWith(`.${domain}`)
}

/**
 * Jupiter requests per minute: the operator's JUPITER_REQUESTS_PER_MINUTE, else on Jupiter's hosts the
 * keyless or Free limit by whether a key is set, else none (a local stand-in).
 */
export function jupiterPerMinute(config: Config): number | undefined {
  if (config.JUPITER_REQUESTS_PER_MINUTE !== undefined) return config.JUPITER_REQUESTS_PER_MINUTE
  if (!config.JUPITER_URL || !hostIs(config.JUPITER_URL, 'jup.ag')) return undefined
  return config.JUPITER_API_KEY ? JUPITER_FREE_PER_MINUTE : JUPITER_KEYLESS_PER_MINUTE
}

/** X recent searches per 15 minutes on X's hosts: the app's plan (X_SEARCHES_PER_15_MIN); none for a stand-in. */
export function xSearchLimit(config: Config): { requests: number; windowMs: number } | undefined {
  if (!config.X_API_URL || !(hostIs(config.X_API_URL, 'x.com') || hostIs(config.X_API_URL, 'twitter.com')))
    return undefined
  return { requests: config.X_SEARCHES_PER_15_MIN, windowMs: 15 * 60_000 + WINDOW_MARGIN_MS }
}

const perMinute = (requests: number | undefined) =>
  requests === undefined ? undefined : { requests, windowMs: 60_000 + WINDOW_MARGIN_MS }
