import { describe, expect, test } from 'bun:test'
import { wrapFetchWithPayment } from '@x402/fetch'
import { demoPayer } from '../sandbox/demo-client.ts'
import { liveService } from './support/live.ts'
import pino from 'pino'
import { createApp } from '../src/app.ts'
import { createContext } from '../src/context.ts'
import { loadConfig } from '../src/settings.ts'
import { requestIdMixin } from '../src/kernel/request-scope.ts'
import { WAIVED_PAYMENTS } from './support/payments.ts'
import { scanRequest, waivedService } from './support/service.ts'

// GET /metrics after real traffic on the sandbox: every family the operator needs, with the counts the
// traffic made (read as differences: the registry is the process's).
const { sandbox, running } = await liveService({ RATE_LIMIT_SCANNER_BURST: '4', RATE_LIMIT_SCANNER_PER_MINUTE: '1' })
const blue = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
const SOL = 'So11111111111111111111111111111111111111112'

/** The samples of a scrape: `name{labels}` → value. */
async function scrape(url = `${running.url}/metrics`, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers })
  const text = await response.text()
  const samples = new Map<string, number>()
  for (const line of text.split('\n'))
    if (line && !line.startsWith('#')) {
      const at = line.lastIndexOf(' ')
      samples.set(line.slice(0, at), Number(line.slice(at + 1)))
    }
  return { status: response.status, text, samples, type: response.headers.get('content-type') }
}
const value = (samples: Map<string, number>, key: string) => samples.get(key) ?? 0

describe('GET /metrics', () => {
  test('after traffic: requests, upstream calls, cache, payments, settlement, trade jobs, rate limits', async () => {
    const before = (await scrape()).samples
    const post = (path: string, body: unknown, fetcher: typeof fetch = fetch) =>
      fetcher(`${running.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    // A trade quote (a job QUOTED), one paid quick scan on Solana (challenged, verified, settled), then
    // unpaid calls until the client's limit (a burst of 4) refuses them.
    const buyer = await sandbox.world.signer('demo-buyer')
    expect(
      (
        await post('/trade/quote', {
          input_mint: SOL,
          output_mint: blue,
          amount_in: '1000000',
          user_public_key: buyer.address,
        })
      ).status,
    ).toBe(200)
    const paying = wrapFetchWithPayment(fetch, (await demoPayer(sandbox.file, 'solana')).client) as typeof fetch
    expect((await post('/scan/quick', { token_address: blue }, paying)).status).toBe(200)
    const statuses = []
    for (let i = 0; i < 5; i++) statuses.push((await post('/scan/quick', { token_address: blue })).status)
    expect(statuses).toContain(429)
    const after = await scrape()
    expect(after.status).toBe(200)
    expect(after.type).toStartWith('text/plain; version=0.0.4')
    const delta = (key: string) => value(after.samples, key) - value(before, key)
    expect(delta('solsentry_http_requests_total{route="POST /scan/quick",status="200"}')).toBe(1)
    expect(delta('solsentry_http_requests_total{route="POST /scan/quick",status="402"}')).toBeGreaterThanOrEqual(2)
    expect(delta('solsentry_http_requests_total{route="POST /scan/quick",status="429"}')).toBeGreaterThanOrEqual(1)
    expect(delta('solsentry_rate_limited_total{class="scanner"}')).toBeGreaterThanOrEqual(1)
    expect(delta(`solsentry_payments_total{state="settled",network="${sandbox.file.x402.solana.network}"}`)).toBe(1)
    expect(delta(`solsentry_payments_total{state="verified",network="${sandbox.file.x402.solana.network}"}`)).toBe(1)
    expect(delta('solsentry_payments_total{state="challenged",network="none"}')).toBeGreaterThanOrEqual(2)
    expect(delta(`solsentry_settlement_duration_seconds_count{network="${sandbox.file.x402.solana.network}"}`)).toBe(1)
    expect(delta('solsentry_trade_jobs_total{status="QUOTED"}')).toBe(1)
    expect(delta('solsentry_http_request_duration_seconds_count{route="POST /scan/quick"}')).toBeGreaterThanOrEqual(6)
    const upstream = [...after.samples.keys()].filter((key) =>
      key.startsWith('solsentry_upstream_calls_total{source="solana_rpc"'),
    )
    expect(upstream.length).toBeGreaterThan(0)
    expect(delta('solsentry_cache_lookups_total{result="miss"}')).toBeGreaterThan(0)
    for (const family of [
      'solsentry_upstream_call_duration_seconds',
      'solsentry_upstream_breaker_open',
      'solsentry_dependency_up',
      'solsentry_ledger_reconciliations_total',
      'solsentry_process_resident_memory_bytes',
    ])
      expect(after.text).toContain(`# TYPE ${family}`)
    expect(value(after.samples, 'solsentry_dependency_up{name="store"}')).toBe(1)
  })

  test('with METRICS_TOKEN: the bearer token is required (403 without, or with another)', async () => {
    const token = 'a-metrics-token-of-some-length'
    const service = waivedService({ METRICS_TOKEN: token })
    const call = (headers: Record<string, string>) => service.handle(new Request('http://local/metrics', { headers }))
    expect((await call({})).status).toBe(403)
    expect(((await (await call({ authorization: 'Bearer wrong' })).json()) as any).code).toBe('FORBIDDEN')
    expect((await call({ authorization: `Bearer ${token}` })).status).toBe(200)
  })
  test('request ids flow into the lines a request’s work writes (the scan’s upstream call counts)', async () => {
    const raw: string[] = []
    const logger = pino({ level: 'info', mixin: requestIdMixin }, { write: (line: string) => raw.push(line) })
    const ctx = createContext(loadConfig({ ...sandbox.serviceSettings, DATA_DIR: ':memory:' }), {
      logger,
      payments: WAIVED_PAYMENTS,
    })
    const response = await createApp(ctx).handle(scanRequest('/scan/quick', { token_address: blue }))
    expect(response.status).toBe(200)
    const id = response.headers.get('x-request-id')
    const lines = raw.map((line) => JSON.parse(line) as Record<string, unknown>)
    const scanLines = lines.filter((line) => line.req_id === id && line.msg !== 'request')
    expect(scanLines.length).toBeGreaterThan(0)
    // A line that names its request itself is not given a second req_id.
    for (const line of raw) expect(line.split('"req_id"').length - 1).toBeLessThanOrEqual(1)
  })
})
