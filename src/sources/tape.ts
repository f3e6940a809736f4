import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseJsonWithBigInts, stringifyJsonWithBigInts } from '@solana/rpc-spec-types'

/**
 * Record and replay (docs/replay.md). With RECORD_DIR set, each scan keeps a tape of every upstream
 * exchange it read — served by the upstream, or from the cache another scan filled — and writes it as
 * a cassette named by the request id. A cassette is plain JSON (integers beyond 2^53 kept exact), so an
 * operator can read it, trim it, and attach it to a bug report; `npm run replay -- <cassette>` serves
 * its answers to the same scan offline (sandbox/replay.ts).
 */
export const CASSETTE_VERSION = 1

/** One JSON-RPC call and its answer (the JSON-RPC response object: `result` or `error`). */
export interface RpcExchange {
  source: 'solana_rpc'
  request: { method: string; params: unknown }
  answer?: unknown
  /** When no answer came: why (timeout, rate_limited, ...). */
  failure?: string
  ms: number
}

/** One HTTP exchange with a JSON API (DexScreener, Jupiter): path and query relative to its base URL. */
export interface HttpExchange {
  source: string
  request: { method: 'GET' | 'POST'; path: string; body?: unknown }
  status?: number
  answer?: unknown
  failure?: string
  ms: number
}

export type Exchange = RpcExchange | HttpExchange

export interface Cassette {
  cassette: typeof CASSETTE_VERSION
  /** The request id the service gave the scan (x-request-id), the cassette's file name. */
  request_id: string
  /** `POST /scan/quick`, ... */
  route: string
  body: unknown
  recorded_at: string
  /** The settings a replay needs to behave the same (the RPC provider the service paced to). */
  settings: Record<string, string>
  exchanges: Exchange[]
  /** The service's answer, so a replay can be compared with it. */
  status?: number
  answer?: unknown
}

/** The exchanges of one scan, in the order they completed. */
export class Tape {
  readonly exchanges: Exchange[] = []

  add(exchange: Exchange): void {
    this.exchanges.push(exchange)
  }
}

/** The key a replay matches an RPC call by: method and params, whatever the batch or id. */
export function rpcKey(method: string, params: unknown): string {
  return `${method} ${stringifyJsonWithBigInts(params ?? [])}`
}

/** The key a replay matches an HTTP exchange by: source, method, path with its query, and body. */
export function httpKey(source: string, method: string, path: string, body?: unknown): string {
  return `${source} ${method} ${path}${body === undefined ? '' : ` ${stringifyJsonWithBigInts(body)}`}`
}

/** Writes a cassette as `<dir>/<request id>.json` (atomically: a reader never sees half of one). */
export function writeCassette(dir: string, cassette: Cassette): string {
  mkdirSync(dir, { recursive: true })
  const name = `${cassette.request_id.replace(/[^\w.-]/g, '_') || 'unknown'}.json`
  const path = join(dir, name)
  writeFileSync(`${path}.partial`, `${stringifyJsonWithBigInts(cassette, 2)}\n`)
  renameSync(`${path}.partial`, path)
  return path
}

/** Reads a cassette file; throws a message naming what is wrong with it. */
export function readCassette(path: string): Cassette {
  let cassette: Cassette
  try {
    cassette = parseJsonWithBigInts(readFileSync(path, 'utf8')) as Cassette
  } catch (error) {
    throw new Error(`${path}: not a readable cassette (${(error as Error).message})`)
  }
  if (Number(cassette?.cassette) !== CASSETTE_VERSION || !Array.isArray(cassette.exchanges))
    throw new Error(`${path}: not a cassette of version ${CASSETTE_VERSION} (cassette, exchanges)`)
  // JSON-RPC answers keep their integers exact (as the wire); everything else reads as plain JSON.
  return {
    ...(numbers(cassette) as Cassette),
    exchanges: cassette.exchanges.map((exchange) =>
      exchange.source === 'solana_rpc' ? { ...exchange, ms: Number(exchange.ms) } : (numbers(exchange) as Exchange),
    ),
  }
}

/** `value` with its bigints as numbers (what JSON.parse would have read). */
function numbers(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value)
  if (Array.isArray(value)) return value.map(numbers)
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, numbers(member)]))
  return value
}
