/**
 * The data layer's cost per scanner fact set: upstream calls, the critical-path depth (dependent round
 * trips) and wall time, against the sandbox with an injected latency on every upstream answer.
 * Fresh sources for each token, so nothing is served from cache.
 *
 *   npm run bench -- sources [--latency 100]
 */
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { createTokenContext, type FactName } from '../src/facts/index.ts'
import { DexScreenerSource } from '../src/sources/dexscreener.ts'
import { JupiterSource } from '../src/sources/jupiter.ts'
import { SolanaSource } from '../src/sources/solana-rpc.ts'

const QUICK: FactName[] = ['mint', 'metadata', 'token_list', 'holders', 'pools', 'launchpad', 'market']

/** Fact sets by scanner (targets: quick ≤ 3 dependent round trips and ≤ 10 calls; deep ≤ 6 round trips). */
const FACT_SETS: Record<string, FactName[]> = {
  quick_scan: QUICK,
  deep_dive: [...QUICK, 'launch', 'dev_history', 'funding', 'trades', 'lp_locks'],
}

export async function run(args: string[]): Promise<void> {
  const index = args.indexOf('--latency')
  const latencyMs = index >= 0 ? Number(args[index + 1]) : 100
  const sandbox = await startSandbox(ephemeralSandboxOptions())
  sandbox.faults.latencyMs = latencyMs
  console.log(`bench sources: ${latencyMs} ms added to every upstream answer; fresh caches per token`)
  for (const [set, facts] of Object.entries(FACT_SETS)) {
    console.log(`\n${set} facts: ${facts.join(', ')}`)
    console.log('token                   calls  rpc  dex  jup  depth  wall ms  missing')
    for (const scenario of sandbox.file.scenarios) {
      const sources = {
        solana: new SolanaSource({ url: sandbox.file.urls.rpc }),
        dexscreener: new DexScreenerSource({ baseUrl: sandbox.file.urls.dexscreener }),
        jupiter: new JupiterSource({ baseUrl: sandbox.file.urls.jupiter }),
      }
      const ctx = createTokenContext(scenario.mint, sources, Date.now() + 10_000)
      const started = performance.now()
      await ctx.gather(facts)
      const wall = performance.now() - started
      ctx.close()
      const calls = ctx.meter.toJSON()
      console.log(
        `${scenario.name.padEnd(22)} ${String(ctx.meter.total()).padStart(6)} ${String(calls.solana_rpc ?? 0).padStart(4)} ${String(calls.dexscreener ?? 0).padStart(4)} ${String(calls.jupiter ?? 0).padStart(4)} ${String(ctx.meter.depth()).padStart(6)} ${wall.toFixed(0).padStart(8)}  ${
          ctx
            .missing()
            .map((entry) => entry.name)
            .join(',') || '-'
        }`,
      )
    }
  }
  await sandbox.stop()
}
