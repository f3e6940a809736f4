import { afterAll, expect } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { demoPayer } from '../sandbox/demo-client.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { createApp } from '../src/app.ts'
import { createContext } from '../src/context.ts'
import { loadConfig } from '../src/settings.ts'
import { startServer } from '../src/http/server.ts'
import { LedgerOutbox } from '../src/payments/ledger-outbox.ts'
import { redisLedger } from '../src/store/ledger-redis.ts'
import { redisClient, RedisUnavailable } from '../src/store/redis.ts'
import { eventually } from './support/eventually.ts'
import { startRedis, testWithRedis } from './support/redis.ts'
import { paymentHeader, unpaidScanStatuses, usdcOf } from './support/x402.ts'

// A real redis-server holding the ledger, the limits and the kept answers, killed (SIGKILL) under a
// running service and started again on its append-only file. `npm run bench -- chaos redis` does the
// same under load and prints the table (docs/reliability.md).
const sandbox = await startSandbox(ephemeralSandboxOptions())
const work = mkdtempSync(join(tmpdir(), 'solsentry-redis-outage-'))
afterAll(async () => {
  await sandbox.stop()
  rmSync(work, { recursive: true, force: true })
})
const mint = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
const treasury = () => usdcOf(sandbox, sandbox.file.x402.solana.pay_to)
const BURST = 3

async function paidScan(url: string, ip: string) {
  const { client } = await demoPayer(sandbox.file, 'solana')
  const init = (headers: Record<string, string>): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, ...headers },
    body: JSON.stringify({ token_address: mint }),
  })
  const challenge = await fetch(`${url}/scan/quick`, init({}))
  expect(challenge.status).toBe(402)
  const payment = await paymentHeader(client, challenge.headers.get('payment-required')!)
  const started = performance.now()
  const answer = await fetch(`${url}/scan/quick`, init({ 'payment-signature': payment }))
  const body = (await answer.json()) as { code?: string; retry_after_s?: number }
  return { answer, body, ms: performance.now() - started }
}

const limitProbe = (url: string, ip: string) => unpaidScanStatuses(url, mint, ip, BURST + 2)
const LIMIT_HELD = [...Array(BURST).fill(402), 429, 429]

testWithRedis(
  'Redis killed under a running service: paid calls refused fast and uncharged, limits held, all back once it returns',
  async () => {
    let redis = await startRedis({ dir: work })
    const ctx = createContext(
      loadConfig({
        ...sandbox.serviceSettings,
        PORT: '0',
        DATA_DIR: ':memory:',
        REDIS_URL: redis.url,
        TRUST_PROXY: 'true',
        RATE_LIMIT_SCANNER_BURST: String(BURST),
      }),
      { logger: pino({ level: 'silent' }) },
    )
    await ctx.payments.start()
    const running = startServer(createApp(ctx), ctx)
    const inspect = redisClient(redis.url)
    try {
      const paid = await paidScan(running.url, '10.0.0.1')
      expect(paid.answer.status).toBe(200)

      await redis.stop()
      const before = await treasury()
      // The ledger cannot record the payment: refused at once with the catalogue's code, nothing charged.
      const refused = await paidScan(running.url, '10.0.0.2')
      expect(refused.answer.status).toBe(503)
      expect(refused.body.code).toBe('LEDGER_UNAVAILABLE')
      expect(refused.answer.headers.get('retry-after')).toBe('2')
      expect(refused.ms).toBeLessThan(1_500)
      expect(await treasury()).toBe(before)
      // Each instance holds the limit in its own memory meanwhile.
      expect(await limitProbe(running.url, '192.0.2.1')).toEqual(LIMIT_HELD)
      expect((await fetch(`${running.url}/health`)).status).not.toBe(500)
      // A free route whose state is in Redis (a trade job) says the store cannot be reached: 503, not 500.
      const quote = await fetch(`${running.url}/trade/quote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.0.0.9' },
        body: JSON.stringify({
          input_mint: 'So11111111111111111111111111111111111111112',
          output_mint: mint,
          amount_in: '100000000',
          user_public_key: sandbox.file.buyer.address,
        }),
      })
      expect(quote.status).toBe(503)
      expect(quote.headers.get('retry-after')).toBe('2')
      expect(((await quote.json()) as { code: string }).code).toBe('UPSTREAM_UNAVAILABLE')

      redis = await startRedis({ dir: work, port: redis.port })
      const again = await eventually(
        'a paid call once Redis is back',
        () => paidScan(running.url, '10.0.0.3'),
        (call) => call.answer.status === 200,
      )
      expect(await treasury()).toBe(before + 20_000n)
      // The limit is counted in Redis again, and the ledger kept what it held before the kill (append-only file).
      expect(await limitProbe(running.url, '192.0.2.2')).toEqual(LIMIT_HELD)
      expect(await inspect.send('EXISTS', ['solsentry:bucket:rl:scanner:192.0.2.2'])).toBe(1)
      const settled = (await redisLedger(inspect).unresolved()).length
      expect(settled).toBe(0)
      const receipt = JSON.parse(Buffer.from(again.answer.headers.get('payment-response')!, 'base64').toString()) as {
        transaction: string
      }
      const keys = (await inspect.send('KEYS', ['solsentry:payment:*'])) as string[]
      const states = await Promise.all(keys.map((key) => inspect.send('HGET', [key, 'state'])))
      expect(states.filter((state) => state === 'settled')).toHaveLength(2)
      expect(receipt.transaction).toBeTruthy()
    } finally {
      inspect.close()
      await running.shutdown('test over')
      await redis.stop()
    }
  },
)

testWithRedis('a ledger write that Redis cannot take is held and written, in order, once it is back', async () => {
  const dir = mkdtempSync(join(work, 'outbox-'))
  let redis = await startRedis({ dir })
  const client = redisClient(redis.url)
  const ledger = redisLedger(client)
  const outbox = new LedgerOutbox(ledger, pino({ level: 'silent' }))
  try {
    const payment = { key: 'svm:test:1', network: 'test', amount: '1', resource: 'POST /scan/quick', requestId: 'r1' }
    expect(await ledger.claim(payment)).toEqual({ ok: true })
    expect(await ledger.transition(payment.key, 'verifying', 'verified')).toBe(true)
    expect(await ledger.transition(payment.key, 'verified', 'settling')).toBe(true)

    await redis.stop()
    // The settlement happened: what records it cannot be refused, only held.
    await expect(ledger.transition(payment.key, 'settling', 'settled')).rejects.toBeInstanceOf(RedisUnavailable)
    expect(await outbox.transition(payment.key, 'settling', 'settled', { transaction: 'tx1' })).toBe('queued')
    expect(outbox.size).toBe(1)

    redis = await startRedis({ dir, port: redis.port })
    await eventually(
      'the held write recorded',
      () => outbox.size,
      (size) => size === 0,
    )
    const record = await ledger.get(payment.key)
    expect(record?.state).toBe('settled')
    expect(record?.transaction).toBe('tx1')
  } finally {
    await outbox.stop()
    client.close()
    await redis.stop()
  }
})
