/**
 * The scanners end to end over the service's HTTP layer, on the sandbox with an injected latency on
 * every upstream answer: wall time and upstream calls (HTTP requests counted at the sandbox servers)
 * per scanner, cold caches; then the throughput of repeated quick scans of one token (warm caches).
 *
 *   npm run bench -- scanners [--latency 100] [--repeat 2000]
 */
import { scanRequest, waivedService } from '../test/support/service.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { numberOption } from './load.ts'

const SCANNERS = [
  { route: '/scan/quick', name: 'quick scan', targetMs: 5_000 },
  { route: '/market/intel', name: 'market intel', targetMs: 10_000 },
  { route: '/scan/deep', name: 'deep dive', targetMs: 30_000 },
]
const TOKENS = ['blue-chip', 'serial-rugger', 'pump-bonding', 'wash-traded']

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
  const mintOf = (name: string) => sandbox.file.scenarios.find((scenario) => scenario.name === name)!.mint
  const upstream = () => ['rpc', 'dexscreener', 'jupiter'].reduce((sum, key) => sum + sandbox.faults.countOf(key), 0)

  sandbox.faults.latencyMs = latencyMs
  console.log(`bench scanners: ${latencyMs} ms added to every upstream answer; a fresh service (cold caches) per call`)
  console.log('\nscanner        token             status  wall ms  upstream calls  quality')
  const mounted = service()
  for (const scanner of SCANNERS) {
    const probe = await post(mounted, scanner.route, mintOf('blue-chip'))
    if (probe.status === 404) {
      console.log(`${scanner.name.padEnd(14)} (not built yet)`)
      continue
    }
    for (const token of TOKENS) {
      const app = service()
      const before = upstream()
      const started = performance.now()
      const response = await post(app, scanner.route, mintOf(token))
      const wall = performance.now() - started
      const body = (await response.json()) as { data_quality?: string }
      console.log(
        `${scanner.name.padEnd(14)} ${token.padEnd(17)} ${String(response.status).padStart(6)} ${wall.toFixed(0).padStart(8)} ${String(upstream() - before).padStart(15)}  ${body.data_quality ?? '-'}${wall > scanner.targetMs ? '  (over target)' : ''}`,
      )
    }
  }
  sandbox.faults.latencyMs = 0

  const warm = service()
  const mint = mintOf('blue-chip')
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
