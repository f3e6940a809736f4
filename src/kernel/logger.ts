import { setTimeout as sleep } from 'node:timers/promises'
import { requestIdMixin } from './request-scope.ts'
import pino, { type Logger } from 'pino'
import type { Config } from './config.ts'
import { SERVICE_VERSION } from './version.ts'
import { stdoutWriter } from '../runtime/stdout.ts'

export type { Logger }

/** JSON logs on stdout, one object per line; written asynchronously and flushed at shutdown. */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  return pino(
    {
      level: config.LOG_LEVEL,
      base: { service: 'solsentry', version: SERVICE_VERSION },
      // Every line written while a request is served names it (src/kernel/request-scope.ts).
      mixin: requestIdMixin,
      // Epoch milliseconds and numeric levels: the cheapest forms, as this runs once per request.
    },
    stdoutSink(),
  )
}

/** How long a log line may wait in the sink's buffer, so a quiet service's lines still appear promptly. */
const LOG_FLUSH_MS = 100

/** A sink's batch is written out once it holds this many characters. */
const LOG_BATCH_CHARS = 64 * 1024

/**
 * Standard output through the runtime's writer (Bun's native one on Bun: src/runtime/stdout.ts), lines
 * batched in JavaScript: they are joined into one string and handed to the writer when the batch fills
 * or every LOG_FLUSH_MS. One native write per line cost about 2 µs (measured on the HTTP bench: a tenth
 * of a cheap request), one per batch a fraction of that. pino's default destination (sonic-boom)
 * recomputed the byte length of its whole pending buffer on every line — two fifths of the core's CPU
 * under load.
 */
function stdoutSink(): { write(line: string): void; drain(): Promise<void> } {
  const writer = stdoutWriter(LOG_BATCH_CHARS)
  let batch = ''
  const writeOut = () => {
    if (batch === '') return
    writer.write(batch)
    batch = ''
  }
  const timer = setInterval(() => {
    writeOut()
    void writer.flush()
  }, LOG_FLUSH_MS)
  timer.unref?.()
  return {
    write(line) {
      batch += line
      if (batch.length >= LOG_BATCH_CHARS) writeOut()
    },
    async drain() {
      writeOut()
      await writer.flush()
    },
  }
}

/** What `flushLogs` needs of pino's sonic-boom destination. */
interface LogStream {
  _writing?: boolean
  flushSync?: () => void
  once?: (event: 'drain', listener: () => void) => void
  /** The service's own stdout sink: writes out what it holds. */
  drain?: () => Promise<void>
}

/**
 * Writes out every buffered log line before the process exits: the service's stdout sink is drained;
 * for a sonic-boom destination (tests, embedders), whose `flush(cb)` calls back at
 * once when no minimum length is set, and `flushSync` skips a write already in flight, which
 * `process.exit` would then cut off: so wait for the in-flight write to drain (at most `timeoutMs`),
 * then write what is left synchronously.
 */
export async function flushLogs(logger: Logger, timeoutMs = 1_000): Promise<void> {
  const stream = (logger as unknown as Record<symbol, LogStream | undefined>)[pino.symbols.streamSym]
  if (!stream) return
  if (stream.drain) {
    await Promise.race([stream.drain(), sleep(timeoutMs)])
    return
  }
  if (stream._writing && stream.once) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs)
      stream.once!('drain', () => {
        clearTimeout(timer)
        resolve()
      })
    })
  }
  try {
    stream.flushSync?.()
  } catch {
    // Not opened yet or already closed: nothing left to write.
  }
}

/**
 * Writes one request's line: `route` is the manifest path it matched (null when none), `ip` the client's
 * address when it was read (rate limits).
 */
export type RequestLineWriter = (
  reqId: string,
  method: string,
  route: string | null,
  path: string,
  status: number,
  durationMs: number,
  ip: string | undefined,
) => void

/**
 * Writes request lines in pino's own format (level, time, the logger's bindings, the fields, msg) by
 * building the JSON directly: it runs once per request, and pino's generic serialisation of the same
 * object cost about a tenth of a cheap request. The method, route and path of a matched route are
 * encoded once per route and kept (a path that is not a route's own is encoded each time). Silent below
 * `info`, as `logger.info` would be.
 */
export function requestLogger(logger: Logger): RequestLineWriter {
  const stream = (logger as unknown as Record<symbol, { write(line: string): void } | undefined>)[
    pino.symbols.streamSym
  ]
  const bindings = (logger as unknown as Record<symbol, string | undefined>)[pino.symbols.chindingsSym] ?? ''
  const level = logger.levels.values.info
  const head = `{"level":${level},"time":`
  /** `,"method":…,"route":…,"path":…,"status":` of each route answered at its own path, by method and path. */
  const kept = new Map<string, Map<string, string>>()
  const encode = (method: string, route: string | null, path: string) =>
    `,"method":${JSON.stringify(method)},"route":${JSON.stringify(route)},"path":${JSON.stringify(path)},"status":`
  return function writeRequestLine(reqId, method, route, path, status, durationMs, ip) {
    if (!stream || !logger.isLevelEnabled('info')) return
    let fields: string | undefined
    if (route === path) {
      let byPath = kept.get(method)
      if (!byPath) {
        byPath = new Map()
        kept.set(method, byPath)
      }
      fields = byPath.get(path)
      if (fields === undefined) {
        fields = encode(method, route, path)
        byPath.set(path, fields)
      }
    } else fields = encode(method, route, path)
    stream.write(
      `${head}${Date.now()}${bindings},"req_id":${JSON.stringify(reqId)}${fields}${status},"duration_ms":${durationMs}` +
        `${ip === undefined ? '' : `,"ip":${JSON.stringify(ip)}`},"msg":"request"}\n`,
    )
  }
}

/**
 * A URL as logs and printed advice may show it: its origin, with any path and query elided, since RPC
 * providers carry their key in either (Helius `?api-key=`, QuickNode and Triton a path token) and
 * userinfo dropped. An unparsable value shows as `(not a URL)`.
 */
export function urlForLogs(url: string): string {
  try {
    const parsed = new URL(url)
    const path = parsed.pathname && parsed.pathname !== '/' ? '/…' : ''
    return `${parsed.protocol}//${parsed.host}${path}${parsed.search ? `${path ? '' : '/'}?…` : ''}`
  } catch {
    return '(not a URL)'
  }
}
