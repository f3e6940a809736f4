/**
 * Cost per scan for the operator: upstream calls per scan by provider and method, and what they cost
 * at published prices, for a realistic mix of scans — on one service instance, then on three
 * instances sharing one Redis (the upstream cache is shared through it, not per process).
 *
 *   npm run bench -- cost [--scans 5000] [--tokens 200] [--rate 60] [--concurrency 32] [--latency 100]
 *                         [--seed cost] [--per-scanner]
 *
 * The traffic: `--tokens` sandbox tokens — the 17 scenarios plus pump.fun coins the sandbox's launchpad
 * ticker creates at start (bonding curves with trades, some bundled, some filled until complete) —
 * ranked in a seeded shuffle and drawn with Zipf(1.1) popularity (the k-th token's weight 1/k^1.1);
 * each scan a quick scan (70%), market intel (20%) or deep dive (10%); the scans sent at a fixed rate
 * (`--rate` per second, at most `--concurrency` in flight). Everything is seeded: the same sequence,
 * at the same offsets from each run's start, in every run.
 *
 * The service runs as real processes (bench/targets/solsentry.ts: every plugin, payments waived), each
 * run on its own fresh redis-server with REDIS_URL: one instance; then three, the scans spread round
 * robin over them as a load balancer would. Calls are counted where a provider bills them — at the
 * sandbox's servers (each JSON-RPC call of a batch counted by its method, HTTP requests by path) — from
 * the first scan to the last answer. With `--per-scanner`, each scanner's own share of the sequence then
 * runs alone on one instance (three more runs of the same length): what each scanner costs on its own
 * traffic, beside its price; and each scanner's first 30 scans each on empty caches: the cost of a scan
 * that reuses nothing, which a quiet service approaches.
 *
 * About three minutes (the sandbox and its coins 10–17 s, each run ~85 s); with `--per-scanner` about
 * eight.
 *
 * Upstream answers carry `--latency` ms (default 100, as the other benches), which is what lets scans
 * of one token overlap. Calls per scan depend on the traffic's rate: account reads are reused for 5 to
 * 10 s and finalized transactions for a day (docs/data-layer.md), so a busier service pays less per scan.
 */
import { manifest as deepDive } from '../plugins/deep-dive/manifest.ts'
import { manifest as marketIntel } from '../plugins/market-intel/manifest.ts'
import { manifest as quickScan } from '../plugins/quick-scan/manifest.ts'
import { Random } from '../sandbox/scenarios/timeline.ts'
import { redisMissing, startRedis } from '../test/support/redis.ts'
import { scanRequest, waivedService } from '../test/support/service.ts'
import type { RunningSandbox } from '../sandbox/index.ts'
import { type BenchContext, type Figure, type Out, sandboxOf } from './figures.ts'
import { numberOption, startTarget } from './load.ts'

/** Where this run prints (the guard runs the bench quietly). */
let out: Out = console.log

// ---------------------------------------------------------------------------------------------------
// Published prices. Each figure from the page named beside it, as read on 2026-11-27 from the stored
// copies this repository's library holds (docs/benchmarks.md, "Cost per scan", says the same).
// ---------------------------------------------------------------------------------------------------

/**
 * A keyed Solana RPC: Helius. Credits per call — https://www.helius.dev/docs/billing/credits: "Standard
 * RPC Calls 1" (every call not listed), getProgramAccounts 10, and the historical ("archival") calls 10
 * each, among them getSignaturesForAddress and getTransaction. Plans on the same page: Free $0 / 1M
 * credits a month, Developer $49 / 10M, Business $499 / 100M, Professional $999 / 200M; additional
 * credits $5 per million on every plan (https://www.helius.dev/docs/billing/additional-credits).
 * Priced here at $5 per million credits: the marginal price, and within 2% of what the included
 * credits cost on each paid plan ($4.90–$5.00 per million).
 */
export const RPC_PLAN = {
  name: 'Helius (keyed RPC)',
  usdPerMillionCredits: 5,
  plans: [
    { name: 'Developer', usdPerMonth: 49, creditsPerMonth: 10_000_000 },
    { name: 'Business', usdPerMonth: 499, creditsPerMonth: 100_000_000 },
  ],
  credits(method: string): number {
    return RPC_CREDITS[method] ?? 1
  },
} as const
const RPC_CREDITS: Record<string, number> = {
  getProgramAccounts: 10,
  getSignaturesForAddress: 10,
  getTransaction: 10,
  getBlock: 10,
  getBlocks: 10,
  getBlocksWithLimit: 10,
  getBlockTime: 10,
  getInflationReward: 10,
}

/**
 * Jupiter's API plans — jup-ag/docs `portal/plans.mdx` at commit 1dda348d (2026-08-21; the file
 * unchanged since 2026-06-22), the page dev.jup.ag/docs/portal/plans: Free $0 (unlimited credits,
 * 1 request/s), Developer $25 a month for 25M credits, Launch $100 for 100M, Pro $500 for 500M — $1 per
 * million credits on every paid plan (the page's earlier version, also stored, published overage at $1
 * per 1M credits). Credits per request: `/tokens/v2/search` 10, `/tokens/v2/tag` 50,
 * `/tokens/v2/{category}/{interval}` 5, every other endpoint 1 (execute endpoints 0).
 */
export const JUPITER_PLAN = {
  name: 'Jupiter (paid plans)',
  usdPerMillionCredits: 1,
  plans: [
    { name: 'Developer', usdPerMonth: 25, creditsPerMonth: 25_000_000 },
    { name: 'Launch', usdPerMonth: 100, creditsPerMonth: 100_000_000 },
  ],
  credits(path: string): number {
    if (path.startsWith('/tokens/v2/search')) return 10
    if (path.startsWith('/tokens/v2/tag')) return 50
    if (/^\/tokens\/v2\/[a-z]+\/(5m|1h|6h|24h)/.test(path)) return 5
    return 1
  },
} as const

/**
 * DexScreener publishes no paid API plan or per-call price that the library holds: its pair endpoints
 * are keyless at 300 requests a minute (docs.dexscreener.com/api/reference). Not priced.
 */

// ---------------------------------------------------------------------------------------------------

type Scanner = 'quick' | 'intel' | 'deep'
const ROUTES: Record<Scanner, string> = { quick: '/scan/quick', intel: '/market/intel', deep: '/scan/deep' }
const NAMES: Record<Scanner, string> = { quick: 'quick scan', intel: 'market intel', deep: 'deep dive' }
/** What a caller pays for each scanner, from its manifest. */
const PRICES: Record<Scanner, string> = {
  quick: priceOf(quickScan.routes.scan.price),
  intel: priceOf(marketIntel.routes.intel.price),
  deep: priceOf(deepDive.routes.scan.price),
}
function priceOf(price: { usd: string } | 'free'): string {
  return price === 'free' ? '0' : price.usd
}
/** The mix: most callers ask the cheap quick scan; the deep dive is the rare, expensive one. */
const MIX: [Scanner, number][] = [
  ['quick', 0.7],
  ['intel', 0.2],
  ['deep', 0.1],
]
const ZIPF_S = 1.1

interface Scan {
  /** Offset from the run's start, ms. */
  atMs: number
  scanner: Scanner
  mint: string
  /** The token's popularity rank (1 = most asked). */
  rank: number
}

/** The seeded sequence: Zipf(1.1) over `tokens` ranked in a seeded shuffle, the scanner by MIX. */
export function scanPlan(tokens: readonly string[], scans: number, ratePerS: number, seed: string): Scan[] {
  const random = new Random(seed)
  const ranked = [...tokens]
  for (let i = ranked.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1))
    ;[ranked[i], ranked[j]] = [ranked[j]!, ranked[i]!]
  }
  const cumulative: number[] = []
  let sum = 0
  for (let k = 1; k <= ranked.length; k++) {
    sum += 1 / k ** ZIPF_S
    cumulative.push(sum)
  }
  const drawRank = () => {
    const u = random.next() * sum
    let low = 0
    let high = cumulative.length - 1
    while (low < high) {
      const mid = (low + high) >> 1
      if (cumulative[mid]! < u) low = mid + 1
      else high = mid
    }
    return low
  }
  const drawScanner = () => {
    let u = random.next()
    for (const [scanner, share] of MIX) {
      u -= share
      if (u < 0) return scanner
    }
    return MIX[0]![0]
  }
  return Array.from({ length: scans }, (_, i) => {
    const index = drawRank()
    return { atMs: (i * 1000) / ratePerS, scanner: drawScanner(), mint: ranked[index]!, rank: index + 1 }
  })
}

/** What one run measured. */
interface RunResult {
  label: string
  scans: number
  byScanner: Record<Scanner, number>
  /** Requests counted at the sandbox's servers during the run, by key (`rpc:<method>`, `jupiter:<path>`, …). */
  counts: Map<string, number>
  statuses: Map<string, number>
  quality: Map<string, number>
  wallS: number
  /** How late the latest scan was sent against its schedule (the concurrency cap reached), ms. */
  maxLateMs: number
  p50Ms: number
  p99Ms: number
  /** The instances' upstream cache lookups (from /metrics): hit, coalesced, miss. */
  cache: Map<string, number>
}

type Sandbox = RunningSandbox

export async function run(args: string[], context: BenchContext = {}): Promise<Figure[]> {
  out = context.out ?? console.log
  const option = (name: string, fallback: number) => numberOption(args, name, fallback)
  const scans = option('scans', 5_000)
  const tokenCount = option('tokens', 200)
  const rate = option('rate', 60)
  const concurrency = option('concurrency', 32)
  const latencyMs = option('latency', 100)
  const perScanner = args.includes('--per-scanner')
  const seedIndex = args.indexOf('--seed')
  const seed = seedIndex >= 0 ? args[seedIndex + 1]! : 'cost'
  if (redisMissing) {
    out(`bench cost: ${redisMissing}: nothing measured`)
    return []
  }
  const benchStarted = performance.now()
  const { sandbox, release } = await sandboxOf(context)
  try {
    const tokens = await sandboxTokens(sandbox, tokenCount)
    const plan = scanPlan(tokens, scans, rate, seed)
    const distinct = new Set(plan.map((scan) => scan.mint)).size
    const top = plan.filter((scan) => scan.rank === 1).length
    out(
      `bench cost: ${scans} scans over ${tokens.length} tokens (${sandbox.file.scenarios.length} scenarios + ${tokens.length - sandbox.file.scenarios.length} launchpad coins; ${distinct} asked, the most asked ${((top / scans) * 100).toFixed(1)}% of scans), Zipf(${ZIPF_S}), seed "${seed}"`,
    )
    out(
      `mix: ${MIX.map(([scanner, share]) => `${NAMES[scanner]} ${share * 100}%`).join(', ')} (${MIX.map(([scanner]) => `${plan.filter((scan) => scan.scanner === scanner).length} ${scanner}`).join(', ')}); ${rate} scans/s, at most ${concurrency} in flight; ${latencyMs} ms added to every upstream answer`,
    )
    out(`sandbox and tokens ready in ${((performance.now() - benchStarted) / 1000).toFixed(1)} s`)
    sandbox.faults.latencyMs = latencyMs
    const one = await measure(sandbox, plan, 1, concurrency, '1 instance')
    const three = await measure(sandbox, plan, 3, concurrency, '3 instances')
    report([one, three])
    const ratio = total(three) / three.scans / (total(one) / one.scans)
    const creditRatio = rpcCredits(three) / rpcCredits(one)
    out(
      `\n3 instances / 1 instance: upstream calls per scan ×${ratio.toFixed(3)}, RPC credits ×${creditRatio.toFixed(3)}${Math.max(ratio, creditRatio) > 1.1 ? '  ← over the 10% goal' : '  (goal: within 10%: met)'}`,
    )
    if (perScanner) {
      const alone: RunResult[] = []
      for (const [scanner] of MIX) {
        const own = plan.filter((scan) => scan.scanner === scanner)
        alone.push(await measure(sandbox, own, 1, concurrency, `${NAMES[scanner]} alone`))
      }
      out(`\neach scanner's own share of the sequence (same offsets), alone on 1 instance:`)
      report(alone)
      const cold: RunResult[] = []
      for (const [scanner] of MIX) cold.push(await coldScans(sandbox, plan, scanner, COLD_SCANS))
      out(
        `\nno reuse between scans at all (the upper bound a quiet service approaches): each scanner's first ${COLD_SCANS} scans of the sequence, each on a fresh in-process service with empty caches:`,
      )
      report(cold)
    }
    out(`\nbench cost: ${((performance.now() - benchStarted) / 1000).toFixed(0)} s in all`)
    const priced = (result: RunResult) =>
      ((rpcCredits(result) * RPC_PLAN.usdPerMillionCredits) / 1e6 +
        (jupiterCredits(result) * JUPITER_PLAN.usdPerMillionCredits) / 1e6) *
      (1000 / result.scans)
    return [
      { name: 'cost: upstream calls per scan', value: total(one) / one.scans, unit: '', better: 'lower' },
      { name: 'cost: priced upstream $ per 1 000 scans', value: priced(one), unit: '$', better: 'lower' },
      { name: 'cost: calls per scan, 3 instances / 1', value: ratio, unit: '×', better: 'lower', target: 1.1 },
      { name: 'cost: RPC credits, 3 instances / 1', value: creditRatio, unit: '×', better: 'lower', target: 1.1 },
    ]
  } finally {
    await release()
  }
}

/**
 * The scenarios' mints, then launchpad coins the sandbox's ticker creates (each step a new coin or a
 * trade on a live curve, deterministic from its seed) until there are `count` tokens.
 */
async function sandboxTokens(sandbox: Sandbox, count: number): Promise<string[]> {
  const scenarios = sandbox.file.scenarios.map((scenario) => scenario.mint)
  while (scenarios.length + sandbox.ticker.coins.length < count) await sandbox.ticker.step()
  return [...scenarios, ...sandbox.ticker.coins.map((coin) => coin.mint)].slice(0, count)
}

/** Scans per scanner for the no-reuse bound, and how many run at once (each on its own empty caches). */
const COLD_SCANS = 30
const COLD_AT_ONCE = 4

/**
 * The first `count` scans of `scanner` in the sequence, each on a fresh service (empty caches, no
 * Redis): what a scan costs when nothing it reads was read before — the bound a service approaches
 * when its scans are too far apart for the caches' lifetimes.
 */
async function coldScans(sandbox: Sandbox, plan: readonly Scan[], scanner: Scanner, count: number): Promise<RunResult> {
  const own = plan.filter((scan) => scan.scanner === scanner).slice(0, count)
  const settings = {
    ...sandbox.serviceSettings,
    RATE_LIMIT_SCANNER_BURST: '1000000',
    RATE_LIMIT_SCANNER_PER_MINUTE: '1000000',
  }
  const before = new Map(sandbox.faults.requests)
  const statuses = new Map<string, number>()
  const quality = new Map<string, number>()
  const latencies: number[] = []
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: COLD_AT_ONCE }, async () => {
      for (let scan = own[next++]; scan; scan = own[next++]) {
        const sent = performance.now()
        const response = await waivedService(settings).handle(
          scanRequest(ROUTES[scan.scanner], { token_address: scan.mint }),
        )
        const body = (await response.json().catch(() => ({}))) as { data_quality?: string }
        latencies.push(performance.now() - sent)
        statuses.set(String(response.status), (statuses.get(String(response.status)) ?? 0) + 1)
        const key = `${scan.scanner} ${body.data_quality ?? '-'}`
        quality.set(key, (quality.get(key) ?? 0) + 1)
      }
    }),
  )
  const counts = new Map<string, number>()
  for (const [key, value] of sandbox.faults.requests) {
    const spent = value - (before.get(key) ?? 0)
    if (spent > 0) counts.set(key, spent)
  }
  latencies.sort((a, b) => a - b)
  const byScanner = { quick: 0, intel: 0, deep: 0 }
  byScanner[scanner] = own.length
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0
  return {
    label: `${NAMES[scanner]} cold`,
    scans: own.length,
    byScanner,
    counts,
    statuses,
    quality,
    wallS: (performance.now() - started) / 1000,
    maxLateMs: 0,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    cache: new Map(),
  }
}

/** Runs `plan` on `instances` fresh service processes sharing one fresh redis-server. */
async function measure(
  sandbox: Sandbox,
  plan: readonly Scan[],
  instances: number,
  concurrency: number,
  label: string,
): Promise<RunResult> {
  const redis = await startRedis()
  const targets: Awaited<ReturnType<typeof startTarget>>[] = []
  try {
    for (let i = 0; i < instances; i++)
      targets.push(
        await startTarget(`${import.meta.dir}/targets/solsentry.ts`, {
          ...sandbox.serviceSettings,
          REDIS_URL: redis.url,
          BENCH_APP: 'service',
          BENCH_WAIVE: '1',
          LOG_LEVEL: 'warn',
        }),
      )
    const before = new Map(sandbox.faults.requests)
    const statuses = new Map<string, number>()
    const quality = new Map<string, number>()
    const latencies: number[] = []
    let maxLateMs = 0
    let next = 0
    const started = performance.now()
    const worker = async () => {
      for (;;) {
        const index = next++
        const scan = plan[index]
        if (!scan) return
        const due = started + scan.atMs
        const wait = due - performance.now()
        if (wait > 0) await Bun.sleep(wait)
        else maxLateMs = Math.max(maxLateMs, -wait)
        const sent = performance.now()
        const response = await fetch(`${targets[index % instances]!.url}${ROUTES[scan.scanner]}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token_address: scan.mint }),
        })
        const body = (await response.json().catch(() => ({}))) as { data_quality?: string; code?: string }
        latencies.push(performance.now() - sent)
        const status = response.status === 200 ? '200' : `${response.status} ${body.code ?? ''}`.trim()
        statuses.set(status, (statuses.get(status) ?? 0) + 1)
        const key = `${scan.scanner} ${body.data_quality ?? '-'}`
        quality.set(key, (quality.get(key) ?? 0) + 1)
      }
    }
    await Promise.all(Array.from({ length: concurrency }, worker))
    const wallS = (performance.now() - started) / 1000
    const counts = new Map<string, number>()
    for (const [key, value] of sandbox.faults.requests) {
      const spent = value - (before.get(key) ?? 0)
      if (spent > 0) counts.set(key, spent)
    }
    const cache = new Map<string, number>()
    for (const target of targets) {
      const text = await (await fetch(`${target.url}/metrics`)).text()
      for (const match of text.matchAll(/^solsentry_cache_lookups_total\{result="(\w+)"\} (\d+)/gm))
        cache.set(match[1]!, (cache.get(match[1]!) ?? 0) + Number(match[2]))
    }
    latencies.sort((a, b) => a - b)
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0
    const byScanner = { quick: 0, intel: 0, deep: 0 }
    for (const scan of plan) byScanner[scan.scanner]++
    const result: RunResult = {
      label,
      scans: plan.length,
      byScanner,
      counts,
      statuses,
      quality,
      wallS,
      maxLateMs,
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      cache,
    }
    out(
      `\n${label}: ${plan.length} scans in ${wallS.toFixed(1)} s (latest send ${maxLateMs.toFixed(0)} ms behind schedule), p50 ${result.p50Ms.toFixed(0)} ms, p99 ${result.p99Ms.toFixed(0)} ms; answers ${[...statuses].map(([status, n]) => `${status} ×${n}`).join(', ')}; ${[...quality].map(([key, n]) => `${key} ×${n}`).join(', ')}; cache lookups ${[...cache].map(([key, n]) => `${key} ${n}`).join(', ')}`,
    )
    return result
  } finally {
    await Promise.all(targets.map((target) => target.stop()))
    await redis.stop()
  }
}

/** A request key's provider and what it is billed as: an RPC method, an HTTP route with its addresses elided. */
function lineOf(key: string): { provider: string; item: string } | undefined {
  const [server, route] = key.split(/:(.*)/s) as [string, string | undefined]
  if (!route) return undefined
  if (server === 'rpc') return { provider: 'Solana RPC', item: route }
  const path = route.replace(/\/[1-9A-HJ-NP-Za-km-z]{32,44}(,[1-9A-HJ-NP-Za-km-z]{32,44})*/g, '/{mint}')
  const provider = { dexscreener: 'DexScreener', jupiter: 'Jupiter' }[server] ?? server
  return { provider, item: path }
}

/** Upstream calls: each JSON-RPC call and each HTTP request to another provider (what is billed). */
function total(result: RunResult): number {
  let sum = 0
  for (const [key, value] of result.counts) if (lineOf(key)) sum += value
  return sum
}

function rpcCredits(result: RunResult): number {
  let sum = 0
  for (const [key, value] of result.counts) {
    const line = lineOf(key)
    if (line?.provider === 'Solana RPC') sum += value * RPC_PLAN.credits(line.item)
  }
  return sum
}

function jupiterCredits(result: RunResult): number {
  let sum = 0
  for (const [key, value] of result.counts) {
    const line = lineOf(key)
    if (line?.provider === 'Jupiter') sum += value * JUPITER_PLAN.credits(line.item)
  }
  return sum
}

/**
 * Calls per scan by provider and method for each run, then credits and dollars per 1 000 scans; with
 * two runs, the second's figure over the first's in a last column.
 */
function report(results: RunResult[]): void {
  const named = (key: string) => {
    const line = lineOf(key)
    return line && `${line.provider} ${line.item}`
  }
  const lines = new Map<string, string>()
  for (const result of results)
    for (const key of result.counts.keys()) {
      const line = lineOf(key)
      if (!line) continue
      const credits =
        line.provider === 'Solana RPC'
          ? RPC_PLAN.credits(line.item)
          : line.provider === 'Jupiter'
            ? JUPITER_PLAN.credits(line.item)
            : '—'
      lines.set(`${line.provider} ${line.item}`, String(credits))
    }
  const sumOf = (result: RunResult, match: (key: string) => boolean) => {
    let sum = 0
    for (const [key, value] of result.counts) if (match(key)) sum += value
    return sum
  }
  const width = Math.max(52, ...[...lines.keys()].map((name) => name.length + 2))
  const compare = results.length === 2
  const column = Math.max(17, ...results.map((result) => result.label.length + 2))
  const header = (title: string) =>
    out(
      `\n${title.padEnd(width)}${(title === 'calls per scan' ? 'credits' : '').padStart(7)}${results.map((result) => result.label.padStart(column)).join('')}${compare ? 'ratio'.padStart(8) : ''}`,
    )
  /** One row: each run's value (a number, shown by `show`), and their ratio when two runs are compared. */
  const row = (name: string, credits: string, value: (result: RunResult) => number, show: (n: number) => string) => {
    const values = results.map(value)
    const ratio = compare && values[0]! > 0 ? `×${(values[1]! / values[0]!).toFixed(3)}` : ''
    out(
      `${name.padEnd(width)}${credits.padStart(7)}${values.map((n) => show(n).padStart(column)).join('')}${compare ? ratio.padStart(8) : ''}`,
    )
  }
  const perScan = (n: number) => n.toFixed(3)
  header('calls per scan')
  for (const [name, credits] of [...lines.entries()].sort(([a], [b]) => a.localeCompare(b)))
    row(name, credits, (result) => sumOf(result, (key) => named(key) === name) / result.scans, perScan)
  row(
    'Solana RPC HTTP requests (batches)',
    '',
    (result) => sumOf(result, (key) => key === 'rpc') / result.scans,
    perScan,
  )
  row('upstream calls, all providers', '', (result) => total(result) / result.scans, perScan)

  const thousand = (value: (result: RunResult) => number) => (result: RunResult) =>
    (value(result) / result.scans) * 1000
  const rpcUsd = (result: RunResult) => (rpcCredits(result) * RPC_PLAN.usdPerMillionCredits) / 1e6
  const jupiterUsd = (result: RunResult) => (jupiterCredits(result) * JUPITER_PLAN.usdPerMillionCredits) / 1e6
  header('per 1 000 scans')
  row(`RPC credits (${RPC_PLAN.name})`, '', thousand(rpcCredits), (n) => n.toFixed(0))
  row(`  at $${RPC_PLAN.usdPerMillionCredits} per 1M credits`, '', thousand(rpcUsd), usd)
  row('Jupiter credits', '', thousand(jupiterCredits), (n) => n.toFixed(0))
  row(`  at $${JUPITER_PLAN.usdPerMillionCredits} per 1M credits (${JUPITER_PLAN.name})`, '', thousand(jupiterUsd), usd)
  row(
    'DexScreener requests (not priced)',
    '',
    thousand((result) => sumOf(result, (key) => key === 'dexscreener')),
    (n) => n.toFixed(0),
  )
  row(
    'priced upstream cost',
    '',
    thousand((result) => rpcUsd(result) + jupiterUsd(result)),
    usd,
  )
  const alone = results.every((result) => Object.values(result.byScanner).filter((n) => n > 0).length === 1)
  if (alone) {
    const scannerOf = (result: RunResult) => MIX.find(([scanner]) => result.byScanner[scanner] > 0)![0]
    row('what callers pay (the route’s price)', '', (result) => Number(PRICES[scannerOf(result)]) * 1000, usd)
  }
  const count = (n: number) => Math.floor(n).toLocaleString('en-US')
  header('scans a month a plan’s credits cover')
  for (const plan of RPC_PLAN.plans)
    row(
      `Helius ${plan.name} ($${plan.usdPerMonth}, ${plan.creditsPerMonth / 1e6}M credits)`,
      '',
      (result) => plan.creditsPerMonth / (rpcCredits(result) / result.scans),
      count,
    )
  for (const plan of JUPITER_PLAN.plans)
    row(
      `Jupiter ${plan.name} ($${plan.usdPerMonth}, ${plan.creditsPerMonth / 1e6}M credits)`,
      '',
      (result) => plan.creditsPerMonth / (jupiterCredits(result) / result.scans),
      count,
    )
  const others = new Set<string>()
  for (const result of results)
    for (const key of result.counts.keys()) {
      const server = key.split(':')[0]!
      if (!['rpc', 'dexscreener', 'jupiter'].includes(server)) others.add(server)
    }
  if (others.size > 0) out(`other upstreams asked (counted above, not priced): ${[...others].join(', ')}`)
}

const usd = (value: number) => `$${value.toFixed(value < 1 ? 4 : 2)}`
