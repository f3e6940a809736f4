/**
 * Honest health against real peers: the sandbox's servers answering, one faulted down, and a service
 * pointed at closed ports (no network); `solsentry doctor` against both; the entry's --help and
 * --version (docs/operations.md, "Health").
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { createApp } from '../src/app.ts'
import { closeContext, createContext } from '../src/context.ts'
import { runDoctor } from '../src/doctor.ts'
import { loadConfig } from '../src/settings.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { eventually } from './support/eventually.ts'

const ROOT = join(import.meta.dir, '..')
const INTERVAL_MS = 300
const sandbox = await startSandbox(ephemeralSandboxOptions())
afterAll(() => sandbox.stop())

/** A port nothing listens on: one the OS handed out, closed again. */
function closedPort(): number {
  const server = Bun.serve({ port: 0, fetch: () => new Response() })
  const { port } = server
  server.stop(true)
  return port!
}

const CLOSED = `http://127.0.0.1:${closedPort()}`
/** The mainnet profile with every upstream at a closed port: a machine with no network. */
const NO_NETWORK = {
  SOLSENTRY_PROFILE: 'mainnet',
  PUBLIC_URL: 'https://solsentry.example',
  PAY_TO_SOLANA: 'So11111111111111111111111111111111111111112',
  PAY_TO_BASE: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  FACILITATOR_URL: CLOSED,
  SOLANA_RPC_URL: CLOSED,
  DEXSCREENER_URL: CLOSED,
  JUPITER_URL: CLOSED,
  LIFI_URL: CLOSED,
  NEWS_FEEDS: `${CLOSED}/rss`,
  X_API_URL: CLOSED,
  BASE_RPC_URL: CLOSED,
}

function service(settings: Record<string, string>) {
  const ctx = createContext(
    loadConfig({
      DATA_DIR: ':memory:',
      LOG_LEVEL: 'silent',
      HEALTH_PROBE_INTERVAL_MS: String(INTERVAL_MS),
      ...settings,
    }),
  )
  const app = createApp(ctx)
  const health = async () => (await (await app.handle(new Request('http://local/health'))).json()) as any
  return { ctx, health }
}

describe('/health from real probes', () => {
  test('unknown until the first probe, then ok while the sandbox answers', async () => {
    const { ctx, health } = service(sandbox.serviceSettings)
    try {
      const before = await health()
      expect(before.status).toBe('unknown')
      expect(before.sources).toMatchObject({ solana_rpc: 'unknown', dexscreener: 'unknown', facilitator: 'unknown' })
      ctx.health.start(ctx.config.HEALTH_PROBE_INTERVAL_MS)
      const after = await eventually('health', health, (body) => body.status === 'ok', { timeoutMs: INTERVAL_MS * 10 })
      expect(after.sources).toMatchObject({
        store: 'ok',
        solana_rpc: 'ok',
        dexscreener: 'ok',
        jupiter: 'ok',
        facilitator: 'ok',
        // Not probed (each call counts against a plan): unknown until the service calls them.
        lifi: 'unknown',
        x: 'unknown',
        llm: 'unknown',
      })
      expect(after.probes.solana_rpc).toMatch(/^getSlot answered slot \d+$/)
      expect(after.routes_failing).toEqual([])
    } finally {
      await closeContext(ctx)
    }
  })

  test('a server faulted down reads down within one probe interval, and the routes it serves are named', async () => {
    const { ctx, health } = service(sandbox.serviceSettings)
    ctx.health.start(INTERVAL_MS)
    try {
      await eventually('health', health, (body) => body.status === 'ok', { timeoutMs: INTERVAL_MS * 10 })
      sandbox.faults.set('facilitator', '/supported', { kind: 'down' })
      const faulted = Date.now()
      const down = await eventually('health', health, (body) => body.sources.facilitator === 'down', {
        timeoutMs: INTERVAL_MS * 4,
        intervalMs: 20,
      })
      // One interval, plus the probe's own round trip and the reading's second of reuse.
      expect(Date.now() - faulted).toBeLessThan(INTERVAL_MS + 1_500)
      expect(down.status).toBe('degraded')
      expect(down.probes.facilitator).toContain('server_error')
      const paid = down.routes_failing.find((entry: { why: string }) => entry.why.startsWith('facilitator is down'))
      expect(paid.routes).toContain('POST /scan/quick')
      expect(paid.routes).not.toContain('GET /health')
    } finally {
      sandbox.faults.clear()
      await closeContext(ctx)
    }
  })

  test('mainnet with no network: every probed dependency down within one interval, the whole down', async () => {
    const { ctx, health } = service(NO_NETWORK)
    ctx.health.start(INTERVAL_MS)
    try {
      const body = await eventually('health', health, (reading) => reading.status === 'down', {
        timeoutMs: INTERVAL_MS + 2_000,
        intervalMs: 20,
      })
      expect(body.sources).toMatchObject({
        store: 'ok',
        solana_rpc: 'down',
        dexscreener: 'down',
        jupiter: 'down',
        facilitator: 'down',
        [`news:127.0.0.1:${new URL(CLOSED).port}`]: 'down',
      })
      expect(body.probes.dexscreener).toContain('network')
      // Free routes that need no upstream still answer; every priced one waits on the facilitator.
      const [failing] = body.routes_failing
      expect(failing.why).toStartWith('facilitator is down (facilitator: network')
      expect(failing.routes).toContain('POST /scan/quick')
    } finally {
      await closeContext(ctx)
    }
  })
})

describe('solsentry doctor', () => {
  test('against the sandbox: everything the service needs answers', async () => {
    const report = await runDoctor(loadConfig({ DATA_DIR: ':memory:', ...sandbox.serviceSettings }))
    expect(report.healthy).toBe(true)
    const row = (dependency: string, check: string) =>
      report.rows.find((entry) => entry.dependency === dependency && entry.check === check)
    expect(row('solana_rpc', 'getSlot')?.result).toBe('ok')
    expect(row('solana_rpc', 'getAccountInfo')?.result).toBe('ok')
    expect(row('facilitator', 'GET /supported, the rails’ networks')?.result).toBe('ok')
    expect(report.rows.filter((entry) => entry.needed && entry.result !== 'ok')).toEqual([])
  })

  test('against closed ports: exits 1 and names each failure with what to change', async () => {
    const child = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts'), 'doctor'], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: ':memory:', ...NO_NETWORK },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [code, out] = await Promise.all([child.exited, new Response(child.stdout).text()])
    expect(code).toBe(1)
    for (const setting of ['SOLANA_RPC_URL', 'DEXSCREENER_URL', 'JUPITER_URL', 'FACILITATOR_URL'])
      expect(out).toContain(`→ check ${setting} (${CLOSED})`)
    expect(out).toMatch(/solana_rpc +getAccountInfo +FAILED/)
    expect(out).toContain('did not pass: solana_rpc, dexscreener, jupiter, facilitator')
  })

  test('a Solana payee without a token account for the payment asset: named, with how to make one (every Solana payment would be refused)', async () => {
    const { generateKeyPairSigner } = await import('@solana/kit')
    const fresh = (await generateKeyPairSigner()).address
    const report = await runDoctor(
      loadConfig({ DATA_DIR: ':memory:', ...sandbox.serviceSettings, PAY_TO_SOLANA: fresh }),
    )
    const payee = report.rows.find((row) => row.dependency === 'payee')
    expect(payee).toMatchObject({
      result: 'failed',
      needed: true,
      detail: expect.stringContaining('InvalidAccountData'),
    })
    expect(payee?.fix).toContain(`--owner ${fresh}`)
    expect(report.healthy).toBe(false)
    // The sandbox's own payee has one.
    const ok = await runDoctor(loadConfig({ DATA_DIR: ':memory:', ...sandbox.serviceSettings }))
    expect(ok.rows.find((row) => row.dependency === 'payee')?.result).toBe('ok')
  })

  test('with no facilitator at all (nothing configured): not healthy, whatever the profile — every paid route would answer 503', async () => {
    const report = await runDoctor(loadConfig({ DATA_DIR: ':memory:' }))
    expect(report.rows.find((row) => row.check === 'FACILITATOR_URL')).toMatchObject({ result: 'failed', needed: true })
    expect(report.healthy).toBe(false)
  })
})

describe('Jupiter: the probes ask the swap API the service is set to use, and say what fails', () => {
  /** The jupiter probe's reading on /health for a service with `settings` over the sandbox. */
  async function jupiterOnHealth(settings: Record<string, string> = {}) {
    const { ctx, health } = service({ ...sandbox.serviceSettings, ...settings })
    try {
      await ctx.health.probe('jupiter')
      const body = await health()
      return { state: body.sources.jupiter as string, probe: body.probes.jupiter as string }
    } finally {
      await closeContext(ctx)
    }
  }
  const requestsTo = (path: string) => sandbox.faults.countOf(`jupiter:${path}`)
  const doctorRow = async (settings: Record<string, string> = {}) => {
    const report = await runDoctor(loadConfig({ DATA_DIR: ':memory:', ...sandbox.serviceSettings, ...settings }))
    return {
      report,
      row: report.rows.find((row) => row.dependency === 'jupiter' && row.check.startsWith('GET /tokens'))!,
    }
  }

  test.each([
    ['v2', '/swap/v2/order', '/swap/v1/quote'],
    ['v1', '/swap/v1/quote', '/swap/v2/order'],
  ])('JUPITER_SWAP_API=%s: /health prices SOL in USDC on %s, never on %s', async (api, own, other) => {
    const before = { own: requestsTo(own), other: requestsTo(other) }
    const reading = await jupiterOnHealth({ JUPITER_SWAP_API: api })
    expect(reading.state).toBe('ok')
    expect(reading.probe).toMatch(new RegExp(`swap API ${api} \\(GET ${own}\\) priced 0\\.01 SOL at \\d+ USDC units`))
    expect(requestsTo(own) - before.own).toBe(1)
    expect(requestsTo(other) - before.other).toBe(0)
    const { row } = await doctorRow({ JUPITER_SWAP_API: api })
    expect(row).toMatchObject({ result: 'ok', check: `GET /tokens/v2/search (USDC), GET ${own} (SOL→USDC)` })
  })

  test('a host without Swap API v2: degraded, the path named; the doctor says v1 or another host — and a v1 service there is fine', async () => {
    sandbox.faults.set('jupiter', '/swap/v2', { kind: 'not_found' })
    try {
      const v2 = await jupiterOnHealth()
      expect(v2.state).toBe('degraded')
      expect(v2.probe).toContain('token search answered')
      expect(v2.probe).toContain(
        'swap API v2 (GET /swap/v2/order): jupiter: rejected (HTTP 404): this host does not serve /swap/v2/order',
      )
      const { report, row } = await doctorRow()
      expect(row.result).toBe('refused')
      expect(row.fix).toContain('does not serve Swap API v2')
      expect(row.fix).toContain('JUPITER_SWAP_API=v1')
      expect(report.healthy).toBe(false)
      // The same host, the service set to v1: its path answers.
      expect((await jupiterOnHealth({ JUPITER_SWAP_API: 'v1' })).state).toBe('ok')
      expect((await doctorRow({ JUPITER_SWAP_API: 'v1' })).row.result).toBe('ok')
    } finally {
      sandbox.faults.clear()
    }
  })

  test('401 on the swap API: without a key, that a key is wanted; with one, that it is refused', async () => {
    sandbox.faults.set('jupiter', '/swap/v2/order', { kind: 'unauthorized' })
    try {
      const keyless = await jupiterOnHealth()
      expect(keyless.state).toBe('degraded')
      expect(keyless.probe).toContain('(HTTP 401): no API key is sent and this host wants one')
      expect((await doctorRow()).row.fix).toContain('wants a key: get one at portal.jup.ag and set JUPITER_API_KEY')
      const keyed = await jupiterOnHealth({ JUPITER_API_KEY: 'a-key-this-host-refuses' })
      expect(keyed.probe).toContain('(HTTP 401): the API key is refused')
      expect((await doctorRow({ JUPITER_API_KEY: 'a-key-this-host-refuses' })).row.fix).toContain(
        'JUPITER_API_KEY is refused',
      )
    } finally {
      sandbox.faults.clear()
    }
  })

  test('429 on the swap API: named as the plan’s limit, with what raises it', async () => {
    sandbox.faults.set('jupiter', '/swap/v2/order', { kind: 'rate_limited' })
    try {
      const reading = await jupiterOnHealth({ JUPITER_SWAP_API: 'v2' })
      expect(reading.probe).toContain('(HTTP 429): more requests than the plan allows')
      expect((await doctorRow()).row.fix).toContain('Jupiter rate-limits the service')
    } finally {
      sandbox.faults.clear()
    }
  })
})

describe('the command line of src/main.ts', () => {
  for (const [args, expected] of [
    [['--version'], /^solsentry 2\.0\.0\n$/],
    [['--help'], /^usage: solsentry \[serve \| doctor/],
  ] as const)
    test(`${args.join(' ')} prints and exits 0, serving nothing`, async () => {
      const port = closedPort()
      const child = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts'), ...args], {
        env: { PATH: process.env.PATH ?? '', DATA_DIR: ':memory:', PORT: String(port) },
        stdout: 'pipe',
        stderr: 'pipe',
      })
      const [code, out] = await Promise.all([child.exited, new Response(child.stdout).text()])
      expect(code).toBe(0)
      expect(out).toMatch(expected)
      expect(out).not.toContain('listening')
    })

  test('a command it does not know: the usage on stderr, exit 2', async () => {
    const child = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts'), '--verison'], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: ':memory:' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [code, err] = await Promise.all([child.exited, new Response(child.stderr).text()])
    expect(code).toBe(2)
    expect(err).toStartWith('solsentry: unknown command --verison\n\nusage:')
  })
})

describe('the solsentry CLI (client/cli.ts)', () => {
  const cli = (args: string[], env: Record<string, string> = {}) =>
    Bun.spawn([process.execPath, join(ROOT, 'client/cli.ts'), ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdout: 'pipe',
      stderr: 'pipe',
    })

  test('--version and --help print and exit 0', async () => {
    for (const [flag, expected] of [
      ['--version', /^solsentry \d+\.\d+\.\d+\n$/],
      ['--help', /^usage: solsentry <command>/],
    ] as const) {
      const child = cli([flag])
      const [code, out] = await Promise.all([child.exited, new Response(child.stdout).text()])
      expect(code).toBe(0)
      expect(out).toMatch(expected)
    }
  })

  test('doctor runs the service’s doctor: against the sandbox, exit 0 and the table', async () => {
    const child = cli(['doctor'], { DATA_DIR: ':memory:', ...sandbox.serviceSettings })
    const [code, out] = await Promise.all([child.exited, new Response(child.stdout).text()])
    expect(out).toContain('everything the service needs answered')
    expect(out).toMatch(/solana_rpc +getSlot +ok +getSlot answered slot \d+/)
    expect(code).toBe(0)
  })
})
