/**
 * The scanners end to end over the service's HTTP layer, on the sandbox with an injected latency on
 * every upstream answer, cold caches: per scanner and scenario, the wall time, the upstream calls (HTTP
 * requests the sandbox received) and the dependent round trips — the critical path of the call graph
 * the sandbox records (sandbox/call-log.ts), a count, not a time; then the throughput of repeated
 * quick scans of one token (warm caches).
 *
 *   npm run bench -- scanners [--latency 100] [--repeat 2000]
 */
import { scanRequest, waivedService } from '../test/support/service.ts'
import { tracedScan } from '../test/support/round-trips.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { numberOption } from './load.ts'

const SCANNERS = [
  { route: '/scan/quick', name: 'quick scan', targetMs: 5_000 },
  { route: '/market/intel', name: 'market intel', targetMs: 10_000 },
  { route: '/scan/deep', name: 'deep dive', targetMs: 30_000 },
]

export async function run(args: string[]): Promise<void> {
  const option = (name: string, fallback: number) => numberOption(args, name, fallback)
  const latencyMs = option('latency', 100)
  const repeat = option('repeat', 2000)
  const sandbox = await startSandbox(ephemeralSandboxOptions())
  const service = () =>
    waivedService({
      ...sandbox.serviceSettings,
      RATE_LIMIT_SCANNER_BURST: '1000000',
      RATE_LIMIT_SCANNER_PER_MINUTE: '1000000',
    })
  const post = (app: ReturnType<typeof service>, route: string, mint: string) =>
    app.handle(scanRequest(route, { token_address: mint }))

  sandbox.faults.latencyMs = latencyMs
  console.log(
    `bench scanners: ${latencyMs} ms added to every upstream answer; a fresh service (cold caches) per call; round trips: the critical path of the calls the sandbox received`,
  )
  console.log('\nscanner        scenario               status  wall ms  upstream calls  round trips  quality')
  const mounted = service()
  for (const scanner of SCANNERS) {
    const probe = await post(mounted, scanner.route, sandbox.file.scenarios[0]!.mint)
    if (probe.status === 404) {
      console.log(`${scanner.name.padEnd(14)} (not built yet)`)
      continue
    }
    const walls: number[] = []
    const trips: number[] = []
    for (const scenario of sandbox.file.scenarios) {
      const app = service()
      const started = performance.now()
      const { status, body, calls, path } = await tracedScan(sandbox, app, scanner.route, scenario.mint)
      const wall = performance.now() - started
      walls.push(wall)
      trips.push(path.length)
      console.log(
        `${scanner.name.padEnd(14)} ${scenario.name.padEnd(22)} ${String(status).padStart(6)} ${wall.toFixed(0).padStart(8)} ${String(calls.length).padStart(15)} ${String(path.length).padStart(12)}  ${body.data_quality ?? '-'}${wall > scanner.targetMs ? '  (over target)' : ''}`,
      )
    }
    console.log(
      `${scanner.name.padEnd(14)} all: round trips ${Math.min(...trips)}–${Math.max(...trips)}, wall ${Math.min(...walls).toFixed(0)}–${Math.max(...walls).toFixed(0)} ms\n`,
    )
  }
  sandbox.faults.latencyMs = 0

  const warm = service()
  const mint = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
  await post(warm, '/scan/quick', mint)
  const started = performance.now()
  let served = 0
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (served < repeat) {
        served++
        await (await post(warm, '/scan/quick', mint)).arrayBuffer()
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  console.log(
    `\nrepeated quick scans of one token (warm caches, in-process, 16 concurrent): ${(repeat / seconds).toFixed(0)} scans/s`,
  )
  await sandbox.stop()
}
