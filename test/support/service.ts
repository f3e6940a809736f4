import pino from 'pino'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/settings.ts'
import { createContext } from '../../src/context.ts'
import { WAIVED_PAYMENTS } from './payments.ts'

/**
 * The service on `settings` — an in-memory store, silent logs, payments waived: what tests of a priced
 * route's computation, the benches and the docs/replay scripts run (never the service itself).
 */
export function waivedService(settings: Record<string, string>) {
  return createApp(
    createContext(loadConfig({ DATA_DIR: ':memory:', LOG_LEVEL: 'silent', ...settings }), {
      logger: pino({ level: 'silent' }),
      payments: WAIVED_PAYMENTS,
    }),
  )
}

/** A scanner request: `POST path` with `body` (a scanner's is `{token_address}`) as JSON. */
export function scanRequest(path: string, body: unknown): Request {
  return new Request(`http://localhost${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}
