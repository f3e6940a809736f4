/**
 * Chaos with real processes: the service runs as its own process on the sandbox while paying clients
 * call it, and a peer it depends on is killed or frozen mid-traffic. Each scenario prints its outcome
 * table and the checks it makes; it exits non-zero when one fails.
 *
 *   npm run bench -- chaos [redis|facilitator|all] [--seconds 6] [--workers 4]
 *
 * - `redis`: REDIS_URL names a real redis-server (append-only file, fsync always). It is killed
 *   (SIGKILL) mid-traffic and started again on the same file. No request may outlive its deadline; every
 *   settled payment must be in the ledger as settled, once, and match the chain; per-client limits
 *   must hold before, during and after.
 * - `facilitator`: the facilitator is its own process (bench/chaos/facilitator.ts), frozen (SIGSTOP)
 *   while a settlement is in flight and resumed (SIGCONT) later. Nothing may be charged twice, no
 *   answer delivered unpaid; a payment whose settlement went unanswered and then landed is owed its
 *   call, which the bench collects by presenting the same payment again.
 *
 * The third fault of the kind — the service itself killed (SIGKILL) during a trade's execute — is a
 * test: test/trade-restart.test.ts (and test/payment-restart.test.ts for a scan between verify and settle).
 */
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PaymentRequired } from '@x402/core/types'
import type { x402Client } from '@x402/core/client'
import { demoPayer } from '../sandbox/demo-client.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { decodeReceipt } from '../src/payments/receipt.ts'
import { readPayment } from '../src/payments/payment-header.ts'
import { paymentKey } from '../src/payments/payment-key.ts'
import { QUICK_SCAN_DEADLINE_MS } from '../src/pipeline/policies.ts'
import { redisClient } from '../src/store/redis.ts'
import { launch } from '../test/support/launch.ts'
import { redisMissing, startRedis } from '../test/support/redis.ts'
import { paymentHeader, unpaidScanStatuses, usdcOf } from '../test/support/x402.ts'
import { numberOption, startTarget } from './load.ts'

/** A paid scan's bound: the scan's deadline plus the facilitator's verify budget (settlement is not in it). */
const VERIFY_BUDGET_MS = 2_000
const SCAN_BOUND_MS = QUICK_SCAN_DEADLINE_MS + VERIFY_BUDGET_MS
const LIMIT_BURST = 5

interface Call {
  phase: string
  /** When the paid request was sent (performance.now()). */
  at: number
  status: number
  code: string | null
  ms: number
  /** The settlement transaction, when the answer carried a receipt. */
  transaction: string | null
  /** The payment header sent, to present again. */
  payment: string
  body: string
  ip: string
}

export async function run(args: string[]): Promise<void> {
  const which = args.find((arg) => !arg.startsWith('--') && !/^\d+$/.test(arg)) ?? 'all'
  const seconds = numberOption(args, 'seconds', 6)
  const workers = numberOption(args, 'workers', 4)
  const failures: string[] = []
  if (which === 'redis' || which === 'all') {
    if (redisMissing) console.log(`redis scenario skipped: ${redisMissing}`)
    else failures.push(...(await redisScenario(seconds, workers)))
  }
  if (which === 'facilitator' || which === 'all') failures.push(...(await facilitatorScenario(seconds, workers)))
  if (failures.length > 0) {
    console.log(`\n${failures.length} check(s) failed:\n${failures.map((line) => `  ✗ ${line}`).join('\n')}`)
    process.exit(1)
  }
  console.log('\nall checks passed')
}

/** The sandbox, a work directory, and the service as a process on both (plus `env`). */
async function setUp(name: string) {
  const work = mkdtempSync(join(tmpdir(), `solsentry-chaos-${name}-`))
  const sandbox = await startSandbox(ephemeralSandboxOptions())
  const { client } = await demoPayer(sandbox.file, 'solana')
  const mints = sandbox.file.scenarios.map((scenario) => scenario.mint)
  const service = async (env: Record<string, string>) => {
    const started = await launch([process.execPath, join(import.meta.dir, '..', 'src/main.ts')], {
      cwd: work,
      env: {
        ...sandbox.serviceSettings,
        DATA_DIR: join(work, 'data'),
        LOG_LEVEL: 'info',
        // Each client is told apart by its X-Forwarded-For, so the workers' traffic and the limit probes do not mix.
        TRUST_PROXY: 'true',
        RATE_LIMIT_SCANNER_BURST: String(LIMIT_BURST),
        RATE_LIMIT_SCANNER_PER_MINUTE: '60',
        ...env,
      },
    })
    // Its log is read to the end (a pipe nobody reads would block the service once full).
    const log = started.rest()
    return { ...started, log }
  }
  return {
    work,
    sandbox,
    client,
    mints,
    service,
    async tearDown() {
      await sandbox.stop()
      rmSync(work, { recursive: true, force: true })
    },
  }
}

/** One paid quick scan: the challenge, a payment for it, the paid request (timed). */
async function paidScan(url: string, client: x402Client, mint: string, ip: string, phase: () => string) {
  const body = JSON.stringify({ token_address: mint })
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': ip }
  const challenge = await fetch(`${url}/scan/quick`, { method: 'POST', headers, body })
  await challenge.arrayBuffer()
  if (challenge.status !== 402) {
    return {
      phase: phase(),
      at: performance.now(),
      status: challenge.status,
      code: 'challenge',
      ms: 0,
      transaction: null,
      payment: '',
      body,
      ip,
    } satisfies Call
  }
  const payment = await paymentHeader(client, challenge.headers.get('payment-required')!)
  return present(url, { payment, body, ip }, phase())
}

/** Sends a paid request with `payment` and reads its outcome. */
async function present(url: string, call: Pick<Call, 'payment' | 'body' | 'ip'>, phase: string): Promise<Call> {
  const sent = performance.now()
  const answer = await fetch(`${url}/scan/quick`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': call.ip, 'payment-signature': call.payment },
    body: call.body,
  })
  const text = await answer.text()
  const ms = performance.now() - sent
  let code: string | null = null
  if (answer.status !== 200) code = (JSON.parse(text) as { code?: string }).code ?? null
  const transaction = decodeReceipt(answer.headers.get('payment-response'))?.transaction ?? null
  return {
    phase,
    at: sent,
    status: answer.status,
    code,
    ms,
    transaction,
    payment: call.payment,
    body: call.body,
    ip: call.ip,
  }
}

/**
 * Paying clients in a loop, each call under a new client address, until `stop()`: the calls land in
 * `live` as they answer, each labelled with the `phase` at the time it was sent.
 */
function startTraffic(url: string, env: { client: x402Client; mints: string[] }, workers: number) {
  const live: Call[] = []
  const run = { phase: 'before', stopped: false }
  let n = 0
  const done = Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (!run.stopped) {
        const i = n++
        const ip = `10.${worker}.${Math.floor(i / 250) % 250}.${i % 250}`
        try {
          live.push(await paidScan(url, env.client, env.mints[i % env.mints.length]!, ip, () => run.phase))
        } catch (error) {
          live.push({
            phase: run.phase,
            at: performance.now(),
            status: 0,
            code: (error as Error).message,
            ms: 0,
            transaction: null,
            payment: '',
            body: '',
            ip,
          })
        }
      }
    }),
  )
  return {
    run,
    live,
    /** Stops the clients and answers every call made. */
    async stop(): Promise<Call[]> {
      run.stopped = true
      await done
      return live
    },
  }
}

/** LIMIT_BURST + 3 unpaid scans from one new address: the burst is challenged (402), the rest refused (429). */
async function probeLimit(url: string, ip: string, mint: string): Promise<{ statuses: number[]; held: boolean }> {
  const statuses = await unpaidScanStatuses(url, mint, ip, LIMIT_BURST + 3)
  const held =
    statuses.slice(0, LIMIT_BURST).every((status) => status === 402) &&
    statuses.slice(LIMIT_BURST).every((status) => status === 429)
  return { statuses, held }
}

/**
 * Milliseconds from `sinceMs` to the first paid call sent after it that was answered 200, waiting up to
 * `timeoutMs` for one; null when none came.
 */
async function recovery(calls: Call[], sinceMs: number, timeoutMs = 30_000): Promise<number | null> {
  const found = () => calls.find((call) => call.at >= sinceMs && call.status === 200)
  await waitFor(() => found() !== undefined, timeoutMs, 50)
  const first = found()
  return first ? Math.round(first.at + first.ms - sinceMs) : null
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

/** The outcome table: per phase, how the paid calls answered and how long they took. */
function printCalls(calls: Call[], phases: string[]): void {
  console.log('| phase | paid calls | 200 | 402 | 503 (code) | other | p50 ms | p99 ms | max ms |')
  console.log('|---|---|---|---|---|---|---|---|---|')
  for (const phase of phases) {
    const rows = calls.filter((call) => call.phase === phase)
    const by = (status: number) => rows.filter((row) => row.status === status).length
    const codes = [...new Set(rows.filter((row) => row.status === 503).map((row) => row.code))].join(', ')
    const other = rows.length - by(200) - by(402) - by(503)
    const ms = rows.map((row) => row.ms)
    console.log(
      `| ${phase} | ${rows.length} | ${by(200)} | ${by(402)} | ${by(503)}${codes ? ` (${codes})` : ''} | ${other} | ${Math.round(quantile(ms, 0.5))} | ${Math.round(quantile(ms, 0.99))} | ${Math.round(Math.max(0, ...ms))} |`,
    )
  }
}

/** The money: answers delivered with receipts, the ledger's settled payments and the treasury's USDC, which must agree. */
function checkMoney(
  calls: Call[],
  settled: { key: string; tx: string | null }[],
  delta: bigint,
  price: bigint,
  failures: string[],
): void {
  const delivered = calls.filter((call) => call.status === 200)
  const receipts = new Set(delivered.map((call) => call.transaction))
  const settledTx = new Set(settled.map((row) => row.tx))
  const unreceipted = delivered.filter((call) => !call.transaction).length
  const missing = [...receipts].filter((tx) => tx && !settledTx.has(tx)).length
  console.log(
    '| delivered (200) | distinct receipts | ledger settled | treasury +USDC / price | 200 without receipt | receipts missing from the ledger |',
  )
  console.log('|---|---|---|---|---|---|')
  console.log(
    `| ${delivered.length} | ${receipts.size} | ${settled.length} | ${delta / price} (${Number(delta) / 1e6} USDC) | ${unreceipted} | ${missing} |`,
  )
  if (unreceipted > 0) failures.push(`${unreceipted} answer(s) delivered without a receipt (unpaid)`)
  if (missing > 0) failures.push(`${missing} settled payment(s) missing from the ledger`)
  if (delta !== price * BigInt(settled.length))
    failures.push(`the treasury gained ${delta} atomic USDC; the ledger holds ${settled.length} settled × ${price}`)
  if (settledTx.size !== settled.length) failures.push('a settlement transaction is recorded twice')
}

async function redisScenario(seconds: number, workers: number): Promise<string[]> {
  console.log(`\n## redis: killed (SIGKILL) mid-traffic, started again ${seconds} s later\n`)
  const failures: string[] = []
  const env = await setUp('redis')
  const redisDir = join(env.work, 'redis')
  await Bun.write(join(redisDir, '.keep'), '')
  let redis = await startRedis({ dir: redisDir })
  const { port } = redis
  const service = await env.service({ REDIS_URL: redis.url })
  const ledger = redisClient(redis.url)
  try {
    const price = await priceOf(service.url, env.mints[0]!)
    const before = await usdcOf(env.sandbox, env.sandbox.file.x402.solana.pay_to)
    const limits: { phase: string; statuses: number[]; held: boolean }[] = []
    const probe = async (name: string, n: number) =>
      limits.push({ phase: name, ...(await probeLimit(service.url, `192.0.2.${n}`, env.mints[0]!)) })
    const traffic = startTraffic(service.url, env, workers)
    const { run, live } = traffic
    // The most ledger writes the service held for Redis at once (its /metrics, sampled).
    let peakQueued = 0
    const sampling = (async () => {
      while (!run.stopped) {
        peakQueued = Math.max(peakQueued, await queuedWrites(service.url).catch(() => 0))
        await Bun.sleep(50)
      }
    })()
    await Bun.sleep(seconds * 500)
    await probe('before', 1)
    process.kill(redis.pid, 'SIGKILL')
    await redis.stop()
    run.phase = 'redis down'
    await Bun.sleep(seconds * 500)
    await probe('redis down', 2)
    await Bun.sleep(seconds * 500)
    redis = await startRedis({ dir: redisDir, port })
    run.phase = 'redis back'
    const backAt = performance.now()
    const recovered = await recovery(live, backAt)
    await Bun.sleep(seconds * 500)
    await probe('redis back', 3)
    await Bun.sleep(seconds * 500)
    const calls = await traffic.stop()
    await sampling

    printCalls(calls, ['before', 'redis down', 'redis back'])
    console.log(
      `\nFirst paid answer after Redis was back: ${recovered === null ? 'none within 30 s' : `${recovered} ms`}`,
    )
    if (recovered === null) failures.push('no paid call succeeded within 30 s of Redis coming back')
    console.log(`\nLedger writes held in the service while Redis was away (peak): ${peakQueued}`)
    const slow = calls.filter((call) => call.ms > SCAN_BOUND_MS)
    if (slow.length > 0) failures.push(`${slow.length} paid call(s) took longer than ${SCAN_BOUND_MS} ms`)
    const errors = calls.filter(
      (call) => ![200, 402, 503].includes(call.status) || (call.status === 503 && call.code !== 'LEDGER_UNAVAILABLE'),
    )
    if (errors.length > 0)
      failures.push(
        `${errors.length} call(s) answered outside 200/402/503 LEDGER_UNAVAILABLE: ${[...new Set(errors.map((call) => `${call.status} ${call.code}`))].join(', ')}`,
      )

    console.log('\nPer-client limits (one new address per probe; the burst is', LIMIT_BURST, 'then 429):\n')
    console.log('| phase | statuses | held |')
    console.log('|---|---|---|')
    for (const row of limits) console.log(`| ${row.phase} | ${row.statuses.join(' ')} | ${row.held ? 'yes' : 'NO'} |`)
    for (const row of limits) if (!row.held) failures.push(`the per-client limit did not hold (${row.phase})`)
    const shared = await ledger.send('EXISTS', ['solsentry:bucket:rl:scanner:192.0.2.3'])
    if (shared !== 1) failures.push('after Redis came back, the limit was not counted in Redis')

    // Writes the ledger could not take while Redis was away are recorded once it is back.
    const queued = await waitFor(async () => (await queuedWrites(service.url)) === 0, 10_000)
    if (!queued) failures.push('ledger writes still queued 10 s after Redis came back')
    const records = await redisLedger(ledger)
    const settled = records.filter((row) => row.state === 'settled')
    const open = records.filter((row) => ['verifying', 'verified', 'settling', 'pending'].includes(row.state))
    console.log(`\nLedger after the run: ${countStates(records)}\n`)
    const delta = (await usdcOf(env.sandbox, env.sandbox.file.x402.solana.pay_to)) - before
    checkMoney(calls, settled, delta, price, failures)
    if (open.length > 0) failures.push(`${open.length} payment(s) left open in the ledger: ${countStates(open)}`)
  } finally {
    ledger.close()
    service.child.kill('SIGTERM')
    await service.child.exited
    await printErrors(service.log, service.lines)
    await redis.stop()
    await env.tearDown()
  }
  report(failures)
  return failures
}

async function facilitatorScenario(seconds: number, workers: number): Promise<string[]> {
  console.log(`\n## facilitator: frozen (SIGSTOP) mid-settlement, resumed (SIGCONT) ${seconds * 2} s later\n`)
  const failures: string[] = []
  const env = await setUp('facilitator')
  const facilitator = await startTarget(join(import.meta.dir, 'chaos/facilitator.ts'), {
    RPC_URL: env.sandbox.file.urls.rpc,
  })
  // A settlement is waited for 5 s here (40 s by default), so the frozen one turns pending within the run.
  const service = await env.service({
    FACILITATOR_URL: facilitator.url,
    FACILITATOR_SETTLE_TIMEOUT_MS: '5000',
  })
  const dbPath = join(env.work, 'data', 'solsentry.db')
  try {
    await waitFor(
      async () => (await fetch(`${service.url}/scan/quick`, scanInit(env.mints[0]!))).status === 402,
      20_000,
    )
    const price = await priceOf(service.url, env.mints[0]!)
    const before = await usdcOf(env.sandbox, env.sandbox.file.x402.solana.pay_to)
    const traffic = startTraffic(service.url, env, workers)
    const { run, live } = traffic
    await Bun.sleep(seconds * 500)
    // Freeze it while a settlement is in flight (each takes SETTLE_LATENCY_MS, as on mainnet).
    const caught = await waitFor(async () => sqliteLedger(dbPath).some((row) => row.state === 'settling'), 10_000, 5)
    process.kill(facilitator.pid, 'SIGSTOP')
    run.phase = 'frozen'
    if (!caught) failures.push('no settlement was in flight when the facilitator was frozen')
    // Longer than the settlement timeout: the settlements caught in it go pending.
    await Bun.sleep(seconds * 2000)
    process.kill(facilitator.pid, 'SIGCONT')
    run.phase = 'resumed'
    // Refused fast while the facilitator's breaker is open (10 s after its last failure), then served.
    const resumedAt = performance.now()
    const recovered = await recovery(live, resumedAt)
    await Bun.sleep(seconds * 500)
    const calls = await traffic.stop()
    printCalls(calls, ['before', 'frozen', 'resumed'])
    console.log(
      `\nFirst paid answer after the facilitator resumed: ${recovered === null ? 'none within 30 s' : `${recovered} ms`}`,
    )
    if (recovered === null) failures.push('no paid call succeeded within 30 s of the facilitator resuming')

    // The service asks the chain what became of each pending payment (every 30 s).
    console.log('\nWaiting for pending payments to be resolved on chain (the service checks every 30 s)…')
    const resolved = await waitFor(async () => !sqliteLedger(dbPath).some((row) => row.state === 'pending'), 45_000)
    if (!resolved) failures.push('payments still pending 45 s after the facilitator resumed')
    // A payment that settled after its call gave up is owed that call: its client presents it again.
    const owed = sqliteLedger(dbPath).filter((row) => row.state === 'credited')
    const redeemed: Call[] = []
    for (const row of owed) {
      const call = calls.find((candidate) => candidate.payment !== '' && paymentTx(candidate.payment) === row.key)
      if (!call) {
        failures.push(`credited payment ${row.key} matches no call of this run`)
        continue
      }
      redeemed.push(await present(service.url, call, 'redeemed'))
    }
    console.log(`\nLedger after the run: ${countStates(sqliteLedger(dbPath))}`)
    console.log(
      `Owed calls collected by presenting the same payment: ${redeemed.filter((call) => call.status === 200).length} of ${owed.length}\n`,
    )
    for (const call of redeemed.filter((row) => row.status !== 200))
      failures.push(`an owed call was not delivered: ${call.status} ${call.code}`)
    const slowVerify = calls.filter(
      (call) => call.code === 'FACILITATOR_UNAVAILABLE' && call.ms > VERIFY_BUDGET_MS + 1_000,
    )
    if (slowVerify.length > 0) failures.push(`${slowVerify.length} refusal(s) took longer than the verify budget`)
    const ledger = sqliteLedger(dbPath)
    const settled = ledger.filter((row) => row.state === 'settled')
    const delta = (await usdcOf(env.sandbox, env.sandbox.file.x402.solana.pay_to)) - before
    checkMoney([...calls, ...redeemed], settled, delta, price, failures)
    const open = ledger.filter((row) =>
      ['verifying', 'verified', 'settling', 'pending', 'credited'].includes(row.state),
    )
    if (open.length > 0) failures.push(`${open.length} payment(s) left open or owed: ${countStates(open)}`)
  } finally {
    process.kill(facilitator.pid, 'SIGCONT')
    service.child.kill('SIGTERM')
    await service.child.exited
    await printErrors(service.log, service.lines)
    process.kill(facilitator.pid, 'SIGTERM')
    await env.tearDown()
  }
  report(failures)
  return failures
}

/** The service's own account of what went wrong: its distinct error log lines (level ≥ 50). */
async function printErrors(log: Promise<string>, lines: Record<string, unknown>[]): Promise<void> {
  const rest = (await log)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  const errors = new Map<string, number>()
  for (const line of [...lines, ...rest])
    if (Number(line.level) >= 50) {
      const what = `${line.msg}${line.err ? `: ${JSON.stringify(line.err).slice(0, 200)}` : ''}`
      errors.set(what, (errors.get(what) ?? 0) + 1)
    }
  if (errors.size === 0) return
  console.log('\nThe service logged these errors:')
  for (const [what, count] of errors) console.log(`  ${count} × ${what}`)
}

function report(failures: string[]): void {
  console.log(failures.length === 0 ? '\nchecks: all passed' : `\nchecks: ${failures.length} failed`)
}

const scanInit = (mint: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.1' },
  body: JSON.stringify({ token_address: mint }),
})

/** The quick scan's price in atomic USDC, from its live challenge. */
async function priceOf(url: string, mint: string): Promise<bigint> {
  const challenge = await fetch(`${url}/scan/quick`, scanInit(mint))
  const required = JSON.parse(
    Buffer.from(challenge.headers.get('payment-required')!, 'base64').toString(),
  ) as PaymentRequired
  return BigInt(required.accepts[0]!.amount)
}

/** The service's queued ledger writes, from its /metrics (served to loopback). */
async function queuedWrites(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text()
  const line = text.split('\n').find((row) => row.startsWith('solsentry_ledger_writes_queued '))
  return line ? Number(line.split(' ')[1]) : 0
}

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, intervalMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return true
    await Bun.sleep(intervalMs)
  }
  return false
}

type LedgerRow = { key: string; state: string; tx: string | null }

async function redisLedger(client: ReturnType<typeof redisClient>): Promise<LedgerRow[]> {
  const keys = (await client.send('KEYS', ['solsentry:payment:*'])) as string[]
  return Promise.all(
    keys.map(async (key) => {
      const hash = (await client.send('HGETALL', [key])) as Record<string, string>
      return { key: hash.key!, state: hash.state!, tx: hash.tx ?? null }
    }),
  )
}

function sqliteLedger(path: string): LedgerRow[] {
  let db: Database | undefined
  try {
    db = new Database(path, { readonly: true })
    return db.query<LedgerRow, []>('SELECT key, state, tx FROM payments').all()
  } catch {
    return []
  } finally {
    db?.close()
  }
}

const countStates = (rows: LedgerRow[]) => {
  const counts = new Map<string, number>()
  for (const row of rows) counts.set(row.state, (counts.get(row.state) ?? 0) + 1)
  return [...counts].map(([state, count]) => `${count} ${state}`).join(', ') || 'empty'
}

/** The ledger key of a payment header (src/payments/payment-key.ts). */
function paymentTx(header: string): string | undefined {
  const read = readPayment(new Headers({ 'payment-signature': header }))
  if (read.kind !== 'payment') return undefined
  const network = read.payment.x402Version === 2 ? read.payment.accepted.network : read.payment.network
  return paymentKey(read.payment, network)
}
