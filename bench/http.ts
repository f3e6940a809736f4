/**
 * HTTP overhead of the core: requests/s and p50/p99 latency of GET /health and of the INVALID_ADDRESS
 * path (POST with a ticker instead of a mint), for solsentry and for a bare Bun.serve answering the
 * same JSON, in the same run. (No longer a target since issue 29: the speed issue measures CPU per request; docs/benchmarks.md.)
 *
 *   npm run bench -- http [--duration 5] [--concurrency 32]
 */
import { join } from 'node:path'
import { type LoadResult, load, numberOption, startTarget, wrkLoad } from './load.ts'

export async function run(args: string[]): Promise<void> {
  const option = (name: string, fallback: number) => numberOption(args, name, fallback)
  const durationMs = option('duration', 5) * 1000
  const concurrency = option('concurrency', 32)
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
    { name: 'bare Bun.serve', script: join(import.meta.dir, 'targets/bare.ts') },
    // The framework's floor: Elysia with the core's hook set, each hook doing the least it can.
    { name: 'Elysia floor', script: join(import.meta.dir, 'targets/elysia-floor.ts') },
  ]

  const generator = Bun.which('wrk')
    ? 'wrk (1 thread, its own process)'
    : 'fetch in the bench process (install wrk for a generator outside the runtime)'
  console.log(
    `bench http: ${durationMs / 1000} s per cell, ${concurrency} concurrent connections, Bun ${Bun.version}; load: ${generator}`,
  )
  const results = new Map<string, LoadResult & { cpuUsPerRequest: number }>()
  // Each (target, scenario) cell gets its own process, so its CPU time divides by its own requests.
  for (const scenario of scenarios)
    for (const target of targets) {
      const server = await startTarget(target.script)
      const options = { ...scenario, url: server.url + scenario.path, concurrency }
      // wrk when installed (a load generator outside the server's runtime), else fetch from this process.
      const measure = async (ms: number) =>
        (await wrkLoad({ ...options, durationMs: ms })) ?? load({ ...options, durationMs: ms })
      const warmup = await measure(1000) // JIT, connection pool
      const result = await measure(durationMs)
      const cpuUs = await server.stop()
      const cpuUsPerRequest = cpuUs / (warmup.requests + result.requests)
      results.set(`${target.name}|${scenario.name}`, { ...result, cpuUsPerRequest })
      if (result.unexpected > 0) console.log(`  warning: ${result.unexpected} unexpected statuses from ${target.name}`)
    }

  const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(9)
  console.log('')
  console.log('scenario                 target             req/s    p50 ms    p99 ms  server CPU µs/req')
  for (const scenario of scenarios)
    for (const target of targets) {
      const r = results.get(`${target.name}|${scenario.name}`)!
      console.log(
        `${scenario.name.padEnd(24)} ${target.name.padEnd(15)} ${fmt(r.rps)} ${fmt(r.p50Ms, 2)} ${fmt(r.p99Ms, 2)} ${fmt(r.cpuUsPerRequest, 1)}`,
      )
    }
  console.log('')
  for (const scenario of scenarios) {
    const ours = results.get(`solsentry|${scenario.name}`)!
    const bare = results.get(`bare Bun.serve|${scenario.name}`)!
    const floor = results.get(`Elysia floor|${scenario.name}`)!
    const ratio = ours.rps / bare.rps
    console.log(
      `${scenario.name.padEnd(24)} throughput solsentry / bare = ${(ratio * 100).toFixed(1)}% ` +
        `(target ≥ 60%: ${ratio >= 0.6 ? 'met' : 'NOT met'}); server CPU per request ×${(ours.cpuUsPerRequest / bare.cpuUsPerRequest).toFixed(2)}; ` +
        `Elysia floor / bare = ${((floor.rps / bare.rps) * 100).toFixed(1)}%`,
    )
  }
  console.log('The load generator runs on the same machine; on 2 cores it competes with the server for CPU.')
}
