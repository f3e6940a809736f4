import { afterAll } from 'bun:test'
import pino from 'pino'
import { startSandbox } from '../../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../../sandbox/options.ts'
import { createApp } from '../../src/app.ts'
import { createContext } from '../../src/context.ts'
import { loadConfig } from '../../src/settings.ts'
import { startLaunchIngester } from '../../src/launchpad-index/index.ts'
import { PUMP_INITIAL_REAL_TOKENS } from '../../src/launchpad-index/curves.ts'
import type { TickerCoin } from '../../sandbox/ticker.ts'
import { openApiValidator } from './openapi.ts'
import { eventually } from './eventually.ts'
import { SWAP_API_SETTINGS } from './swap-api.ts'
import { WAIVED_PAYMENTS } from './payments.ts'
import { scanRequest } from './service.ts'

/**
 * A sandbox with its live launchpad followed: the service (payments waived) with the launch ingester
 * running on it, answers checked against its /openapi.json, on the swap API under test
 * (support/swap-api.ts). Stopped after the file's tests.
 */
export async function launchpadService() {
  const sandbox = await startSandbox(ephemeralSandboxOptions())
  afterAll(() => sandbox.stop())
  /** A context on the sandbox with payments waived (what the routes compute is under test, not payments). */
  const contextOn = (env: Record<string, string> = {}) =>
    createContext(
      loadConfig({
        DATA_DIR: ':memory:',
        ...sandbox.serviceSettings,
        RATE_LIMIT_SCANNER_BURST: '100000',
        ...SWAP_API_SETTINGS,
        ...env,
      }),
      { logger: pino({ level: 'silent' }), payments: WAIVED_PAYMENTS },
    )
  const ctx = contextOn()
  const app = createApp(ctx)
  const validate = await openApiValidator(app)
  const ingester = startLaunchIngester(ctx)!
  afterAll(() => ingester.stop())
  await ingester.ready
  /** POSTs a body to a route; `errors` lists where the answer breaks the OpenAPI schema. */
  const post = async (path: string, body: Record<string, unknown>, service = app) => {
    const started = Date.now()
    const response = await service.handle(scanRequest(path, body))
    const answer = (await response.json()) as any
    return {
      status: response.status,
      body: answer,
      ms: Date.now() - started,
      errors: validate('POST', path, response.status, answer),
    }
  }
  /** A ticker coin's bonding progress, percent (two decimals). */
  const progressOf = (coin: TickerCoin) =>
    Math.round(
      (Number(PUMP_INITIAL_REAL_TOKENS - sandbox.ticker.left(coin)) / Number(PUMP_INITIAL_REAL_TOKENS)) * 10_000,
    ) / 100
  /**
   * Steps the launchpad (20 s a step) until a runner is near completion (75%+) but not yet graduated, and
   * waits until the ingester has indexed its every trade: the launch feeds then have a coin to describe.
   */
  const runnerNearCompletion = async (): Promise<TickerCoin> => {
    const { ticker } = sandbox
    const near = () => ticker.coins.find((coin) => coin.runner && progressOf(coin) >= 75 && ticker.left(coin) > 0n)
    for (let step = 0; step < 400 && !near(); step++) await ticker.step(20)
    const runner = near()
    if (!runner) throw new Error('no runner reached 75% in 400 steps')
    await eventually(
      'the runner indexed',
      async () => (await ctx.store.launches.trades(runner.mint)).length,
      (count) => count === sandbox.world.pools.tradesOf(runner.pool.address).length,
    )
    return runner
  }
  return { sandbox, contextOn, ctx, app, validate, ingester, post, progressOf, runnerNearCompletion }
}
