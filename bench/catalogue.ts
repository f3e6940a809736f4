/**
 * The catalogue routes' cost: wall time and upstream calls per answer (and, for the written /news routes,
 * the model's prompt and completion tokens), on the sandbox with an injected
 * latency on every upstream answer (default 100 ms), cold (a fresh service: empty caches and grades)
 * then warm (the same service again). The launchpad index is filled first by the sandbox's ticker
 * (60 steps) and the ingester, outside the timings.
 *
 *   npm run bench -- catalogue [--latency 100]
 */
import pino from 'pino'
import { createApp } from '../src/app.ts'
import { createContext } from '../src/context.ts'
import { loadConfig } from '../src/settings.ts'
import { startLaunchIngester } from '../src/launchpad-index/index.ts'
import { openStore } from '../src/store/index.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { WAIVED_PAYMENTS } from '../test/support/payments.ts'
import { scanRequest } from '../test/support/service.ts'

const SERVERS = ['rpc', 'dexscreener', 'jupiter', 'lifi', 'news', 'model'] as const

export async function run(args: string[]): Promise<void> {
  const option = (name: string) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined)
  const latencyMs = Number(option('--latency') ?? 100)
  const sandbox = await startSandbox(ephemeralSandboxOptions())
  const store = openStore({ DATA_DIR: ':memory:' })
  const settings = { DATA_DIR: ':memory:', ...sandbox.serviceSettings, RATE_LIMIT_SCANNER_BURST: '100000' }
  const service = () => {
    const ctx = createContext(loadConfig(settings), {
      logger: pino({ level: 'silent' }),
      payments: WAIVED_PAYMENTS,
      store,
    })
    return { ctx, app: createApp(ctx) }
  }
  const ingesting = service()
  const ingester = startLaunchIngester(ingesting.ctx)!
  await ingester.ready
  for (let i = 0; i < 60; i++) await sandbox.ticker.step(20)
  await Bun.sleep(500)
  const mintOf = (name: string) => sandbox.file.scenarios.find((scenario) => scenario.name === name)!.mint
  const trader = sandbox.file.scenarios
    .flatMap((scenario) => scenario.wallets)
    .find((w) => w.role === 'profitable-trader')!
  const calls: [string, Record<string, unknown>][] = [
    ['/exit/check', { token_address: mintOf('blue-chip') }],
    ['/exit/cross-check', { token_address: mintOf('blue-chip') }],
    ['/wallet/intel', { wallet_address: trader.address }],
    ['/scan/trending', { interval: '24h', limit: 10 }],
    ['/signal/radar', { interval: '24h' }],
    ['/launch/radar', {}],
    ['/graduation/radar', { min_progress_pct: 30 }],
    ['/graduation/momentum', { min_progress_pct: 30 }],
    ['/scan/smart-money', { interval: '24h' }],
    ['/news/pulse', {}],
    ['/news/pulse', { symbol: 'BNDL' }],
    ['/news/brief', { symbol: 'BLUE' }],
    ['/news/pulse_plus', { symbol: 'BNDL' }],
    ['/news/report', { symbol: 'LEGIT' }],
    ['/trade/suggest', { source: 'signal', interval: '24h' }],
    ['/trade/suggest', { source: 'both' }],
  ]
  sandbox.faults.latencyMs = latencyMs
  console.log(
    `\nbench catalogue: ${latencyMs} ms added to every upstream answer; cold = a fresh service, warm = the same again`,
  )
  console.log(
    'route                   status   cold ms   warm ms   rpc  dex  jup  lifi news model   (calls, cold)   model tokens in/out',
  )
  for (const [path, body] of calls) {
    const { app } = service()
    const before = SERVERS.map((server) => sandbox.faults.countOf(server))
    const cold = await timed(() => app.handle(scanRequest(path, body)))
    const used = SERVERS.map((server, i) => sandbox.faults.countOf(server) - before[i]!)
    const warm = await timed(() => app.handle(scanRequest(path, body)))
    console.log(
      `${path.padEnd(24)}${String(cold.status).padStart(6)}${String(cold.ms).padStart(10)}${String(warm.ms).padStart(10)}   ${used.map((count) => String(count).padStart(3)).join('  ')}${cold.tokens ? `   ${cold.tokens}` : ''}`,
    )
  }
  await ingester.stop()
  await sandbox.stop()
}

async function timed(call: () => Promise<Response>): Promise<{ status: number; ms: number; tokens?: string }> {
  const started = performance.now()
  const response = await call()
  const body = (await response.json()) as { model?: { prompt_tokens: number | null; completion_tokens: number | null } }
  const ms = Math.round(performance.now() - started)
  // The written /news answers name their model's usage.
  const tokens = body.model ? `${body.model.prompt_tokens}/${body.model.completion_tokens}` : undefined
  return { status: response.status, ms, ...(tokens ? { tokens } : {}) }
}
