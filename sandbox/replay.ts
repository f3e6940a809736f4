import { parseJsonWithBigInts, stringifyJsonWithBigInts } from '@solana/rpc-spec-types'
import {
  type Cassette,
  type Exchange,
  type HttpExchange,
  httpKey,
  type RpcExchange,
  rpcKey,
} from '../src/sources/tape.ts'

/**
 * Serves a cassette's recorded answers (src/sources/tape.ts) as the upstreams it was recorded from,
 * on loopback: `/rpc` answers JSON-RPC calls (single or batched) by method and params, `/<source>/…`
 * answers HTTP requests by path, query and body. A recorded failure answers as that failure (a
 * timeout never answers; rate limits 429; others 503). A request the cassette does not hold is
 * answered 404 (a call of a JSON-RPC batch: its own error, -32099) and counted in `misses`: the replayed
 * scan asked for something the recorded one did not.
 */
export interface RunningReplay {
  urls: { rpc: string; dexscreener: string; jupiter: string }
  /** Requests the cassette had no answer for. */
  misses: string[]
  /** Recorded exchanges served so far. */
  served: number
  stop(): Promise<void>
}

/** The replay's own JSON-RPC error for a call of a batch the cassette has no answer for (not a provider's). */
const NOT_RECORDED = { code: -32099, message: 'not in the cassette: the recorded scan did not make this call' }

/** The HTTP status a recorded failure is replayed as. */
const FAILURE_STATUS: Record<string, number> = { rate_limited: 429, rejected: 400, malformed: 200 }

const isRpc = (exchange: Exchange): exchange is RpcExchange => exchange.source === 'solana_rpc'

export function startReplay(cassette: Cassette, options: { port?: number } = {}): RunningReplay {
  // Each key's answers in recorded order; a key asked more often than recorded gets its last answer.
  const answers = new Map<string, Exchange[]>()
  for (const exchange of cassette.exchanges) {
    const key = isRpc(exchange)
      ? rpcKey(exchange.request.method, exchange.request.params)
      : httpKey(exchange.source, exchange.request.method, exchange.request.path, exchange.request.body)
    answers.set(key, [...(answers.get(key) ?? []), exchange])
  }
  const take = (key: string): Exchange | undefined => {
    const list = answers.get(key)
    if (!list || list.length === 0) return undefined
    replay.served++
    return list.length > 1 ? list.shift() : list[0]
  }

  const rpcAnswer = (call: { id?: unknown; method?: string; params?: unknown }) => {
    const key = rpcKey(String(call?.method), call?.params)
    const exchange = take(key) as RpcExchange | undefined
    if (!exchange) {
      replay.misses.push(key)
      return { missing: true as const }
    }
    if (exchange.failure) return { failure: exchange.failure }
    return { answer: { ...(exchange.answer as object), id: call?.id ?? null } }
  }

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: options.port ?? 0,
    async fetch(request) {
      const url = new URL(request.url)
      const text = request.method === 'POST' ? await request.text() : ''
      if (url.pathname === '/rpc') {
        const body = parseJsonWithBigInts(text) as unknown
        const calls = (Array.isArray(body) ? body : [body]) as { id?: unknown; method?: string; params?: unknown }[]
        const results = calls.map(rpcAnswer)
        // A recorded failure was the whole request's (a 429, a timeout): the batch fails as it did.
        const failed = results.find((result) => 'failure' in result)
        if (failed && 'failure' in failed) return failureResponse(failed.failure!)
        if (!Array.isArray(body) && 'missing' in results[0]!) return failureResponse('missing')
        // In a batch (composed differently from the recorded one), each call answers for itself.
        const wire = results.map((result, index) =>
          'answer' in result ? result.answer : { jsonrpc: '2.0', error: NOT_RECORDED, id: calls[index]?.id ?? null },
        )
        return new Response(stringifyJsonWithBigInts(Array.isArray(body) ? wire : wire[0]), {
          headers: { 'content-type': 'application/json' },
        })
      }
      const [, source, ...rest] = url.pathname.split('/')
      const path = `/${rest.join('/')}${url.search}`
      const body = text === '' ? undefined : JSON.parse(text)
      const key = httpKey(source ?? '', request.method, path, body)
      const exchange = take(key) as HttpExchange | undefined
      if (!exchange) {
        replay.misses.push(key)
        return failureResponse('missing')
      }
      if (exchange.failure) return failureResponse(exchange.failure)
      return Response.json(exchange.answer, { status: exchange.status ?? 200 })
    },
  })

  const base = `http://127.0.0.1:${server.port}`
  const replay: RunningReplay = {
    urls: { rpc: `${base}/rpc`, dexscreener: `${base}/dexscreener`, jupiter: `${base}/jupiter` },
    misses: [],
    served: 0,
    async stop() {
      await server.stop(true)
    },
  }
  return replay
}

async function failureResponse(failure: string): Promise<Response> {
  if (failure === 'missing')
    return Response.json({ error: 'not in the cassette: the recorded scan did not make this request' }, { status: 404 })
  // A timeout is replayed as no answer: the caller's own timeout ends it.
  if (failure === 'timeout') await new Promise(() => {})
  return Response.json({ error: `recorded failure: ${failure}` }, { status: FAILURE_STATUS[failure] ?? 503 })
}
