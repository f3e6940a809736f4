/**
 * The x402 gate's cost. (1) 402-challenge throughput and latency of POST /scan/quick without payment,
 * for solsentry (the whole service) and for the official @x402/hono middleware serving the same offer
 * with the same extensions (bazaar, payment-identifier, sign-in-with-x: bench/targets/hono-x402.ts) on
 * Bun, in the same run, each in its own process; each challenge's size is printed. (2) What a paid call adds beyond the facilitator:
 * sequential paid quick scans (official v2 client, warm scan caches) against the facilitator's own
 * verify + settle time for equal payments.
 *
 *   npm run bench -- payments [--duration 5] [--concurrency 32] [--paid 30]
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { PaymentRequired } from '@x402/core/types'
import { demoPayer } from '../sandbox/demo-client.ts'
import { FacilitatorClient } from '../src/payments/facilitator.ts'
import type { PaymentV2 } from '../src/payments/payment-header.ts'
import { type BenchContext, type Figure, sandboxOf } from './figures.ts'
import { type LoadResult, load, numberOption, startTarget, wrkLoad } from './load.ts'

export async function run(args: string[], context: BenchContext = {}): Promise<Figure[]> {
  const out = context.out ?? console.log
  const option = (name: string, fallback: number) => numberOption(args, name, fallback)
  const durationMs = option('duration', 5) * 1000
  const concurrency = option('concurrency', 32)
  const paidCalls = option('paid', 30)
  const { sandbox, release } = await sandboxOf(context)
  const mint = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
  const env = { ...sandbox.serviceSettings, LOG_LEVEL: 'silent', BENCH_APP: 'service' }
  const body = JSON.stringify({ token_address: mint })

  const generator = Bun.which('wrk') ? 'wrk (1 thread, its own process)' : 'fetch in the bench process (install wrk)'
  out(
    `bench payments: ${durationMs / 1000} s per target, ${concurrency} concurrent connections, Bun ${Bun.version}; load: ${generator}`,
  )
  const targets = [
    { name: 'solsentry', script: join(import.meta.dir, 'targets/solsentry.ts') },
    { name: '@x402/hono', script: join(import.meta.dir, 'targets/hono-x402.ts') },
  ]
  const results = new Map<string, LoadResult & { cpuUsPerRequest: number }>()
  /** Each target's challenge extensions: the comparison is like for like only when they are the same. */
  const offers = new Map<string, string>()
  for (const target of targets) {
    const server = await startTarget(target.script, env)
    const options = { url: `${server.url}/scan/quick`, method: 'POST' as const, body, expectStatus: 402, concurrency }
    const sample = await fetch(options.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    const header = sample.headers.get('payment-required') ?? ''
    const json = Buffer.from(header, 'base64').toString()
    const required = JSON.parse(json || '{}') as PaymentRequired
    const offered = required.accepts ?? []
    const extensions = Object.keys(required.extensions ?? {}).sort()
    offers.set(target.name, extensions.join(', '))
    out(`  ${target.name} offers: ${offered.map((offer) => `${offer.network} ${offer.amount}`).join(', ')}`)
    out(
      `  ${target.name} challenge: ${Buffer.byteLength(json)} bytes of JSON (${header.length} in base64), extensions: ${extensions.join(', ') || 'none'}`,
    )
    // wrk when installed (a load generator outside the servers' runtime), else fetch from this process.
    const measure = async (ms: number) =>
      (await wrkLoad({ ...options, durationMs: ms })) ?? load({ ...options, durationMs: ms })
    const warmup = await measure(1000)
    const before = cpuOf(server.pid)
    const result = await measure(durationMs)
    const after = cpuOf(server.pid)
    const cpuUs = await server.stop()
    // The measured run's CPU where /proc tells it; else the process's whole life (its start-up included).
    const cpuUsPerRequest =
      before !== undefined && after !== undefined
        ? (after - before) / result.requests
        : cpuUs / (warmup.requests + result.requests)
    results.set(target.name, { ...result, cpuUsPerRequest })
    if (result.unexpected > 0) out(`  warning: ${result.unexpected} answers other than 402 from ${target.name}`)
  }
  const [ourExtensions, theirExtensions] = [...offers.values()]
  out(
    ourExtensions === theirExtensions
      ? `  both offer the same extensions in their 402 (${ourExtensions})`
      : `  warning: the targets offer different extensions (${[...offers].map(([name, keys]) => `${name}: ${keys}`).join('; ')})`,
  )
  const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(9)
  if (cpuOf(process.pid) !== undefined)
    out('  server CPU: the target process’s, over the measured run only (/proc), per request')
  out('\n402 challenge            req/s    p50 ms    p99 ms  server CPU µs/req')
  for (const [name, r] of results)
    out(`${name.padEnd(18)} ${fmt(r.rps)} ${fmt(r.p50Ms, 2)} ${fmt(r.p99Ms, 2)} ${fmt(r.cpuUsPerRequest, 1)}`)
  const ratio = results.get('solsentry')!.rps / results.get('@x402/hono')!.rps
  out(`throughput ratio solsentry / @x402/hono: ${(ratio * 100).toFixed(1)}%`)

  // (2) Paid calls, one at a time, against the facilitator's own time for equal payments.
  const { client } = await demoPayer(sandbox.file, 'solana')
  const service = await startTarget(targets[0]!.script, env)
  const url = `${service.url}/scan/quick`
  const post = (headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })
  const challenge = await post()
  const required = JSON.parse(
    Buffer.from(challenge.headers.get('payment-required')!, 'base64').toString(),
  ) as PaymentRequired
  const encode = async () => Buffer.from(JSON.stringify(await client.createPaymentPayload(required))).toString('base64')
  const paid: number[] = []
  for (let i = 0; i < paidCalls + 1; i++) {
    const header = await encode()
    const started = performance.now()
    const response = await post({ 'payment-signature': header })
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`a paid call answered ${response.status}`)
    if (i > 0) paid.push(performance.now() - started) // the first warms the scan caches
  }
  await service.stop()
  const facilitator = new FacilitatorClient({ url: sandbox.file.urls.facilitator })
  const facilitatorMs: number[] = []
  for (let i = 0; i < paidCalls; i++) {
    const payment = await client.createPaymentPayload(required)
    const started = performance.now()
    await facilitator.verify(payment as PaymentV2, payment.accepted)
    await facilitator.settle(payment as PaymentV2, payment.accepted)
    facilitatorMs.push(performance.now() - started)
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  out(`\npaid quick scans, one at a time (${paidCalls}, warm scan caches): p50 ${median(paid).toFixed(1)} ms`)
  out(`facilitator verify + settle for equal payments: p50 ${median(facilitatorMs).toFixed(1)} ms`)
  out(`added by solsentry (gate, ledger, the warm scan, HTTP): ${(median(paid) - median(facilitatorMs)).toFixed(1)} ms`)
  await release()
  const ours = results.get('solsentry')!
  const hono = results.get('@x402/hono')!
  return [
    { name: '402: CPU per challenge', value: ours.cpuUsPerRequest, unit: 'µs', better: 'lower' },
    {
      name: '402: CPU per challenge / @x402/hono',
      value: ours.cpuUsPerRequest / hono.cpuUsPerRequest,
      unit: '×',
      better: 'lower',
      target: 1,
    },
    // Two 3 s wrk runs on two shared cores: 199–330% in consecutive quiet runs; its target is what holds it.
    { name: '402: throughput / @x402/hono', value: ratio * 100, unit: '%', better: 'higher', target: 100, slack: 100 },
    {
      name: 'paid quick scan added beyond the facilitator',
      value: median(paid) - median(facilitatorMs),
      unit: 'ms',
      better: 'lower',
      slack: 2,
    },
  ]
}

/** Clock ticks per second of /proc's CPU times. */
const CLOCK_TICKS = Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim()) || 100

/** A process's CPU time so far (user + system, µs) from /proc, or undefined where there is none. */
function cpuOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS
  } catch {
    return undefined
  }
}
