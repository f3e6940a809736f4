import pino, { type Logger } from 'pino'
import type { Config } from './config.ts'
import { SERVICE_VERSION } from './version.ts'

export type { Logger }

/** JSON logs on stdout, one object per line; written asynchronously and flushed at shutdown. */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  return pino(
    {
      level: config.LOG_LEVEL,
      base: { service: 'solsentry', version: SERVICE_VERSION },
      // Epoch milliseconds and numeric levels: the cheapest forms, as this runs once per request.
    },
    pino.destination({ dest: 1, sync: false }),
  )
}

/** What `flushLogs` needs of pino's sonic-boom destination. */
interface LogStream {
  _writing?: boolean
  flushSync?: () => void
  once?: (event: 'drain', listener: () => void) => void
}

/**
 * Writes out every buffered log line before the process exits. sonic-boom's `flush(cb)` calls back at
 * once when no minimum length is set, and `flushSync` skips a write already in flight, which
 * `process.exit` would then cut off: so wait for the in-flight write to drain (at most `timeoutMs`),
 * then write what is left synchronously.
 */
export async function flushLogs(logger: Logger, timeoutMs = 1_000): Promise<void> {
  const stream = (logger as unknown as Record<symbol, LogStream | undefined>)[pino.symbols.streamSym]
  if (!stream) return
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
