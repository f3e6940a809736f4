import { afterAll, afterEach } from 'bun:test'
import pino from 'pino'
import { WAIVED_PAYMENTS } from './payments.ts'
import { startSandbox } from '../../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../../sandbox/options.ts'
import type { SandboxRpcProfileName } from '../../sandbox/rpc/profiles.ts'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/core/config.ts'
import { createContext } from '../../src/context.ts'
import { openApiValidator } from './openapi.ts'

/**
 * A sandbox and the service pointed at it, for end-to-end scanner tests: registers the hooks that
 * stop the sandbox after the file and clear its faults after each test. Answers are checked against
 * the service's own /openapi.json.
 */
export async function scannerService(options: { rpcProfile?: SandboxRpcProfileName } = {}) {
  const sandbox = await startSandbox(ephemeralSandboxOptions({ rpcProfile: options.rpcProfile ?? 'open' }))
  afterAll(() => sandbox.stop())
  afterEach(() => sandbox.faults.clear())

  /** A service with empty caches (fault tests and fresh trades must not be served from cache). */
  const freshApp = (env: Record<string, string> = {}) =>
    createApp(
      createContext(
        loadConfig({
          DATA_DIR: ':memory:',
          LOG_LEVEL: 'silent',
          ...sandbox.serviceSettings,
          RATE_LIMIT_SCANNER_BURST: '100000',
          ...env,
        }),
        { logger: pino({ level: 'silent' }), payments: WAIVED_PAYMENTS },
      ),
    )
  const app = freshApp()
  const validate = await openApiValidator(app)
  const mintOf = (name: string) => sandbox.file.scenarios.find((scenario) => scenario.name === name)!.mint

  /** POSTs `{token_address}` to a scanner route; `errors` lists where the answer breaks the OpenAPI schema. */
  async function post(path: string, mint: string, service = app) {
    const response = await service.handle(
      new Request(`http://localhost${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token_address: mint }),
      }),
    )
    const body = (await response.json()) as any
    return { status: response.status, body, errors: validate('POST', path, response.status, body) }
  }

  return { sandbox, app, validate, freshApp, mintOf, post }
}
