import type { World } from '../world/world.ts'
import { refuse, type Outcome } from './errors.ts'
import { buildFromQuery } from './build.ts'
import { orderFromQuery } from './order.ts'
import { quoteFromQuery } from './quote.ts'
import { swapFromBody } from './swap-transaction.ts'
import { categoryTokens, searchTokens, tokensByTag } from './token-list.ts'

/** Where the stand-in listens. */
export interface AggregatorServerOptions {
  hostname: string
  /** 0 picks a free port. */
  port: number
}

/** A listening stand-in: its base URL, and how to stop it. */
export interface RunningAggregatorServer {
  /** Base URL to use as `JUPITER_URL`: the routes sit under it as on Jupiter's hosts. */
  url: string
  stop(): Promise<void>
}

type Handler = (world: World, request: Request, url: URL) => Outcome<unknown> | Promise<Outcome<unknown>>

/**
 * The routes of the stand-in, by path and method: Jupiter swap v1, Swap API v2's /build and /order (a
 * quote without a taker) and a tokens v2 subset.
 */
const ROUTES: Record<string, Partial<Record<string, Handler>>> = {
  '/swap/v2/build': { GET: (world, _request, url) => buildFromQuery(world, url.searchParams) },
  '/swap/v2/order': { GET: (world, _request, url) => orderFromQuery(world, url.searchParams) },
  '/swap/v1/quote': { GET: (world, _request, url) => quoteFromQuery(world, url.searchParams) },
  '/swap/v1/swap': { POST: handleSwap },
  '/tokens/v2/search': { GET: (world, _request, url) => searchTokens(world, url.searchParams.get('query')) },
  '/tokens/v2/tag': { GET: (world, _request, url) => tokensByTag(world, url.searchParams.get('query')) },
}

/** `/tokens/v2/{category}/{interval}`: the token categories (the path's two segments are its parameters). */
function categoryRoute(pathname: string): Partial<Record<string, Handler>> | undefined {
  const match = /^\/tokens\/v2\/([^/]+)\/([^/]+)$/.exec(pathname)
  if (!match) return undefined
  const [, category, interval] = match
  return {
    GET: (world, _request, url) =>
      categoryTokens(
        world,
        decodeURIComponent(category!),
        decodeURIComponent(interval!),
        url.searchParams.get('limit'),
      ),
  }
}

const JSON_HEADERS = { 'content-type': 'application/json' }

async function handleSwap(world: World, request: Request): Promise<Outcome<unknown>> {
  let body: unknown
  try {
    body = await request.json()
  } catch (error) {
    // axum answers a body that is not JSON at all with 400 (a body that is JSON of the wrong shape gets 422).
    return refuse(400, `Failed to parse the request body as JSON: ${(error as Error).message}`)
  }
  return swapFromBody(world, body)
}

/**
 * Answers one request to the stand-in (never throws: an unexpected failure is a 500 with Jupiter's
 * generic message, so a client sees the same shape it would from the real host).
 */
export async function handleAggregatorRequest(world: World, request: Request): Promise<Response> {
  const url = new URL(request.url)
  const route = ROUTES[url.pathname] ?? categoryRoute(url.pathname)
  if (!route) return json(404, { error: `No route for ${url.pathname}` })
  const handler = route[request.method]
  if (!handler) return json(405, { error: `Method ${request.method} is not allowed on ${url.pathname}` })
  try {
    const outcome = await handler(world, request, url)
    return outcome.ok ? json(200, outcome.value) : json(outcome.status, outcome.body)
  } catch (error) {
    console.error('sandbox aggregator:', error)
    return json(500, { error: 'Something unexpected occurred' })
  }
}

/**
 * The sandbox's Jupiter stand-in over HTTP: quotes priced on the world's pools, swap transactions that
 * really execute against them (the user signs and sends), and the token list from the world's tokens.
 */
export function startAggregatorServer(world: World, options: AggregatorServerOptions): RunningAggregatorServer {
  const server = Bun.serve({
    hostname: options.hostname,
    port: options.port,
    fetch: (request) => handleAggregatorRequest(world, request),
  })
  return {
    url: `http://${options.hostname}:${server.port}`,
    async stop() {
      await server.stop(true)
    },
  }
}

function json(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), { status, headers: JSON_HEADERS })
}
