import type { World } from '../world/world.ts'
import { DEX_CHAIN_ID, pairsAtAddresses, pairsOfTokens, type DexPair } from './pairs.ts'

/** DexScreener's batch endpoints take at most this many comma-separated addresses. */
export const MAX_ADDRESSES_PER_REQUEST = 30

/** The `schemaVersion` of DexScreener's `/latest/dex/...` envelopes. */
export const DEXSCREENER_SCHEMA_VERSION = '1.0.0'

export interface MarketServerOptions {
  hostname: string
  /** TCP port (0 picks a free one). */
  port: number
}

export interface RunningMarketServer {
  url: string
  stop(): Promise<void>
}

/** The `/latest/dex/...` envelope; `pairs` is null (not empty) when nothing matched, as upstream. */
export interface DexPairsEnvelope {
  schemaVersion: string
  pairs: DexPair[] | null
}

const JSON_HEADERS = { 'content-type': 'application/json' }

/** A route: its path pattern, whether its last segment is an address list, and how it answers. */
interface Route {
  pattern: RegExp
  /** Single-token routes take the segment as one address; batch routes split it on commas. */
  batch: boolean
  answer(world: World, chainId: string, addresses: string[], nowUnixS: number): unknown
}

const ROUTES: Route[] = [
  {
    pattern: /^\/tokens\/v1\/([^/]+)\/([^/]+)$/,
    batch: true,
    answer: (world, chainId, addresses, now) => onChain(chainId, () => pairsOfTokens(world, addresses, now)),
  },
  {
    pattern: /^\/token-pairs\/v1\/([^/]+)\/([^/]+)$/,
    batch: false,
    answer: (world, chainId, addresses, now) => onChain(chainId, () => pairsOfTokens(world, addresses, now)),
  },
  {
    // The token search spans every chain, so it has no chain segment.
    pattern: /^\/latest\/dex\/tokens\/([^/]+)$/,
    batch: true,
    answer: (world, _chainId, addresses, now) => envelope(pairsOfTokens(world, addresses, now)),
  },
  {
    pattern: /^\/latest\/dex\/pairs\/([^/]+)\/([^/]+)$/,
    batch: true,
    answer: (world, chainId, addresses, now) =>
      envelope(onChain(chainId, () => pairsAtAddresses(world, addresses, now))),
  },
]

/**
 * Answers one request to the DexScreener stand-in, as of the chain's current time. Every number in an
 * answer comes from the sandbox's pools and the trades read from its chain (see pairs.ts).
 */
export function handleMarketRequest(world: World, request: Request): Response {
  const { pathname } = new URL(request.url)
  for (const route of ROUTES) {
    const match = route.pattern.exec(pathname)
    if (!match) continue
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return json({ error: 'Method Not Allowed', message: `${request.method} is not supported; use GET` }, 405, {
        allow: 'GET, HEAD',
      })
    const [chainId, list] = match.length === 3 ? [match[1]!, match[2]!] : [DEX_CHAIN_ID, match[1]!]
    let segment: string
    try {
      segment = decodeURIComponent(list)
    } catch {
      return json({ error: 'Bad Request', message: 'malformed percent-encoding in the address list' }, 400)
    }
    const addresses = route.batch
      ? segment
          .split(',')
          .map((address) => address.trim())
          .filter((address) => address !== '')
      : [segment]
    if (addresses.length > MAX_ADDRESSES_PER_REQUEST)
      return json(
        {
          error: 'Bad Request',
          message: `at most ${MAX_ADDRESSES_PER_REQUEST} addresses per request (got ${addresses.length})`,
        },
        400,
      )
    return json(route.answer(world, chainId, addresses, world.chain.unixS), 200)
  }
  return json({ error: 'Not Found', message: `no route for ${request.method} ${pathname}` }, 404)
}

/** Serves the DexScreener stand-in over HTTP (what `DEXSCREENER_URL` points at in the sandbox profile). */
export function startMarketServer(world: World, options: MarketServerOptions): RunningMarketServer {
  const server = Bun.serve({
    hostname: options.hostname,
    port: options.port,
    fetch: (request) => handleMarketRequest(world, request),
  })
  return {
    url: `http://${options.hostname}:${server.port}`,
    async stop() {
      await server.stop(true)
    },
  }
}

/** The sandbox holds one chain: any other chain id has no pairs. */
function onChain(chainId: string, pairs: () => DexPair[]): DexPair[] {
  return chainId === DEX_CHAIN_ID ? pairs() : []
}

function envelope(pairs: DexPair[]): DexPairsEnvelope {
  return { schemaVersion: DEXSCREENER_SCHEMA_VERSION, pairs: pairs.length > 0 ? pairs : null }
}

function json(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } })
}
