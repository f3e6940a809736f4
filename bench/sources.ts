/**
 * The data layer's cost per scanner fact set: upstream calls, the critical-path depth (dependent round
 * trips) and wall time, against the sandbox with an injected latency on every upstream answer.
 * Fresh sources for each token, so nothing is served from cache.
 *
 * Run once per RPC provider profile: `open` (a dedicated node) and `public` (Solana's public
 * endpoint: the secondary-index methods refused, 100 calls / 40 per method per 10 s, the service
 * pacing itself to them). The scans run one after another on one provider account, as on one instance:
 * on the public profile, once a window's calls are spent the next scan waits for it to move.
 *
 *   npm run bench -- sources [--latency 100] [--profile open|public]
 */
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import type { SandboxRpcProfileName } from '../sandbox/rpc/profiles.ts'
import { RPC_PROVIDERS } from '../src/sources/rpc-providers.ts'
import { createTokenContext, type FactName } from '../src/facts/index.ts'
import { DexScreenerSource } from '../src/sources/dexscreener.ts'
import { JupiterSource } from '../src/sources/jupiter.ts'
import { pacerFor, SolanaSource } from '../src/sources/solana-rpc.ts'
import { manifest as deepDive } from '../plugins/deep-dive/manifest.ts'
import { manifest as quickScan } from '../plugins/quick-scan/manifest.ts'

const QUICK: FactName[] = ['mint', 'metadata', 'token_list', 'holders', 'pools', 'launchpad', 'market']

/** Fact sets by scanner (targets: quick ≤ 3 dependent round trips and ≤ 10 calls; deep ≤ 7 round trips). */
const FACT_SETS: Record<string, FactName[]> = {
  quick_scan: QUICK,
  deep_dive: [...QUICK, 'launch', 'dev_history', 'funding', 'trades', 'lp_locks'],
}
/** Each scanner's facts deadline, from its manifest. */
const DEADLINE_MS: Record<string, number> = {
  quick_scan: quickScan.routes.scan.deadlineMs,
  deep_dive: deepDive.routes.scan.deadlineMs,
}

export async function run(args: string[]): Promise<void> {
  const option = (name: string) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined)
  const latencyMs = Number(option('--latency') ?? 100)
  const profiles = (option('--profile') ? [option('--profile')] : ['open', 'public']) as SandboxRpcProfileName[]
  for (const profile of profiles) await runProfile(profile, latencyMs)
}

async function runProfile(profile: SandboxRpcProfileName, latencyMs: number): Promise<void> {
  const sandbox = await startSandbox(ephemeralSandboxOptions({ rpcProfile: profile }))
  sandbox.faults.latencyMs = latencyMs
  const provider = profile === 'public' ? RPC_PROVIDERS.public : RPC_PROVIDERS.unlimited
  // One provider account (one IP) for the whole run, as one instance has: the scans share its limits.
  const pacer = pacerFor(provider)
  console.log(
    `\nbench sources, RPC profile ${profile} (${provider.label}): ${latencyMs} ms added to every upstream answer; fresh caches per token`,
  )
  for (const [set, facts] of Object.entries(FACT_SETS)) {
    console.log(`\n${set} facts: ${facts.join(', ')}`)
    console.log('token                   calls  rpc  dex  jup  depth  wall ms  missing')
    for (const scenario of sandbox.file.scenarios) {
      // A fresh source per token (an empty cache), pacing on the run's shared account.
      const sources = {
        solana: new SolanaSource({ url: sandbox.file.urls.rpc, provider, pacer }),
        dexscreener: new DexScreenerSource({ baseUrl: sandbox.file.urls.dexscreener }),
        jupiter: new JupiterSource({ baseUrl: sandbox.file.urls.jupiter }),
      }
      const ctx = createTokenContext(scenario.mint, sources, Date.now() + DEADLINE_MS[set]!)
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
  if (sandbox.rpcProfile.throttled > 0) console.log(`  the endpoint answered 429 ${sandbox.rpcProfile.throttled} times`)
  await sandbox.stop()
}
