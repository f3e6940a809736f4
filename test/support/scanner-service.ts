import { scanRequest, waivedService } from './service.ts'
import { afterAll, afterEach } from 'bun:test'
import { startSandbox } from '../../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../../sandbox/options.ts'
import type { SandboxRpcProfileName } from '../../sandbox/rpc/profiles.ts'
import { openApiValidator } from './openapi.ts'
import { SWAP_API_SETTINGS } from './swap-api.ts'

/**
 * A sandbox and the service pointed at it, for end-to-end scanner tests: registers the hooks that
 * stop the sandbox after the file and clear its faults after each test. Answers are checked against
 * the service's own /openapi.json. The service speaks the swap API under test (support/swap-api.ts).
 */
export async function scannerService(options: { rpcProfile?: SandboxRpcProfileName } = {}) {
  const sandbox = await startSandbox(ephemeralSandboxOptions({ rpcProfile: options.rpcProfile ?? 'open' }))
  afterAll(() => sandbox.stop())
  afterEach(() => sandbox.faults.clear())

  /** A service with empty caches (fault tests and fresh trades must not be served from cache). */
  const freshApp = (env: Record<string, string> = {}) =>
    waivedService({ ...sandbox.serviceSettings, RATE_LIMIT_SCANNER_BURST: '100000', ...SWAP_API_SETTINGS, ...env })
  const app = freshApp()
  const validate = await openApiValidator(app)
  const mintOf = (name: string) => sandbox.file.scenarios.find((scenario) => scenario.name === name)!.mint

  /** POSTs `{token_address}` to a scanner route; `errors` lists where the answer breaks the OpenAPI schema. */
  async function post(path: string, mint: string, service = app) {
    const response = await service.handle(scanRequest(path, { token_address: mint }))
    const body = (await response.json()) as any
    return { status: response.status, body, errors: validate('POST', path, response.status, body) }
  }

  /**
   * Every upstream a scan reads down (503) until the test ends: DexScreener and Jupiter whole, and the
   * RPC's `rpcMethods` (the RPC's faults are per method: the ones the route reads).
   */
  function everyUpstreamDown(rpcMethods: readonly string[]) {
    for (const method of rpcMethods) sandbox.faults.set('rpc', method, { kind: 'down' })
    sandbox.faults.set('dexscreener', '/', { kind: 'down' })
    sandbox.faults.set('jupiter', '/', { kind: 'down' })
  }

  return { sandbox, app, validate, freshApp, mintOf, post, everyUpstreamDown }
}
