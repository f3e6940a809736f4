/**
 * `POST /scan/quick/batch` end to end over the service's HTTP layer, on the sandbox: a batch of 50
 * distinct mints (the scenarios' and bare mints the bench creates) on a fresh service (cold caches),
 * with no added latency and with `--latency` ms added to every upstream answer; the wall time, the
 * items answered, their data quality beside the same mints scanned one by one by `/scan/quick`, and
 * the same batch again on the warm service; then with the service pacing its RPC calls as for a keyed
 * provider's lowest plan (SOLANA_RPC_PROVIDER=keyed: 10 calls a second, src/sources/rpc-providers.ts).
 *
 *   npm run bench -- batch [--latency 100] [--mints 50]
 */
import { batchCapacity } from '../plugins/quick-scan-batch/service.ts'
import { RPC_PROVIDERS } from '../src/sources/rpc-providers.ts'
import { scanRequest, waivedService } from '../test/support/service.ts'
import { type BenchContext, type Figure, sandboxOf } from './figures.ts'
import { numberOption } from './load.ts'

/** The spec's quick-scan target, which a batch is measured against (docs/catalogue.md, "Batch scans"). */
const QUICK_TARGET_MS = 5_000

export async function run(args: string[], context: BenchContext = {}): Promise<Figure[]> {
  const out = context.out ?? console.log
  const latencyMs = numberOption(args, 'latency', 100)
  const size = numberOption(args, 'mints', 50)
  const { sandbox, release } = await sandboxOf(context)
  const service = (provider?: string) =>
    waivedService({
      ...sandbox.serviceSettings,
      RATE_LIMIT_SCANNER_BURST: '1000000',
      RATE_LIMIT_SCANNER_PER_MINUTE: '1000000',
      ...(provider ? { SOLANA_RPC_PROVIDER: provider } : {}),
    })
  const mints = await batchMints(sandbox, size)
  const figures: Figure[] = []
  out(`bench batch: ${mints.length} distinct mints (${sandbox.file.scenarios.length} scenarios, the rest bare mints)`)
  out('\nlatency  service  status  wall ms  answered  quality (FULL/PARTIAL/LIMITED)  same quality as one by one')
  for (const [added, provider] of [
    [0, undefined],
    [latencyMs, undefined],
    [0, 'keyed'],
  ] as const) {
    sandbox.faults.latencyMs = added
    const app = service(provider)
    // A paced provider's service takes fewer per batch (plugins/quick-scan-batch/service.ts batchCapacity).
    const sent = provider
      ? mints.slice(0, batchCapacity({ sources: { solana: { provider: RPC_PROVIDERS[provider] } } } as never))
      : mints
    const batch = async () => {
      const started = performance.now()
      const response = await app.handle(scanRequest('/scan/quick/batch', { token_addresses: sent }))
      const body = (await response.json()) as BatchBody
      return { status: response.status, body, wall: performance.now() - started }
    }
    const cold = await batch()
    const warm = await batch()
    // The same mints one by one, on another fresh service: what the single route answers at this latency.
    const single = service(provider)
    const alone = new Map<string, string>()
    for (const mint of sent) {
      const response = await single.handle(scanRequest('/scan/quick', { token_address: mint }))
      alone.set(mint, ((await response.json()) as { data_quality: string }).data_quality)
    }
    for (const [label, run] of [
      ['cold', cold],
      ['warm', warm],
    ] as const) {
      const items = run.body.results ?? []
      const qualities = ['FULL', 'PARTIAL', 'LIMITED'].map(
        (quality) => items.filter((item) => item.scan?.data_quality === quality).length,
      )
      const same = items.filter((item) => item.scan && alone.get(item.token_address) === item.scan.data_quality).length
      out(
        `${`${added} ms`.padStart(7)}  ${`${label}${provider ? ` (${provider})` : ''}`.padEnd(7)} ${String(run.status).padStart(6)} ${run.wall.toFixed(0).padStart(8)} ${`${run.body.answered ?? 0}/${sent.length}`.padStart(9)}  ${qualities.join('/').padStart(30)}  ${same}/${items.length}${run.wall > QUICK_TARGET_MS ? '  (over the quick scan’s 5 s)' : ''}`,
      )
    }
    figures.push({
      name: `batch of ${sent.length}: cold wall at ${added} ms per answer${provider ? `, ${provider} RPC` : ''}`,
      value: cold.wall,
      unit: 'ms',
      better: 'lower',
      slack: Math.max(added, 250),
    })
  }
  sandbox.faults.latencyMs = 0
  await release()
  return figures
}

interface BatchBody {
  answered?: number
  results?: { token_address: string; scan?: { data_quality: string } }[]
}

/** `size` distinct mints: the scenarios', then bare mints made for the bench (no pool, no holders but one). */
async function batchMints(sandbox: Awaited<ReturnType<typeof sandboxOf>>['sandbox'], size: number): Promise<string[]> {
  const mints = sandbox.file.scenarios.map((scenario) => scenario.mint).slice(0, size)
  const authority = await sandbox.world.wallet('bench-batch:authority', 5)
  for (let index = mints.length; index < size; index++) {
    const mint = await sandbox.world.createMint(
      {
        key: `bench-batch:${index}`,
        name: `Bench ${index}`,
        symbol: `BB${index}`,
        decimals: 6,
        mintAuthority: authority,
      },
      authority,
    )
    await sandbox.world.mintTo(mint, authority.address, 1_000_000n, authority)
    mints.push(mint)
  }
  return mints
}
