/**
 * A cluster that behaves as one service: three service processes (`bun src/main.ts`, the sandbox's
 * settings, one `redis-server`) behind Debian's HAProxy on loopback, paid traffic on both rails from the
 * official x402 v2 client (`@x402/fetch`, the demo payers) and trades, one instance killed (SIGKILL)
 * mid-traffic and started again. It prints requests, answers, charges and settlements per phase, then
 * checks what must hold of one service, and exits non-zero when a check fails.
 *
 *   npm run bench -- cluster [--seconds 10] [--workers 2] [--settle-ms 400]
 *
 * Phases: `warm` (three instances), `degraded` (the instance holding the launchpad-index lease killed
 * while it settles a quick scan's payment, until another holds the lease), `restart` (the same instance
 * started again, until HAProxy's health check has it up), `recovered`. Each call comes from its own
 * loopback address (127.x.y.z): HAProxy appends the real source to X-Forwarded-For (`option
 * forwardfor`) and the instances take the last hop (TRUST_PROXY), as behind a real balancer. HAProxy
 * also sends the instance's name as `x-request-id`, so the ledger says which instance took a payment.
 *
 * Checks: the treasuries moved exactly by the settled payments (Solana USDC and the anvil token, read
 * on chain); no payment settled twice; every payment that moved has its answer or is collectable by
 * presenting it again (answered: the kept answer or the credit redeemed; or a 402 pending); trade jobs read the
 * same from every instance; one client's burst is limited once for the cluster; one launch-index
 * ingester at a time, and a new one within the lease after the kill; one attestation key.
 *
 * `runCluster` is the whole bench; test/cluster.test.ts runs a shorter form of it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { getBase64EncodedWireTransaction, getTransactionDecoder, partiallySignTransaction } from '@solana/kit'
import { appendPaymentIdentifierToExtensions, generatePaymentId } from '@x402/extensions/payment-identifier'
import { wrapFetchWithPayment } from '@x402/fetch'
import { demoPayer } from '../sandbox/demo-client.ts'
import { type RunningSandbox, startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { loadAttestor } from '../src/attest/attestation.ts'
import { LEASE_MS } from '../src/launchpad-index/index.ts'
import { WRAPPED_SOL_MINT_ADDRESS } from '../src/onchain/programs.ts'
import { decodeReceipt } from '../src/payments/receipt.ts'
import { SETTLING_SLACK_MS, STALE_OPEN_MS } from '../src/payments/recovery.ts'
import { type Redis, redisClient } from '../src/store/redis.ts'
import { redisMissing, startRedis } from '../test/support/redis.ts'
import { ledgerKeyOf, usdcOf } from '../test/support/x402.ts'
import type { BenchContext, Figure, Out } from './figures.ts'
import { numberOption } from './load.ts'

const ROOT = join(import.meta.dir, '..')
const PHASES = ['warm', 'degraded', 'restart', 'recovered'] as const
type Phase = (typeof PHASES)[number] | 'checks'
/** The per-client limit the cluster runs with: a burst of this many scanner calls, then 429. */
const LIMIT_BURST = 5
/** HAProxy's health check: every 500 ms, down after 2 failures, up after 2 successes. */
const CHECK_INTER_MS = 500
/** What a takeover may add to the lease's time left: the holder is sampled every 50 ms, timers run late under load. */
const TAKEOVER_SLACK_MS = 500
/** Ledger states a live call holds a payment in. */
const LIVE_STATES = ['verifying', 'verified', 'settling', 'redeeming']

/** Why the bench cannot run on this machine (no redis-server or no haproxy), or undefined. */
export const clusterMissing: string | undefined =
  redisMissing ?? (haproxyBinary() ? undefined : 'haproxy is not installed (apt-get install -y haproxy; .ci/run does)')

function haproxyBinary(): string | undefined {
  return Bun.which('haproxy') ?? Bun.which('haproxy', { PATH: '/usr/sbin:/usr/local/sbin:/sbin' }) ?? undefined
}

export interface ClusterOptions {
  /** Seconds of traffic in each of the warm, degraded (at least) and recovered phases. */
  seconds: number
  /** Paying clients per rail (each a loop of paid quick scans); one more loop trades. */
  workers: number
  /** What the sandbox facilitator takes per settlement, as a hosted one does while it confirms. */
  settleMs: number
  /** The instances' LAUNCHPAD_LEASE_MS (default 15 s, the service's). */
  leaseMs?: number
  /** The instances' FACILITATOR_SETTLE_TIMEOUT_MS (default 5 s). */
  settleTimeoutMs?: number
  /** Print as it goes. */
  verbose: boolean
  /** Where to print (console.log unless given). */
  out?: Out
}

/** One HTTP exchange through the balancer (or straight to an instance, for the checks). */
interface Exchange {
  phase: Phase
  kind: 'challenge' | 'paid' | 'replay' | 'again' | 'probe' | 'quote' | 'execute' | 'status' | 'other'
  rail: 'solana' | 'base' | null
  status: number
  /** The instance HAProxy sent it to (its `x-served-by`), or the one asked directly. */
  server: string | null
  /** The payment header sent, if any. */
  payment: string | null
  /** The settlement transaction its receipt names. */
  receipt: string | null
  replayed: string | null
  code: string | null
  /** The answer's body. */
  body: string
  /** The request's body. */
  sent: string
  ms: number
}

interface Instance {
  name: string
  port: number
  url: string
  child: Subprocess<'ignore', 'pipe', 'pipe'>
  /** Its log lines other than the per-request ones, parsed (the lease lines name its instance id). */
  lines: Record<string, unknown>[]
  exited: Promise<number>
}

/** The figures and the checks of one run. */
export interface ClusterReport {
  failures: string[]
  exchanges: Exchange[]
  elapsedMs: number
  /** From the start to the end of the traffic (the phases), before the checks. */
  trafficMs: number
  takeoverMs: number | null
  /** What the killed holder's lease had left when it was killed. */
  leaseLeftMs: number
}

export async function run(args: string[], context: BenchContext = {}): Promise<Figure[]> {
  const out = context.out ?? console.log
  if (clusterMissing) {
    out(`cluster bench skipped: ${clusterMissing}`)
    return []
  }
  const report = await runCluster({
    seconds: numberOption(args, 'seconds', 10),
    workers: numberOption(args, 'workers', 2),
    settleMs: numberOption(args, 'settle-ms', 400),
    leaseMs: args.includes('--lease-ms') ? numberOption(args, 'lease-ms', LEASE_MS) : undefined,
    verbose: true,
    out,
  })
  if (report.failures.length > 0)
    out(`\n${report.failures.length} check(s) failed:\n${report.failures.map((line) => `  ✗ ${line}`).join('\n')}`)
  else out('\nall checks passed')
  const paid = report.exchanges.filter((exchange) => exchange.kind === 'paid' && exchange.status === 200).length
  const figures: Figure[] = [
    { name: 'cluster: failed checks', value: report.failures.length, unit: '', better: 'lower', target: 0 },
    {
      name: 'cluster: paid answers per second (all phases)',
      value: paid / (report.trafficMs / 1000),
      unit: '/s',
      better: 'higher',
    },
  ]
  // The kill lands anywhere in the lease: what is measured is how soon after its expiry another instance took it.
  if (report.takeoverMs !== null)
    figures.push({
      name: 'cluster: new ingester after the lease expired',
      value: Math.max(0, report.takeoverMs - report.leaseLeftMs) / 1000,
      unit: 's',
      better: 'lower',
      slack: 1,
    })
  // Run on its own (not from the guard), a failed check fails the command.
  if (!context.out && report.failures.length > 0) process.exit(1)
  return figures
}

export async function runCluster(options: ClusterOptions): Promise<ClusterReport> {
  const started = performance.now()
  const log = (line = '') => options.verbose && (options.out ?? console.log)(line)
  const failures: string[] = []
  const leaseMs = options.leaseMs ?? LEASE_MS
  const settleTimeoutMs = options.settleTimeoutMs ?? 5_000
  const work = mkdtempSync(join(tmpdir(), 'solsentry-cluster-'))
  const cleanup: (() => Promise<unknown> | unknown)[] = [() => rmSync(work, { recursive: true, force: true })]
  try {
    const sandbox = await startSandbox(ephemeralSandboxOptions())
    cleanup.unshift(() => sandbox.stop())
    mkdirSync(join(work, 'redis'), { recursive: true })
    const redis = await startRedis({ dir: join(work, 'redis') })
    cleanup.unshift(() => redis.stop())
    const store = redisClient(redis.url)
    cleanup.unshift(() => store.close())
    // One attestation key for the cluster (each instance would otherwise make its own in its DATA_DIR).
    const attestationKey = loadAttestor(undefined, join(work, 'attestation')).source.replace(' (generated)', '')
    const ports = await freePorts(5)
    const [lbPort, statsPort] = [ports[3]!, ports[4]!]
    const settings = {
      ...sandbox.serviceSettings,
      REDIS_URL: redis.url,
      ATTESTATION_KEY: attestationKey,
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'info',
      RATE_LIMIT_SCANNER_BURST: String(LIMIT_BURST),
      // Refilled slowly, so a probe's burst is not topped up while it runs; paying clients change address per call.
      RATE_LIMIT_SCANNER_PER_MINUTE: '6',
      // A settlement is waited for 5 s (40 s by default), so what a killed instance left settling is
      // taken for orphaned within the run (the settle timeout plus SETTLING_SLACK_MS).
      FACILITATOR_SETTLE_TIMEOUT_MS: String(settleTimeoutMs),
      LAUNCHPAD_LEASE_MS: String(leaseMs),
    }
    const instances = new Map<string, Instance>()
    const spawn = async (name: string, port: number) => {
      const instance = await startInstance(name, port, work, settings)
      instances.set(name, instance)
      return instance
    }
    cleanup.unshift(async () => {
      for (const instance of instances.values()) instance.child.kill('SIGTERM')
      await Promise.all([...instances.values()].map((instance) => instance.exited))
    })
    await Promise.all(ports.slice(0, 3).map((port, i) => spawn(`s${i + 1}`, port)))
    const lb = await startHaproxy(work, lbPort, statsPort, [...instances.values()])
    cleanup.unshift(() => lb.stop())
    const url = lb.url
    log(
      `## A cluster: three instances on one redis-server behind HAProxy ${lb.version} (${new Date().toISOString().slice(0, 10)})\n`,
    )
    log(
      `instances ${[...instances.values()].map((i) => `${i.name} :${i.port}`).join(', ')}; balancer ${url}; ${options.workers} paying client(s) per rail, one trader; settlements take ${options.settleMs} ms; up in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    )

    // Every instance offers both rails before traffic starts (the facilitator's /supported is read in the background).
    await waitFor(async () => (await offeredRails(url)) >= 2 * instances.size, 20_000)
    const mints = sandbox.file.scenarios.map((scenario) => scenario.mint)
    const blueChip = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
    const before = await treasuries(sandbox)
    sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: options.settleMs })

    // The launchpad moves (a step a second), so the lease holder has something to ingest.
    let ticking = true
    const ticker = (async () => {
      while (ticking) {
        await sandbox.ticker.step().catch(() => undefined)
        await Bun.sleep(1_000)
      }
    })()
    cleanup.unshift(async () => {
      ticking = false
      await ticker
    })
    const leases = watchLease(store)
    cleanup.unshift(() => leases.stop())

    const state = { phase: 'warm' as Phase, stopped: false }
    const exchanges: Exchange[] = []
    const traffic = startTraffic({ url, sandbox, mints, blueChip, state, exchanges, workers: options.workers })
    cleanup.unshift(async () => {
      state.stopped = true
      await traffic.done
    })
    const probes: { phase: Phase; statuses: number[]; servers: string[]; ms: number }[] = []
    const probe = async (n: number) => {
      const result = await probeLimit(url, `127.30.0.${n}`, blueChip, state.phase, exchanges)
      probes.push({ phase: state.phase, ...result })
    }

    // warm
    await Bun.sleep(options.seconds * 500)
    await probe(1)
    await Bun.sleep(options.seconds * 500)
    // degraded: the instance holding the launchpad-index lease, killed mid-traffic — while it settles a payment
    const holderId = (await store.send('GET', ['launch:lease'])) as string | null
    const victim = [...instances.values()].find((instance) => instanceIdOf(instance) === holderId)
    if (!victim) throw new Error(`no instance holds the launchpad lease (${holderId})`)
    const settlingOnVictim = async () =>
      (await ledger(store)).some(
        (row) => row.state === 'settling' && row.requestId === victim.name && row.resource === 'POST /scan/quick',
      )
    await waitFor(settlingOnVictim, 5_000, 5)
    const leaseLeftMs = Number(await store.send('PTTL', ['launch:lease']))
    process.kill(victim.child.pid, 'SIGKILL')
    const killedAt = Date.now()
    state.phase = 'degraded'
    const openAtKill = (await ledger(store)).filter(
      (row) => LIVE_STATES.includes(row.state) && row.requestId === victim.name,
    )
    await victim.exited
    log(
      `\nkilled ${victim.name} (SIGKILL), the launch-index lease holder for ${((killedAt - leaseStart(leases, holderId)) / 1000).toFixed(1)} s (its lease had ${leaseLeftMs} ms left), with ${openAtKill.length} payment(s) mid-call on it: ${countStates(openAtKill)}`,
    )
    await Bun.sleep(options.seconds * 500)
    await probe(2)
    const taken = await waitFor(
      () => leases.changes.some((change) => change.at > killedAt && change.holder !== null),
      leaseMs * 2,
      50,
    )
    const newHolder = leases.changes.find((change) => change.at > killedAt && change.holder !== null)
    const takeoverMs = taken && newHolder ? newHolder.at - killedAt : null
    await Bun.sleep(Math.max(0, killedAt + options.seconds * 1000 - Date.now()))
    // restart: the same instance on the same port, until HAProxy's health check has it up
    state.phase = 'restart'
    const restartedAt = Date.now()
    await spawn(victim.name, victim.port)
    const up = await waitFor(async () => (await lb.states())[victim.name] === 'UP', 20_000, 50)
    const upMs = Date.now() - restartedAt
    // recovered
    state.phase = 'recovered'
    await Bun.sleep(options.seconds * 500)
    await probe(3)
    await Bun.sleep(options.seconds * 500)
    state.stopped = true
    await traffic.done
    sandbox.faults.clear()
    const trafficMs = performance.now() - started
    state.phase = 'checks'

    printPhases(exchanges, log)
    log(`\nAnswers per instance (through the balancer): ${perServer(exchanges)}`)
    log(
      `\nThe kill: new lease holder ${takeoverMs === null ? 'none' : `${(takeoverMs / 1000).toFixed(2)} s after it`} (lease ${leaseMs / 1000} s, ${leaseLeftMs} ms left at the kill); ${victim.name} restarted and up in HAProxy ${(upMs / 1000).toFixed(1)} s after its start`,
    )
    if (!up) failures.push(`${victim.name} was not up in HAProxy 20 s after its restart`)

    // ——— the checks ———
    await checkTrades([...instances.values()], exchanges, failures, log)
    checkLimits(probes, failures, log)
    await checkLease({
      leases,
      instances: [...instances.values(), victim],
      killedAt,
      holderId,
      leaseLeftMs,
      takeoverMs,
      leaseMs,
      store,
      sandbox,
      failures,
      log,
    })
    await checkAttestation([...instances.values()], failures, log)
    // Last: it waits until what the killed instance left settling is older than any settlement takes.
    const money = await checkMoney({
      url,
      store,
      sandbox,
      exchanges,
      before,
      orphanedAt: killedAt + settleTimeoutMs + SETTLING_SLACK_MS + 500,
      failures,
      log,
    })
    const elapsedMs = performance.now() - started
    log(`\nElapsed: ${(elapsedMs / 1000).toFixed(1)} s (traffic ${(trafficMs / 1000).toFixed(1)} s); ${money}`)
    log(failures.length === 0 ? '\nchecks: all passed' : `\nchecks: ${failures.length} failed`)
    return { failures, exchanges, elapsedMs, trafficMs, takeoverMs, leaseLeftMs }
  } finally {
    for (const step of cleanup) await Promise.resolve(step()).catch(() => undefined)
  }
}

// ——— processes ———

/** `count` free TCP ports on loopback. */
async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () =>
    Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } }),
  )
  const ports = servers.map((server) => server.port)
  for (const server of servers) server.stop(true)
  return ports
}

/** One service process on `port`, its stdout read line by line for as long as it lives. */
async function startInstance(
  name: string,
  port: number,
  work: string,
  settings: Record<string, string>,
): Promise<Instance> {
  const child = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts')], {
    cwd: work,
    env: { PATH: process.env.PATH ?? '', ...settings, PORT: String(port), DATA_DIR: join(work, name) },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const lines: Record<string, unknown>[] = []
  let listening: (() => void) | undefined
  const ready = new Promise<void>((resolve) => (listening = resolve))
  void (async () => {
    const decoder = new TextDecoder()
    let buffer = ''
    for await (const chunk of child.stdout) {
      buffer += decoder.decode(chunk, { stream: true })
      for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
        const text = buffer.slice(0, newline)
        buffer = buffer.slice(newline + 1)
        if (text.includes('"msg":"request"')) continue
        try {
          const line = JSON.parse(text) as Record<string, unknown>
          lines.push(line)
          if (line.msg === 'listening') listening?.()
        } catch {
          // Not a log line.
        }
      }
    }
  })()
  const stderr = new Response(child.stderr).text()
  const exited = child.exited
  const outcome = await Promise.race([ready.then(() => 'ready'), exited.then(() => 'exited'), Bun.sleep(30_000)])
  if (outcome !== 'ready') {
    child.kill('SIGKILL')
    throw new Error(`instance ${name} did not start (${outcome ?? 'timeout'}): ${(await stderr).slice(0, 500)}`)
  }
  return { name, port, url: `http://127.0.0.1:${port}`, child, lines, exited }
}

/** The instance id an instance's log names (its lease lines do). */
function instanceIdOf(instance: Instance): string | undefined {
  return instance.lines.find((line) => typeof line.instance === 'string')?.instance as string | undefined
}

/** HAProxy on loopback, round-robin over the instances, health-checked on /health; its stats as CSV. */
async function startHaproxy(work: string, port: number, statsPort: number, instances: Instance[]) {
  const binary = haproxyBinary()!
  const config = `global
  maxconn 4096
defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 180s
  option forwardfor
  option redispatch
  retries 2
listen stats
  bind 127.0.0.1:${statsPort}
  stats enable
  stats uri /stats
frontend solsentry
  bind 127.0.0.1:${port}
  default_backend instances
backend instances
  balance roundrobin
  option httpchk GET /health
  http-check expect status 200
  http-response set-header x-served-by %[srv_name]
  # The instance's name as the request id, so the ledger records which instance took each payment.
  http-send-name-header x-request-id
  default-server inter ${CHECK_INTER_MS}ms fall 2 rise 2
${instances.map((instance) => `  server ${instance.name} 127.0.0.1:${instance.port} check`).join('\n')}
`
  const path = join(work, 'haproxy.cfg')
  writeFileSync(path, config)
  const version = (await new Response(Bun.spawn([binary, '-v']).stdout).text()).match(/version (\S+)/)?.[1] ?? '?'
  const child = Bun.spawn([binary, '-db', '-f', path], { stdout: 'ignore', stderr: 'pipe' })
  const url = `http://127.0.0.1:${port}`
  const states = async (): Promise<Record<string, string>> => {
    const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text()
    const rows = csv.split('\n').map((row) => row.split(','))
    const header = rows[0]!.map((cell) => cell.replace(/^# /, ''))
    const [px, sv, status] = ['pxname', 'svname', 'status'].map((name) => header.indexOf(name))
    return Object.fromEntries(
      rows
        .filter((row) => row[px!] === 'instances' && row[sv!]?.startsWith('s'))
        .map((row) => [row[sv!], row[status!]]),
    )
  }
  const healthy = await waitFor(
    async () => {
      const all = await states().catch(() => ({}) as Record<string, string>)
      return instances.every((instance) => all[instance.name] === 'UP')
    },
    15_000,
    50,
  )
  if (!healthy) {
    child.kill()
    throw new Error(`haproxy did not come up: ${(await new Response(child.stderr).text()).slice(0, 500)}`)
  }
  return {
    url,
    version,
    states,
    async stop() {
      child.kill()
      await child.exited
    },
  }
}

// ——— clients ———

/**
 * `fetch` over node:http from the loopback address `from`: the balancer sees each client at its own
 * address, as it would see clients on the internet (Bun's fetch cannot choose its source address).
 */
function fetchFrom(from: string, timeoutMs = 60_000): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const request = input instanceof Request && init === undefined ? input : new Request(input as string, init)
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined
    const target = new URL(request.url)
    const headers: Record<string, string> = {}
    request.headers.forEach((value, name) => {
      headers[name] = value
    })
    if (body) headers['content-length'] = String(body.length)
    return new Promise<Response>((resolve, reject) => {
      const sent = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method: request.method,
          headers,
          localAddress: from,
          agent: false,
        },
        (answer) => {
          const chunks: Buffer[] = []
          answer.on('data', (chunk: Buffer) => chunks.push(chunk))
          answer.on('error', reject)
          answer.on('end', () => {
            const out = new Headers()
            for (const [name, value] of Object.entries(answer.headers)) {
              if (Array.isArray(value)) for (const one of value) out.append(name, one)
              else if (value !== undefined) out.set(name, value)
            }
            resolve(new Response(Buffer.concat(chunks), { status: answer.statusCode ?? 0, headers: out }))
          })
        },
      )
      sent.on('error', reject)
      sent.setTimeout(timeoutMs, () => sent.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)))
      sent.end(body)
    })
  }) as typeof fetch
}

/**
 * A fetch that records every exchange (phase at sending, status, the instance, payment and receipt),
 * with `kind` deciding how each request is counted.
 */
function recording(
  inner: typeof fetch,
  exchanges: Exchange[],
  state: { phase: Phase },
  label: (request: Request) => Pick<Exchange, 'kind' | 'rail'>,
): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const request = input instanceof Request && init === undefined ? input : new Request(input as string, init)
    const phase = state.phase
    const payment = request.headers.get('payment-signature') ?? request.headers.get('x-payment')
    const sent = performance.now()
    const { kind, rail } = label(request)
    const sentBody = request.body ? await request.clone().text() : ''
    try {
      const answer = await inner(request)
      const body = await answer.text()
      exchanges.push({
        phase,
        kind,
        rail,
        status: answer.status,
        server: answer.headers.get('x-served-by'),
        payment,
        receipt: decodeReceipt(answer.headers.get('payment-response'))?.transaction ?? null,
        replayed: answer.headers.get('x-answer-replayed'),
        code: answer.status >= 400 ? codeOf(body) : null,
        body,
        sent: sentBody,
        ms: performance.now() - sent,
      })
      return new Response(body, { status: answer.status, headers: answer.headers })
    } catch (error) {
      exchanges.push({
        phase,
        kind,
        rail,
        status: 0,
        server: null,
        payment,
        receipt: null,
        replayed: null,
        code: (error as Error).message,
        body: '',
        sent: sentBody,
        ms: performance.now() - sent,
      })
      throw error
    }
  }) as typeof fetch
}

const codeOf = (body: string): string | null => {
  try {
    return (JSON.parse(body) as { code?: string }).code ?? null
  } catch {
    return null
  }
}

/**
 * The paying clients and the trader, until `state.stopped`: per rail, `workers` loops of paid quick
 * scans (a third carrying a payment identifier, whose payment is then presented again for the kept
 * answer), and one loop of trade quotes and executes (the fee on alternating rails).
 */
function startTraffic(env: {
  url: string
  sandbox: RunningSandbox
  mints: string[]
  blueChip: string
  state: { phase: Phase; stopped: boolean }
  exchanges: Exchange[]
  workers: number
}) {
  const { url, sandbox, mints, state, exchanges } = env
  const rails = ['solana', 'base'] as const
  const scanLoop = async (rail: (typeof rails)[number], worker: number) => {
    const { client } = await demoPayer(sandbox.file, rail)
    let paymentId: string | null = null
    client.onBeforePaymentCreation(async ({ paymentRequired }) => {
      if (!paymentId) return
      paymentRequired.extensions ??= {}
      appendPaymentIdentifierToExtensions(paymentRequired.extensions, paymentId)
    })
    for (let i = 0; !state.stopped; i++) {
      const from = `127.${10 + rails.indexOf(rail) * 8 + worker}.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`
      const base = fetchFrom(from)
      const paying = wrapFetchWithPayment(
        recording(base, exchanges, state, (request) => ({
          kind: request.headers.has('payment-signature') ? 'paid' : 'challenge',
          rail,
        })),
        client,
      )
      paymentId = i % 3 === 0 ? generatePaymentId() : null
      const body = JSON.stringify({ token_address: mints[i % mints.length] })
      const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body }
      try {
        const answer = await paying(`${url}/scan/quick`, init)
        await answer.arrayBuffer()
        // A retry after a dropped answer: the same payment, the same identifier, most likely another instance.
        const paid = exchanges.findLast((exchange) => exchange.kind === 'paid' && exchange.rail === rail)
        if (answer.status === 200 && paymentId && paid?.payment) {
          const again = recording(base, exchanges, state, () => ({ kind: 'replay', rail }))
          await (
            await again(`${url}/scan/quick`, {
              ...init,
              headers: { ...init.headers, 'payment-signature': paid.payment },
            })
          ).arrayBuffer()
        }
      } catch {
        // Recorded: a connection the balancer dropped (the instance behind it was killed).
      }
    }
  }
  const tradeLoop = async () => {
    const buyer = await sandbox.world.signer('demo-buyer')
    const payers = {
      solana: (await demoPayer(sandbox.file, 'solana')).client,
      base: (await demoPayer(sandbox.file, 'base')).client,
    }
    for (let i = 0; !state.stopped; i++) {
      const from = `127.40.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`
      const rail = rails[i % 2]!
      const base = fetchFrom(from)
      const quoting = recording(base, exchanges, state, () => ({ kind: 'quote', rail: null }))
      try {
        const quoted = await quoting(`${url}/trade/quote`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            input_mint: WRAPPED_SOL_MINT_ADDRESS,
            output_mint: env.blueChip,
            amount_in: '10000000',
            user_public_key: buyer.address,
          }),
        })
        if (quoted.status !== 200) continue
        const quote = (await quoted.json()) as { job_id: string; unsigned_transaction_b64: string }
        const transaction = getTransactionDecoder().decode(Buffer.from(quote.unsigned_transaction_b64, 'base64'))
        const signed = getBase64EncodedWireTransaction(await partiallySignTransaction([buyer.keyPair], transaction))
        const executing = wrapFetchWithPayment(
          recording(base, exchanges, state, (request) => ({
            kind: request.headers.has('payment-signature') ? 'execute' : 'challenge',
            rail,
          })),
          payers[rail],
        )
        const executed = await executing(`${url}/trade/execute`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ job_id: quote.job_id, signed_transaction_b64: signed }),
        })
        await executed.arrayBuffer()
      } catch {
        // Recorded.
      }
    }
  }
  const loops = [
    ...rails.flatMap((rail) => Array.from({ length: env.workers }, (_, worker) => scanLoop(rail, worker))),
    tradeLoop(),
  ]
  return { done: Promise.all(loops) }
}

/** LIMIT_BURST + 4 unpaid scans from one address through the balancer: the statuses and the instances that answered. */
async function probeLimit(url: string, from: string, mint: string, phase: Phase, exchanges: Exchange[]) {
  const fetcher = recording(fetchFrom(from), exchanges, { phase }, () => ({ kind: 'probe', rail: null }))
  const statuses: number[] = []
  const servers: string[] = []
  const started = performance.now()
  for (let i = 0; i < LIMIT_BURST + 4; i++) {
    const answer = await fetcher(`${url}/scan/quick`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token_address: mint }),
    })
    await answer.arrayBuffer()
    statuses.push(answer.status)
    servers.push(answer.headers.get('x-served-by') ?? '?')
  }
  return { statuses, servers, ms: performance.now() - started }
}

// ——— what the cluster holds ———

/** Rails offered through the balancer, summed over a few calls (each instance reads /supported itself). */
async function offeredRails(url: string): Promise<number> {
  let offered = 0
  for (let i = 0; i < 3; i++) {
    const answer = await fetch(`${url}/trade/currencies`).catch(() => undefined)
    if (!answer?.ok) continue
    const { currencies } = (await answer.json()) as { currencies: { accepted: boolean }[] }
    offered += currencies.filter((currency) => currency.accepted).length
  }
  return offered
}

async function treasuries(sandbox: RunningSandbox) {
  return {
    solana: await usdcOf(sandbox, sandbox.file.x402.solana.pay_to),
    base: await sandbox.evm.usdcBalance(sandbox.file.x402.base.pay_to as `0x${string}`),
  }
}

/** The lease's holder, sampled every 50 ms: each change with its time. */
function watchLease(store: Redis) {
  const changes: { at: number; holder: string | null }[] = []
  let running = true
  const done = (async () => {
    let last: string | null | undefined
    while (running) {
      const holder = (await store.send('GET', ['launch:lease']).catch(() => last ?? null)) as string | null
      if (holder !== last) changes.push({ at: Date.now(), holder })
      last = holder
      await Bun.sleep(50)
    }
  })()
  return {
    changes,
    async stop() {
      running = false
      await done
    },
  }
}

const leaseStart = (leases: { changes: { at: number; holder: string | null }[] }, holder: string | null) =>
  leases.changes.findLast((change) => change.holder === holder)?.at ?? Date.now()

type LedgerRow = {
  key: string
  /** The request id: the instance's name, which HAProxy sends as x-request-id. */
  requestId: string
  resource: string
  state: string
  network: string
  amount: string
  tx: string | null
  reason: string | null
}

async function ledger(store: Redis): Promise<LedgerRow[]> {
  const keys = (await store.send('KEYS', ['solsentry:payment:*'])) as string[]
  return Promise.all(
    keys.map(async (key) => {
      const hash = (await store.send('HGETALL', [key])) as Record<string, string>
      return {
        key: hash.key!,
        requestId: hash.request_id ?? '',
        resource: hash.resource ?? '',
        state: hash.state!,
        network: hash.network!,
        amount: hash.amount!,
        tx: hash.tx ?? null,
        reason: hash.reason ?? null,
      }
    }),
  )
}

const countStates = (rows: { state: string }[]) => {
  const counts = new Map<string, number>()
  for (const row of rows) counts.set(row.state, (counts.get(row.state) ?? 0) + 1)
  return [...counts].map(([state, count]) => `${count} ${state}`).join(', ') || 'none'
}

/** Requests, answers by status, charges (payments presented) and settlements, per phase. */
function printPhases(exchanges: Exchange[], log: (line?: string) => void): void {
  log(
    '\n| phase | requests | answers by status | payments presented | settled (receipts) | replayed | dropped (no answer) |',
  )
  log('|---|---|---|---|---|---|---|')
  for (const phase of [...PHASES, 'checks'] as Phase[]) {
    const rows = exchanges.filter((exchange) => exchange.phase === phase)
    if (rows.length === 0) continue
    const statuses = new Map<string, number>()
    for (const row of rows) {
      const label =
        row.status === 0
          ? 'none'
          : row.status === 503 || row.status === 502
            ? `${row.status}${row.code ? ` ${row.code}` : ''}`
            : String(row.status)
      statuses.set(label, (statuses.get(label) ?? 0) + 1)
    }
    const by = [...statuses]
      .sort()
      .map(([status, count]) => `${status} ×${count}`)
      .join(', ')
    const presented = rows.filter((row) => row.payment).length
    const settled = rows.filter((row) => row.receipt && !row.replayed && row.status === 200).length
    const replayed = rows.filter((row) => row.replayed).length
    const dropped = rows.filter((row) => row.status === 0 || row.status === 502).length
    log(`| ${phase} | ${rows.length} | ${by} | ${presented} | ${settled} | ${replayed} | ${dropped} |`)
  }
}

function perServer(exchanges: Exchange[]): string {
  const counts = new Map<string, number>()
  for (const exchange of exchanges)
    if (exchange.server) counts.set(exchange.server, (counts.get(exchange.server) ?? 0) + 1)
  return [...counts]
    .sort()
    .map(([server, count]) => `${server} ${count}`)
    .join(', ')
}

/**
 * The money. What the killed instance left mid-call is listed; once past the time any settlement
 * takes, every payment that moved (or may have) without its caller getting the answer is presented
 * again through the balancer: answered (the kept answer, or the credit redeemed) or a 402 pending is
 * collectable, anything else is a lost paid answer. Then the treasuries must have moved exactly by
 * what the ledger holds as moved (settled, or credited: found on chain, owed a call), with one
 * transaction per payment and no payment answered with a fresh settlement twice.
 */
async function checkMoney(env: {
  url: string
  store: Redis
  sandbox: RunningSandbox
  exchanges: Exchange[]
  before: { solana: bigint; base: bigint }
  /** When what the killed instance left settling is taken for orphaned. */
  orphanedAt: number
  failures: string[]
  log: (line?: string) => void
}): Promise<string> {
  const { store, sandbox, exchanges, failures, log, url } = env
  const byKey = new Map<string, Exchange[]>()
  for (const exchange of exchanges)
    if (exchange.payment) {
      const key = ledgerKeyOf(exchange.payment)
      byKey.set(key, [...(byKey.get(key) ?? []), exchange])
    }
  const answered = (key: string) => (byKey.get(key) ?? []).some((exchange) => exchange.status === 200)
  let rows = await ledger(store)
  log(`\nLedger after the traffic: ${countStates(rows)}`)
  const left = rows.filter((row) => LIVE_STATES.includes(row.state) || row.state === 'pending')
  if (left.length > 0) {
    log(`Open after the traffic (nothing is in flight now): ${countStates(left)}`)
    for (const row of left)
      log(
        `  ${row.state} ${row.network.split(':')[0]} ${row.resource}: ${
          row.state === 'verifying' || row.state === 'verified'
            ? `never sent for settlement, nothing charged; released after ${STALE_OPEN_MS / 60_000} min (STALE_OPEN_MS)`
            : (row.reason ?? 'its settlement was sent; the outcome was not recorded')
        }`,
      )
  }

  const mayHaveMoved = (row: LedgerRow) =>
    ['settled', 'credited', 'pending', 'settling', 'redeeming'].includes(row.state)
  const unanswered = rows.filter((row) => mayHaveMoved(row) && !answered(row.key))
  // A payment left settling is taken for orphaned once older than any settlement takes.
  if (unanswered.length > 0) await Bun.sleep(Math.max(0, env.orphanedAt - Date.now()))
  const outcomes: { row: LedgerRow; what: string; outcome: string }[] = []
  const owed: { row: LedgerRow; payment: string; body: string }[] = []
  for (const row of unanswered) {
    const first = (byKey.get(row.key) ?? []).find((exchange) => exchange.kind === 'paid' || exchange.kind === 'execute')
    if (!first) {
      failures.push(`ledger payment ${row.key} (${row.state}) matches no payment the clients sent`)
      continue
    }
    if (first.kind === 'execute') {
      // A trade's fee is not presented again: the ledger resolves it (each instance's 30 s pass), its job reads it.
      const resolved = await waitFor(
        async () => ['settled', 'credited', 'failed'].includes((await ledgerRow(store, row.key))?.state ?? ''),
        40_000,
        250,
      )
      const now = await ledgerRow(store, row.key)
      outcomes.push({
        row,
        what: 'trade fee',
        outcome: resolved ? `resolved from the chain: ${now?.state}` : `NOT resolved: ${now?.state}`,
      })
      if (!resolved)
        failures.push(`a trade fee left ${row.state} by the killed instance was not resolved from the chain`)
      continue
    }
    let again = await presentAgain(url, first.payment!, first.sent)
    exchanges.push(again)
    let what = 'scan'
    if (again.status === 0 && identifierOf(first.payment!)) {
      // Its payment identifier is still held by the dead instance's run: the same payment without it.
      outcomes.push({ row, what: 'scan with a payment identifier', outcome: `held by the dead run: ${again.code}` })
      again = await presentAgain(url, withoutIdentifier(first.payment!), first.sent)
      exchanges.push(again)
      what = 'the same payment without its identifier'
    }
    const body = parse(again.body) as {
      message?: string
      settlement?: { state?: string; transaction?: string | null }
    }
    const collectable = again.status === 200 || (again.status === 402 && body.settlement?.state === 'pending')
    outcomes.push({
      row,
      what,
      outcome: collectable
        ? again.status === 200
          ? `answered${again.replayed ? ` (${again.replayed})` : ''}${again.receipt ? ', with a receipt' : ''}`
          : `402 pending${body.settlement?.transaction ? ` (${body.settlement.transaction.slice(0, 10)}…)` : ''}: present again later`
        : `NOT collectable: ${again.status} ${again.code ?? ''} ${body.message ?? again.body.slice(0, 120)}`,
    })
    if (!collectable)
      failures.push(
        `a payment that ${row.state === 'settled' ? 'settled' : `may have moved (${row.state})`} has no answer and is not collectable: ${again.status} ${body.message ?? again.body.slice(0, 200)}`,
      )
    if (again.status === 402 && collectable) owed.push({ row, payment: again.payment!, body: first.sent })
  }
  // Pending: the chain decides. What the treasuries hold beyond the ledger's settled and credited
  // payments moved for payments still pending; those are credited at an instance's next 30 s pass and
  // then collected. A pending payment that has not moved may still land until its blockhash or
  // authorization expires (then it fails, nothing charged): nothing is owed for it yet.
  const movedUnbooked = async () => {
    const [now, after] = [await ledger(store), await treasuries(sandbox)]
    const booked = (prefix: string) =>
      now
        .filter((row) => row.network.startsWith(prefix) && ['settled', 'credited', 'redeeming'].includes(row.state))
        .reduce((sum, row) => sum + BigInt(row.amount), 0n)
    return after.solana - env.before.solana - booked('solana:') + (after.base - env.before.base - booked('eip155:'))
  }
  if (owed.length > 0 && (await movedUnbooked()) === 0n)
    for (const { row } of owed)
      outcomes.push({ row, what: 'on chain', outcome: 'not moved yet: pending until it lands or can never land' })
  else
    for (const { row, payment, body } of owed) {
      const resolved = await waitFor(
        async () => ['credited', 'failed'].includes((await ledgerRow(store, row.key))?.state ?? ''),
        35_000,
        250,
      )
      const now = (await ledgerRow(store, row.key))?.state
      if (!resolved) {
        outcomes.push({ row, what: 'scan, once more', outcome: `NOT resolved from the chain within 35 s: ${now}` })
        failures.push(`a pending payment was not resolved from the chain within 35 s (${now})`)
        continue
      }
      if (now === 'failed') {
        outcomes.push({ row, what: 'scan, once more', outcome: 'failed on chain: nothing was charged' })
        continue
      }
      const collected = await presentAgain(url, payment, body)
      exchanges.push(collected)
      outcomes.push({
        row,
        what: 'scan, once more',
        outcome:
          collected.status === 200
            ? `credited from the chain, then answered${collected.receipt ? ', with a receipt' : ''}`
            : `NOT answered: ${collected.status} ${collected.code}`,
      })
      if (collected.status !== 200)
        failures.push(`a credited payment presented again was not answered: ${collected.status} ${collected.code}`)
    }
  if (outcomes.length > 0) {
    log('\nPayments that moved (or may have) whose caller got no answer, presented again through the balancer:\n')
    log('| ledger state then | rail | presented | outcome |')
    log('|---|---|---|---|')
    for (const { row, what, outcome } of outcomes)
      log(`| ${row.state} | ${row.network.split(':')[0]} | ${what} | ${outcome} |`)
  } else log('Every payment that moved was answered.')

  rows = await ledger(store)
  const after = await treasuries(sandbox)
  const moved = (network: string) =>
    rows
      .filter((row) => row.network.startsWith(network) && ['settled', 'credited', 'redeeming'].includes(row.state))
      .reduce((sum, row) => sum + BigInt(row.amount), 0n)
  const deltas = { solana: after.solana - env.before.solana, base: after.base - env.before.base }
  const booked = { solana: moved('solana:'), base: moved('eip155:') }
  log('\n| rail | treasury moved (on chain) | ledger: settled + credited | match |')
  log('|---|---|---|---|')
  for (const rail of ['solana', 'base'] as const) {
    const match = deltas[rail] === booked[rail]
    log(`| ${rail} | ${usdc(deltas[rail])} USDC | ${usdc(booked[rail])} USDC | ${match ? 'yes' : 'NO'} |`)
    if (!match)
      failures.push(
        `${rail}: the treasury moved ${deltas[rail]} atomic USDC, the ledger books ${booked[rail]} as moved`,
      )
  }
  // No payment settled twice: one transaction per payment, each answer with a fresh receipt its own payment's.
  const settled = rows.filter((row) => ['settled', 'credited', 'redeeming'].includes(row.state))
  const txs = settled.map((row) => row.tx).filter(Boolean)
  if (new Set(txs).size !== txs.length) failures.push('a settlement transaction is booked for two payments')
  const fresh = exchanges.filter(
    (exchange) => exchange.status === 200 && exchange.receipt && !exchange.replayed && exchange.kind !== 'again',
  )
  const freshByKey = new Map<string, number>()
  for (const exchange of fresh) {
    const key = ledgerKeyOf(exchange.payment!)
    freshByKey.set(key, (freshByKey.get(key) ?? 0) + 1)
  }
  const twice = [...freshByKey].filter(([, count]) => count > 1)
  if (twice.length > 0) failures.push(`${twice.length} payment(s) answered with a fresh settlement twice`)
  const unbooked = [...freshByKey.keys()].filter(
    (key) => !rows.some((row) => row.key === key && row.state === 'settled'),
  )
  if (unbooked.length > 0)
    failures.push(`${unbooked.length} answer(s) with a receipt whose payment the ledger does not hold settled`)
  // Retries with a payment identifier got the first answer's bytes and charged nothing more.
  const replays = exchanges.filter((exchange) => exchange.kind === 'replay')
  const replayedOk = replays.filter((exchange) => exchange.status === 200 && exchange.replayed === 'payment-identifier')
  const sameBytes = replayedOk.filter(
    (exchange) => fresh.find((candidate) => candidate.payment === exchange.payment)?.body === exchange.body,
  )
  log(
    `\nPayment-identifier retries (the same payment again, most often to another instance): ${replays.length}; answered from the kept answer ${replayedOk.length}, with the first answer's bytes ${sameBytes.length}`,
  )
  const refused = replays.filter(
    (exchange) => exchange.status !== 200 && exchange.status !== 0 && exchange.status !== 502,
  )
  if (refused.length > 0)
    failures.push(
      `a payment-identifier retry was not answered from the kept answer: ${refused.map((exchange) => `${exchange.status} ${exchange.code}`).join(', ')}`,
    )
  if (sameBytes.length !== replayedOk.length) failures.push('a replayed answer differs from the first answer')
  // Left open at the end: only payments that have not moved (the treasuries match the ledger above).
  const open = rows.filter((row) => row.state === 'settling' || row.state === 'pending')
  log(`Ledger at the end: ${countStates(rows)}`)
  if (rows.some((row) => row.state === 'settling'))
    failures.push(`a payment is still settling at the end: ${countStates(open)}`)
  else if (open.length > 0)
    log(`  (pending, not moved: ${open.length}; each fails once its blockhash or authorization expires)`)
  return `${settled.length} payments moved (${usdc(deltas.solana + deltas.base)} USDC), ${fresh.length} answered with a fresh receipt, ${replayedOk.length} replayed`
}

const usdc = (atomic: bigint) => (Number(atomic) / 1e6).toFixed(2)

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return {}
  }
}

const decodeHeader = (header: string) => JSON.parse(Buffer.from(header, 'base64').toString()) as Record<string, any>

function identifierOf(header: string): string | undefined {
  return decodeHeader(header).extensions?.['payment-identifier']?.info?.id
}

function withoutIdentifier(header: string): string {
  const payload = decodeHeader(header)
  delete payload.extensions['payment-identifier']
  return Buffer.from(JSON.stringify(payload)).toString('base64')
}

async function ledgerRow(store: Redis, key: string): Promise<LedgerRow | undefined> {
  return (await ledger(store)).find((row) => row.key === key)
}

/** Every job quoted, read from every instance directly: the same status and fee from each. */
async function checkTrades(
  instances: Instance[],
  exchanges: Exchange[],
  failures: string[],
  log: (line?: string) => void,
): Promise<void> {
  const jobs = exchanges
    .filter((exchange) => exchange.kind === 'quote' && exchange.status === 200)
    .map((exchange) => ({ id: (JSON.parse(exchange.body) as { job_id: string }).job_id, quotedBy: exchange.server }))
  const executes = exchanges.filter((exchange) => exchange.kind === 'execute')
  const statuses = new Map<string, number>()
  let agreed = 0
  let n = 0
  for (const job of jobs) {
    const reads = await Promise.all(
      instances.map(async (instance) => {
        const answer = await fetchFrom(`127.33.${Math.floor(n / 250) % 250}.${(n++ % 250) + 1}`)(
          `${instance.url}/trade/status/${job.id}`,
        )
        const body = (await answer.json()) as { status?: string; fee?: { status: string } | null }
        return { instance: instance.name, http: answer.status, status: body.status, fee: body.fee?.status ?? null }
      }),
    )
    const first = reads[0]!
    const same = reads.every((read) => read.http === 200 && read.status === first.status && read.fee === first.fee)
    if (same) agreed++
    else failures.push(`trade job ${job.id} reads differently across instances: ${JSON.stringify(reads)}`)
    const label = `${first.status}${first.fee ? ` (fee ${first.fee})` : ''}`
    statuses.set(label, (statuses.get(label) ?? 0) + 1)
  }
  const quotedOn = new Set(jobs.map((job) => job.quotedBy))
  log(
    `\nTrade jobs: ${jobs.length} quoted (on ${[...quotedOn].sort().join(', ')}), ${executes.length} executes sent (${executes.filter((e) => e.status === 200).length} answered 200); each read from all ${instances.length} instances directly: ${agreed} read the same everywhere`,
  )
  log(`  their status now: ${[...statuses].map(([status, count]) => `${status} ×${count}`).join(', ') || 'none'}`)
  if (jobs.length === 0) failures.push('no trade was quoted')
}

/** One client's burst through the balancer: limited once for the cluster, whichever instance answers. */
function checkLimits(
  probes: { phase: Phase; statuses: number[]; servers: string[]; ms: number }[],
  failures: string[],
  log: (line?: string) => void,
): void {
  log(`\nOne client's burst (a new address each time; the limit is ${LIMIT_BURST}, then 429):\n`)
  log('| phase | statuses | answered by | took | held |')
  log('|---|---|---|---|---|')
  for (const probe of probes) {
    const allowed = probe.statuses.filter((status) => status === 402).length
    const exact =
      probe.statuses.slice(0, LIMIT_BURST).every((status) => status === 402) &&
      probe.statuses.slice(LIMIT_BURST).every((status) => status === 429)
    // An instance whose take from Redis is slower than 100 ms counts alone with its own bucket
    // (src/store/buckets-redis.ts): a machine under load can let one more through. Limits kept per
    // instance would let the whole probe through (three instances, three calls each).
    const shared = probe.statuses.includes(429) && allowed <= LIMIT_BURST + 1
    const spread = new Set(probe.servers).size
    const held = exact ? 'yes' : shared ? `yes, ${allowed - LIMIT_BURST} more (an instance counted alone)` : 'NO'
    log(
      `| ${probe.phase} | ${probe.statuses.join(' ')} | ${probe.servers.join(' ')} | ${Math.round(probe.ms)} ms | ${held} |`,
    )
    if (!exact && !shared)
      failures.push(`the per-client limit was not the cluster's (${probe.phase}): ${probe.statuses.join(' ')}`)
    if (spread < 2) failures.push(`the ${probe.phase} probe reached one instance only: it shows nothing shared`)
  }
}

/**
 * One launch-index ingester at a time (each instance's lease lines: taken … lost, or killed), a new
 * one within the lease after the kill, and the new one ingesting (a coin the launchpad made after the
 * takeover is in the shared index).
 */
async function checkLease(env: {
  leases: { changes: { at: number; holder: string | null }[] }
  instances: Instance[]
  killedAt: number
  holderId: string | null
  leaseLeftMs: number
  takeoverMs: number | null
  leaseMs: number
  store: Redis
  sandbox: RunningSandbox
  failures: string[]
  log: (line?: string) => void
}): Promise<void> {
  const { leases, instances, killedAt, failures, log, takeoverMs } = env
  const nameOf = (id: string | null) => {
    if (id === null) return '(none)'
    const owner = instances.find((instance) => instance.lines.some((line) => line.instance === id))
    return owner ? `${owner.name} (${id.slice(0, 8)})` : id.slice(0, 8)
  }
  log('\nThe launch-index lease, as Redis held it (sampled every 50 ms):')
  const t0 = leases.changes[0]?.at ?? killedAt
  for (const change of leases.changes) log(`  +${((change.at - t0) / 1000).toFixed(2)} s  ${nameOf(change.holder)}`)
  log(`  (killed at +${((killedAt - t0) / 1000).toFixed(2)} s)`)
  // Ingesting intervals from the instances' own lines.
  type Interval = { who: string; from: number; to: number }
  const intervals: Interval[] = []
  const seen = new Set<Instance>()
  for (const instance of instances) {
    if (seen.has(instance)) continue
    seen.add(instance)
    let from: number | null = null
    for (const line of instance.lines) {
      if (line.msg === 'launchpad ingester: lease taken, ingesting') from = Number(line.time)
      if (line.msg === 'launchpad ingester: lease lost, standing by' && from !== null) {
        intervals.push({ who: instance.name, from, to: Number(line.time) })
        from = null
      }
    }
    if (from !== null) {
      const killed = instance.lines.some((line) => line.instance === env.holderId) && from < killedAt
      intervals.push({ who: instance.name, from, to: killed ? killedAt : Date.now() })
    }
  }
  intervals.sort((a, b) => a.from - b.from)
  const overlaps = intervals.filter((interval, i) => i > 0 && interval.from < intervals[i - 1]!.to)
  log(
    `Ingesting (from the instances' logs): ${intervals.map((interval) => `${interval.who} ${((interval.from - t0) / 1000).toFixed(1)}–${((interval.to - t0) / 1000).toFixed(1)} s`).join(', ')}`,
  )
  if (overlaps.length > 0) failures.push(`two instances ingested at once: ${JSON.stringify(overlaps)}`)
  if (intervals.length < 2) failures.push('no instance took the ingestion over after the kill')
  if (takeoverMs === null) failures.push(`no new lease holder within ${(env.leaseMs * 2) / 1000} s of the kill`)
  // Within the lease's time left at the kill (at most the lease), give or take the 50 ms sampling and timers.
  else if (takeoverMs > Math.min(env.leaseLeftMs, env.leaseMs) + TAKEOVER_SLACK_MS)
    failures.push(
      `the new lease holder came ${takeoverMs} ms after the kill, later than the lease allows (${env.leaseLeftMs} ms were left of ${env.leaseMs} ms)`,
    )
  // The new holder ingests: the launchpad's newest coin reaches the shared index.
  const newest = env.sandbox.ticker.coins.at(-1)?.mint
  const indexed =
    newest !== undefined &&
    (await waitFor(async () => Number(await env.store.send('EXISTS', [`launch:curve:${newest}`])) === 1, 10_000))
  log(
    `The launchpad's newest coin in the shared index: ${indexed ? 'yes' : 'NO'} (${env.sandbox.ticker.coins.length} coins made)`,
  )
  if (!indexed) failures.push("the launchpad's newest coin did not reach the shared index after the takeover")
}

/** Every instance signs with the same attestation key (/.well-known/x402). */
async function checkAttestation(instances: Instance[], failures: string[], log: (line?: string) => void) {
  const live = instances.filter((instance) => instance.child.exitCode === null)
  const keys = await Promise.all(
    live.map(async (instance) => {
      const manifest = (await (await fetch(`${instance.url}/.well-known/x402`)).json()) as {
        attestation: { public_key: string }
      }
      return manifest.attestation.public_key
    }),
  )
  const one = new Set(keys).size === 1
  log(
    `\nAttestation key: ${one ? `one for the ${live.length} instances (${keys[0]?.slice(0, 12)}…)` : 'DIFFERENT per instance'}`,
  )
  if (!one) failures.push('the instances sign with different attestation keys')
}

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, intervalMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return true
    await Bun.sleep(intervalMs)
  }
  return false
}

/** A payment presented again with the same request, through the balancer (an answer within 8 s, else none). */
async function presentAgain(url: string, payment: string, body: string): Promise<Exchange> {
  const exchanges: Exchange[] = []
  const fetcher = recording(fetchFrom('127.32.0.1', 8_000), exchanges, { phase: 'checks' }, () => ({
    kind: 'again',
    rail: null,
  }))
  await fetcher(`${url}/scan/quick`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'payment-signature': payment },
    body,
  }).catch(() => undefined)
  return exchanges[0]!
}
