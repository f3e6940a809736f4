/**
 * The fuzz suite's generators at volume: `--requests` (default 10 000) generated requests for every
 * route, half to the service on the sandbox with payments waived (handlers run), half through the real
 * payment gate over HTTP; prints the status histogram, the slowest answer and every answer that breaks
 * the rules (never a 5xx but the catalogue's 503s, always the JSON error shape, no trace or path).
 *
 *   npm run bench -- fuzz [--requests 10000] [--seed 1]
 */
import fc from 'fast-check'
import { answerProblem, requestsFor, send } from '../test/support/fuzz-requests.ts'
import { waivedService } from '../test/support/service.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { createApp } from '../src/app.ts'
import { createContext } from '../src/context.ts'
import { loadConfig } from '../src/settings.ts'
import { startServer } from '../src/http/server.ts'
import pino from 'pino'

export async function run(args: string[]): Promise<void> {
  const option = (name: string) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined)
  const total = Number(option('--requests') ?? 10_000)
  const seed = Number(option('--seed') ?? Date.now() % 1_000_000)
  const sandbox = await startSandbox(ephemeralSandboxOptions())
  const settings = {
    ...sandbox.serviceSettings,
    RATE_LIMIT_SCANNER_BURST: '1000000',
    RATE_LIMIT_SCANNER_PER_MINUTE: '1000000',
  }
  const waived = waivedService(settings)
  const ctx = createContext(loadConfig({ ...settings, PORT: '0', DATA_DIR: ':memory:', LOG_LEVEL: 'silent' }), {
    logger: pino({ level: 'silent' }),
  })
  await ctx.payments.start()
  const running = startServer(createApp(ctx), ctx)
  const histogram = new Map<string, number>()
  const problems: string[] = []
  let slowest = { ms: 0, what: '' }
  const targets = [
    { name: 'waived', handle: (request: Request) => waived.handle(request), routes: waived.registry.routes() },
    {
      name: 'gate',
      handle: (request: Request) => {
        const url = new URL(request.url)
        return fetch(`${running.url}${url.pathname}${url.search}`, request)
      },
      routes: ctx.registry.routes(),
    },
  ]
  const started = performance.now()
  for (const [index, target] of targets.entries()) {
    const requests = fc.sample(requestsFor(target.routes), {
      numRuns: Math.ceil(total / targets.length),
      seed: seed + index,
    })
    // Eight at a time: the generators' volume, not a load test.
    for (let i = 0; i < requests.length; i += 8)
      await Promise.all(
        requests.slice(i, i + 8).map(async (request) => {
          const answer = await send(target.handle, request)
          const key = `${target.name} ${answer.status}`
          histogram.set(key, (histogram.get(key) ?? 0) + 1)
          if (answer.ms > slowest.ms) slowest = { ms: answer.ms, what: `${request.method} ${request.path}` }
          const problem = answerProblem(answer.status, answer.contentType, answer.text, request.path)
          if (problem) problems.push(`${target.name}: ${problem} — ${JSON.stringify(request).slice(0, 300)}`)
        }),
      )
  }
  const seconds = (performance.now() - started) / 1000
  console.log(`\nbench fuzz: ${total} generated requests (seed ${seed}) in ${seconds.toFixed(1)} s`)
  console.log('target  status  count')
  for (const [key, count] of [...histogram].sort()) {
    const [name, status] = key.split(' ')
    console.log(`${name!.padEnd(8)}${status!.padStart(6)}${String(count).padStart(7)}`)
  }
  const fivexx = [...histogram]
    .filter(([key]) => / 5\d\d$/.test(key) && !key.endsWith(' 503'))
    .reduce((sum, [, n]) => sum + n, 0)
  console.log(
    `5xx (other than the catalogue's 503): ${fivexx}; rule breaks: ${problems.length}; slowest: ${Math.round(slowest.ms)} ms (${slowest.what})`,
  )
  for (const problem of problems.slice(0, 20)) console.log(`  ${problem}`)
  await running.shutdown('bench over')
  await sandbox.stop()
}
