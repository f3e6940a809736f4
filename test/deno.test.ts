import { afterAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { wrapFetchWithPayment } from '@x402/fetch'
import { demoPayer } from '../sandbox/demo-client.ts'
import { denoBinary, denoMissing, denoServiceCommand } from '../sandbox/deno.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { redisClient } from '../src/store/redis.ts'
import { eventually } from './support/eventually.ts'
import { launch } from './support/launch.ts'
import { redisMissing, startRedis } from './support/redis.ts'
import { usdcOf } from './support/x402.ts'

/**
 * The service on Deno 2 (docs/deno.md): the same src/main.ts, run by `deno run` on this repository's
 * node_modules as a process, against the sandbox on Bun — as `npm run start:deno` runs it. Skipped, with
 * the reason, on a machine without a deno binary (`npm install` brings the deno package).
 */
const suite = denoMissing ? describe.skip : describe
const title = `the service on Deno 2${denoMissing ? ` — skipped: ${denoMissing}` : ''}`

const work = mkdtempSync(join(tmpdir(), 'solsentry-deno-'))
/** An OTLP/HTTP collector on loopback: the spans the service on Deno exports (src/kernel/tracing.ts). */
const spans: { name: string; spanId: string; parentSpanId?: string; kind: number }[] = []
const collector = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    const body = (await request.json()) as { resourceSpans: { scopeSpans: { spans: typeof spans }[] }[] }
    for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans)
    return Response.json({})
  },
})
const sandbox = denoMissing ? undefined : await startSandbox(ephemeralSandboxOptions())
const service = sandbox
  ? await launch(denoServiceCommand(denoBinary()!), {
      cwd: work,
      env: {
        ...sandbox.serviceSettings,
        DATA_DIR: join(work, 'data'),
        LOG_LEVEL: 'info',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}`,
        // Deno keeps its compiled modules under HOME (or DENO_DIR): the same cache as the developer's.
        ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
        ...(process.env.DENO_DIR ? { DENO_DIR: process.env.DENO_DIR } : {}),
      },
      // A first start compiles the TypeScript into Deno's cache: seconds, more on a busy CI machine.
      deadlineMs: 60_000,
    })
  : undefined
afterAll(async () => {
  service?.child.kill('SIGKILL')
  await sandbox?.stop()
  collector.stop(true)
  rmSync(work, { recursive: true, force: true })
})

type Json = Record<string, any>
const post = (path: string, body: unknown, pay: (url: string, init: RequestInit) => Promise<Response> = fetch) =>
  pay(`${service!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

suite(title, () => {
  // Read in the tests: a skipped suite is still collected, with no sandbox.
  const file = sandbox?.file as NonNullable<typeof sandbox>['file']
  const mint = file?.scenarios.find((scenario) => scenario.name === 'blue-chip')?.mint ?? ''

  test('it is Deno that listens, and /health answers ok with the sandbox sources', async () => {
    const listening = service!.lines.find((line) => line.msg === 'listening')!
    expect(listening.runtime).toMatch(/^deno 2\./)
    // The health board's first probes run just after the listening line.
    const health = await eventually(
      '/health ok',
      async () => (await fetch(`${service!.url}/health`)).json() as Promise<Json>,
      (body) => body.status === 'ok',
    )
    expect(health).toMatchObject({
      status: 'ok',
      version: '2.0.0',
      sources: { store: 'ok', solana_rpc: 'ok', facilitator: 'ok' },
    })
  })

  test('the official x402 client pays a quick scan on Solana: 200, the receipt, the USDC moved on chain', async () => {
    const { client, payer } = await demoPayer(file, 'solana')
    const payTo = file.x402.solana.pay_to
    const before = [await usdcOf(sandbox!, payer), await usdcOf(sandbox!, payTo)]
    const response = await post('/scan/quick', { token_address: mint }, wrapFetchWithPayment(fetch, client))
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ token_address: mint, structural_risk_grade: 'A' })
    const receipt = JSON.parse(Buffer.from(response.headers.get('payment-response')!, 'base64').toString())
    expect(receipt).toMatchObject({ success: true, network: file.x402.solana.network, payer })
    expect(response.headers.get('x-attestation')).toBeTruthy()
    expect(await usdcOf(sandbox!, payer)).toBe(before[0]! - 20_000n)
    expect(await usdcOf(sandbox!, payTo)).toBe(before[1]! + 20_000n)
  })

  test('the official x402 client pays a quick scan on Base (anvil, EIP-3009): 200, the test USDC moved', async () => {
    const { client, payer } = await demoPayer(file, 'base')
    const payTo = file.x402.base.pay_to as `0x${string}`
    const before = [await sandbox!.evm.usdcBalance(payer as `0x${string}`), await sandbox!.evm.usdcBalance(payTo)]
    const response = await post('/scan/quick', { token_address: mint }, wrapFetchWithPayment(fetch, client))
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ token_address: mint })
    const receipt = JSON.parse(Buffer.from(response.headers.get('payment-response')!, 'base64').toString())
    expect(receipt).toMatchObject({ success: true, network: file.x402.base.network, payer })
    expect(await sandbox!.evm.usdcBalance(payer as `0x${string}`)).toBe(before[0]! - 20_000n)
    expect(await sandbox!.evm.usdcBalance(payTo)).toBe(before[1]! + 20_000n)
  })

  test('an unpaid call answers 402 with both rails offered; a bad address a clear 400', async () => {
    const unpaid = await post('/scan/quick', { token_address: mint })
    expect(unpaid.status).toBe(402)
    const offered = JSON.parse(Buffer.from(unpaid.headers.get('payment-required')!, 'base64').toString()) as Json
    expect(offered.accepts.map((offer: Json) => offer.network).sort()).toEqual(
      [file.x402.base.network, file.x402.solana.network].sort(),
    )
    const bad = await post('/scan/quick', { token_address: 'not-a-mint' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ error: true, code: 'INVALID_ADDRESS' })
  })

  test('the files the service ships: the API viewer from node_modules; the page script prebuilt, or a 404 naming the command', async () => {
    const viewer = await fetch(`${service!.url}/docs/viewer.js`)
    expect(viewer.status).toBe(200)
    expect((await viewer.text()).length).toBeGreaterThan(100_000)
    const script = await fetch(`${service!.url}/assets/app.js`)
    if (existsSync(join(import.meta.dir, '..', 'dist', 'web-app.txt'))) {
      expect(script.status).toBe(200)
      expect(script.headers.get('content-type')).toContain('text/javascript')
    } else {
      expect(script.status).toBe(404)
      expect(((await script.json()) as Json).message).toBe(
        "the page's script is bundled by Bun ahead of time on deno: run `npm run build:web` (it writes dist/web-app.txt)",
      )
    }
  })

  test('an MCP client lists the tools at /mcp', async () => {
    const mcp = new Client({ name: 'solsentry-deno-test', version: '1.0.0' })
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${service!.url}/mcp`)))
    const { tools } = await mcp.listTools()
    await mcp.close()
    expect(tools.length).toBeGreaterThan(10)
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['sol_quick_scan', 'sol_trade_quote']))
  })

  test('a trade quote: the risk gate and the aggregator, a job kept in the store', async () => {
    const buyer = file.buyer.address
    const response = await post('/trade/quote', {
      input_mint: 'So11111111111111111111111111111111111111112',
      output_mint: mint,
      amount_in: '100000000',
      user_public_key: buyer,
    })
    expect(response.status).toBe(200)
    const quote = (await response.json()) as Json
    expect(quote.job_id).toMatch(/^job_[0-9a-f]{32}$/)
    const status = await fetch(`${service!.url}/trade/status/${quote.job_id}`)
    expect(status.status).not.toBe(404)
  })

  test('a port another process holds: one line naming the address and exit 78, as on Bun', async () => {
    const taken = new URL(service!.url).port
    const child = Bun.spawn(denoServiceCommand(denoBinary()!), {
      cwd: work,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: taken,
        DATA_DIR: ':memory:',
        LOG_LEVEL: 'silent',
        ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
      },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    expect(await child.exited).toBe(78)
    expect(await new Response(child.stderr).text()).toBe(
      `solsentry: cannot listen on 127.0.0.1:${taken}: Address already in use (os error 98)\n`,
    )
  })

  test('SIGTERM drains and exits 0; the ledger Deno wrote (node:sqlite) reads back with bun:sqlite', async () => {
    service!.child.kill('SIGTERM')
    expect(await service!.child.exited).toBe(0)
    expect(await service!.rest()).toContain('"msg":"stopped"')
    const db = new Database(join(work, 'data', 'solsentry.db'), { readonly: true })
    const states = db.query<{ state: string }, []>('SELECT state FROM payments').all()
    db.close()
    expect(states.map((row) => row.state)).toEqual(['settled', 'settled'])
  })

  test('tracing on Deno: the paid scans were server spans, their upstream calls client spans under them', () => {
    // Exported in batches, and flushed at shutdown (the test above).
    const scans = spans.filter((span) => span.name === 'POST /scan/quick' && span.kind === 2)
    expect(scans.length).toBeGreaterThanOrEqual(2)
    const under = spans.filter((span) => scans.some((scan) => scan.spanId === span.parentSpanId))
    expect(under.length).toBeGreaterThan(0)
    expect(under.every((span) => span.kind === 3)).toBe(true) // CLIENT
  })
})

/**
 * With REDIS_URL: the ledger, the limits and the kept answers in a real redis-server, reached from Deno
 * through the RESP connection (src/runtime/redis-connection.ts).
 */
const redisSuite = denoMissing || redisMissing ? describe.skip : describe
redisSuite(
  `the service on Deno 2 with REDIS_URL${denoMissing || redisMissing ? ` — skipped: ${denoMissing ?? redisMissing}` : ''}`,
  () => {
    test('a paid quick scan on Solana: 200, and the payment settled in Redis', async () => {
      const redis = await startRedis()
      const file = sandbox!.file
      const mint = file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
      const onRedis = await launch(denoServiceCommand(denoBinary()!), {
        cwd: work,
        env: {
          ...sandbox!.serviceSettings,
          DATA_DIR: join(work, 'data-redis'),
          REDIS_URL: redis.url,
          LOG_LEVEL: 'info',
          ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
          ...(process.env.DENO_DIR ? { DENO_DIR: process.env.DENO_DIR } : {}),
        },
        deadlineMs: 60_000,
      })
      try {
        expect(await (await fetch(`${onRedis.url}/health`)).json()).toMatchObject({ sources: { store: 'ok' } })
        const { client } = await demoPayer(file, 'solana')
        const response = await wrapFetchWithPayment(fetch, client)(`${onRedis.url}/scan/quick`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token_address: mint }),
        })
        expect(response.status).toBe(200)
        const reader = redisClient(redis.url)
        const keys = (await reader.send('KEYS', ['solsentry:payment:*'])) as string[]
        const records = await Promise.all(keys.map((key) => reader.send('HGETALL', [key])))
        reader.close()
        expect(records.map((record) => (record as { state: string }).state)).toEqual(['settled'])
      } finally {
        onRedis.child.kill('SIGTERM')
        await onRedis.child.exited
        await redis.stop()
      }
    })
  },
)
