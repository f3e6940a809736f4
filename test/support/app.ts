import pino from 'pino'
import { createApp, type AppOptions } from '../../src/app.ts'
import { loadConfig } from '../../src/settings.ts'
import { createContext, type ServiceContext } from '../../src/context.ts'
import { fixturePlugin } from '../fixtures/fixture-plugin.ts'
import { WAIVED_PAYMENTS } from './payments.ts'

/** A bonk-like valid mint (32 bytes) used across tests. */
export const VALID_MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263'

/**
 * A context on an in-memory store whose log lines are collected in `logs`. Its priced routes admit
 * every call (tests of the core, not of payments), unless `env` names a FACILITATOR_URL.
 */
export function testContext(env: Record<string, string> = {}): ServiceContext & { logs: Record<string, unknown>[] } {
  const config = loadConfig({ DATA_DIR: ':memory:', LOG_LEVEL: 'info', ...env })
  const logs: Record<string, unknown>[] = []
  const logger = pino({ level: config.LOG_LEVEL }, { write: (line: string) => void logs.push(JSON.parse(line)) })
  const payments = config.FACILITATOR_URL ? undefined : WAIVED_PAYMENTS
  return Object.assign(createContext(config, { logger, payments }), { logs })
}

/** The real app plus the fixture plugin (a paid, rate-limited POST with token_address). */
export function testApp(env: Record<string, string> = {}, options: AppOptions = {}) {
  const ctx = testContext(env)
  const app = createApp(ctx, { plugins: [fixturePlugin(ctx), ...(options.plugins ?? [])] })
  return { ctx, app }
}

export interface Sent {
  status: number
  headers: Headers
  text: string
  json: any
}

/** Sends one request through `app.handle` (no socket) and reads the answer. */
export async function send(
  app: { handle(request: Request): Promise<Response> },
  method: string,
  path: string,
  init: { body?: string | Uint8Array | ReadableStream; json?: unknown; headers?: Record<string, string> } = {},
): Promise<Sent> {
  const headers: Record<string, string> = { ...init.headers }
  let body = init.body
  if (init.json !== undefined) {
    body = JSON.stringify(init.json)
    headers['content-type'] ??= 'application/json'
  }
  const response = await app.handle(new Request(`http://localhost${path}`, { method, body, headers }))
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, text, json }
}
