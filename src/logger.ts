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
