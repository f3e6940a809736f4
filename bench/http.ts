/**
 * HTTP overhead of the core: requests/s, p50/p99 latency and the server's CPU per request of GET /health
 * and of the INVALID_ADDRESS path (POST with a ticker instead of a mint), for solsentry, a bare Bun.serve
 * answering the same JSON, and the Elysia floor (Elysia with the core's hook set), in the same run.
 * The targets (issue 30): CPU per request at most 1.5× the floor's for /health and 1.3× for the refusal
 * (docs/benchmarks.md). Two CPU figures: all the process used over all requests (start-up and warm-up
 * included: a process that loads more code pays more of it per request when fewer requests are served),
 * and the steady state, the CPU of the measured seconds alone (Linux's /proc) — what a request costs.
 *
 * `--runtime deno` runs the three servers on Deno 2 (the same scripts, through src/runtime/: the bare
 * server is Deno.serve, the floor Elysia's web-standard handler on it); the load comes from Bun as always.
 *
 *   npm run bench -- http [--duration 5] [--concurrency 32] [--runtime bun|deno]
 */
import { join } from 'node:path'
import { denoBinary, denoMissing, denoServiceCommand } from '../sandbox/deno.ts'
import type { BenchContext, Figure } from './figures.ts'
import { type LoadResult, load, numberOption, processCpuUs, startTarget, wrkLoad } from './load.ts'

/** The issue's targets: the service's CPU per request against the Elysia floor's, per scenario. */
const TARGET_OVER_FLOOR: Record<string, number> = { 'GET /health': 1.5, 'POST INVALID_ADDRESS': 1.3 }

export async function run(args: string[], context: BenchContext = {}): Promise<Figure[]> {
  const out = context.out ?? console.log
  const option = (name: string, fallback: number) => numberOption(args, name, fallback)
  const durationMs = option('duration', 5) * 1000
  const concurrency = option('concurrency', 32)
  const runtime = args.includes('--runtime') ? args[args.indexOf('--runtime') + 1] : 'bun'
  if (runtime !== 'bun' && runtime !== 'deno') throw new Error(`--runtime must be bun or deno (not ${runtime})`)
  if (runtime === 'deno' && denoMissing) throw new Error(`--runtime deno: ${denoMissing}`)
  const onDeno = runtime === 'deno'
  const commandOf = (script: string) => (onDeno ? denoServiceCommand(denoBinary()!, script) : undefined)
  const scenarios = [
    { name: 'GET /health', method: 'GET' as const, path: '/health', expectStatus: 200 },
    {
      name: 'POST INVALID_ADDRESS',
      method: 'POST' as const,
      path: '/fixture/scan',
      body: JSON.stringify({ token_address: 'BONK' }),
      expectStatus: 400,
    },
  ]
  const targets = [
    { name: 'solsentry', script: join(import.meta.dir, 'targets/solsentry.ts') },
    { name: onDeno ? 'bare Deno.serve' : 'bare Bun.serve', script: join(import.meta.dir, 'targets/bare.ts') },
    // The framework's floor: Elysia with the core's hook set, each hook doing the least it can.
    { name: 'Elysia floor', script: join(import.meta.dir, 'targets/elysia-floor.ts') },
  ]

  const generator = Bun.which('wrk')
    ? 'wrk (1 thread, its own process)'
    : 'fetch in the bench process (install wrk for a generator outside the runtime)'
  out(
    `bench http: ${durationMs / 1000} s per cell, ${concurrency} concurrent connections, servers on ${onDeno ? runtimeOf(denoBinary()!) : `Bun ${Bun.version}`}; load: ${generator}`,
  )
  const results = new Map<string, LoadResult & { cpuUsPerRequest: number; steadyUsPerRequest: number }>()
  // Each (target, scenario) cell gets its own process, so its CPU time divides by its own requests.
  for (const scenario of scenarios)
    for (const target of targets) {
      const server = await startTarget(target.script, {}, commandOf(target.script))
      const options = { ...scenario, url: server.url + scenario.path, concurrency }
      // wrk when installed (a load generator outside the server's runtime), else fetch from this process.
      const measure = async (ms: number) =>
        (await wrkLoad({ ...options, durationMs: ms })) ?? load({ ...options, durationMs: ms })
      const warmup = await measure(1000) // JIT, connection pool
      const before = await processCpuUs(server.pid)
      const result = await measure(durationMs)
      const after = await processCpuUs(server.pid)
      const cpuUs = await server.stop()
      const cpuUsPerRequest = cpuUs / (warmup.requests + result.requests)
      const steadyUsPerRequest = before === undefined || after === undefined ? NaN : (after - before) / result.requests
      results.set(`${target.name}|${scenario.name}`, { ...result, cpuUsPerRequest, steadyUsPerRequest })
      if (result.unexpected > 0) out(`  warning: ${result.unexpected} unexpected statuses from ${target.name}`)
    }

  const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(9)
  out('')
  out('scenario                 target             req/s    p50 ms    p99 ms  CPU µs/req (all)  CPU µs/req (steady)')
  for (const scenario of scenarios)
    for (const target of targets) {
      const r = results.get(`${target.name}|${scenario.name}`)!
      out(
        `${scenario.name.padEnd(24)} ${target.name.padEnd(15)} ${fmt(r.rps)} ${fmt(r.p50Ms, 2)} ${fmt(r.p99Ms, 2)} ${fmt(r.cpuUsPerRequest, 1).padStart(17)} ${fmt(r.steadyUsPerRequest, 1).padStart(20)}`,
      )
    }
  out('')
  const figures: Figure[] = []
  for (const scenario of scenarios) {
    const ours = results.get(`solsentry|${scenario.name}`)!
    const bare = results.get(`${targets[1]!.name}|${scenario.name}`)!
    const floor = results.get(`Elysia floor|${scenario.name}`)!
    const target = TARGET_OVER_FLOOR[scenario.name]!
    const all = ours.cpuUsPerRequest / floor.cpuUsPerRequest
    const steady = ours.steadyUsPerRequest / floor.steadyUsPerRequest
    const verdict = (ratio: number) => (ratio <= target ? 'met' : 'NOT met')
    out(
      `${scenario.name.padEnd(24)} CPU per request, solsentry / Elysia floor: ×${all.toFixed(2)} all (${verdict(all)}), ` +
        `×${steady.toFixed(2)} steady (${verdict(steady)}); target ≤ ×${target}. ` +
        `Throughput solsentry / bare ${((ours.rps / bare.rps) * 100).toFixed(1)}%, floor / bare ${((floor.rps / bare.rps) * 100).toFixed(1)}%`,
    )
    // The steady state where /proc tells it (what a request costs), else the whole life.
    const measured = Number.isNaN(steady) ? all : steady
    const perRequest = Number.isNaN(steady) ? ours.cpuUsPerRequest : ours.steadyUsPerRequest
    // Deno's figures are named apart: the guard's baseline holds Bun's.
    const prefix = onDeno ? 'on Deno, ' : ''
    figures.push(
      { name: `${prefix}${scenario.name}: CPU per request`, value: perRequest, unit: 'µs', better: 'lower' },
      { name: `${prefix}${scenario.name}: CPU / Elysia floor`, value: measured, unit: '×', better: 'lower', target },
    )
  }
  out('The load generator runs on the same machine; on 2 cores it competes with the server for CPU.')
  return figures
}

/** `deno 2.9.6`: the first line of `deno --version`. */
function runtimeOf(deno: string): string {
  const printed = Bun.spawnSync([deno, '--version']).stdout.toString()
  return printed.split('\n')[0]?.replace(/ \(.*/, '') ?? 'deno'
}
