import { afterAll, expect, test } from 'bun:test'
import { generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { wrapFetchWithPayment } from '@x402/fetch'
import pino from 'pino'
import { demoPayer } from '../sandbox/demo-client.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { createApp } from '../src/app.ts'
import { createContext } from '../src/context.ts'
import { loadConfig } from '../src/settings.ts'
import { requestIdMixin } from '../src/kernel/request-scope.ts'
import { startServer } from '../src/http/server.ts'

// No secret ever shows: a full run of the service at debug level — paid calls, refusals, errors,
// every discovery document, the metrics, the news routes (model key, X token), a bridge quote (LI.FI
// key) — and every log line, answer body and answer header is searched for every secret it holds.
const sandbox = await startSandbox(ephemeralSandboxOptions())
afterAll(() => sandbox.stop())
const dir = mkdtempSync(join(tmpdir(), 'secrets-'))

const cdp = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }) as { d: string; x: string }
const cdpSecret = Buffer.concat([Buffer.from(cdp.d, 'base64url'), Buffer.from(cdp.x, 'base64url')]).toString('base64')
const seed = crypto.getRandomValues(new Uint8Array(32))
const { Attestor } = await import('../src/attest/attestation.ts')
const attestationPublic = new Attestor(seed).publicKey
const { getBase58Encoder, getBase58Decoder } = await import('@solana/kit')
const keypair = [...seed, ...getBase58Encoder().encode(attestationPublic)]
writeFileSync(join(dir, 'attestation.json'), JSON.stringify(keypair))

const secrets: Record<string, string> = {
  FACILITATOR_HEADERS: 'facilitator-secret-value-3f9a',
  CDP_API_KEY_SECRET: cdpSecret,
  METRICS_TOKEN: 'metrics-secret-token-71c2',
  LLM_API_KEY: sandbox.serviceSettings.LLM_API_KEY,
  X_BEARER_TOKEN: sandbox.serviceSettings.X_BEARER_TOKEN,
  JUPITER_API_KEY: 'jupiter-secret-key-8d04',
  LIFI_API_KEY: 'lifi-secret-key-5e17',
  OTEL_EXPORTER_OTLP_HEADERS: 'otel-collector-key-2b6d',
  'attestation seed (base64)': Buffer.from(seed).toString('base64'),
  'attestation seed (hex)': Buffer.from(seed).toString('hex'),
  'attestation keypair (base58)': getBase58Decoder().decode(Uint8Array.from(keypair)),
  'attestation keypair (JSON)': JSON.stringify(keypair).slice(1, 60),
}

// Tracing on, to a collector on loopback that takes every span (its key must reach it, and nothing else).
const collector = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => Response.json({}) })
afterAll(() => collector.stop(true))

const logged: string[] = []
const ctx = createContext(
  loadConfig({
    ...sandbox.serviceSettings,
    PORT: '0',
    DATA_DIR: dir,
    LOG_LEVEL: 'debug',
    RATE_LIMIT_SCANNER_BURST: '1000',
    FACILITATOR_HEADERS: JSON.stringify({ authorization: `Bearer ${secrets.FACILITATOR_HEADERS}` }),
    CDP_API_KEY_ID: 'organizations/x/apiKeys/y',
    CDP_API_KEY_SECRET: cdpSecret,
    METRICS_TOKEN: secrets.METRICS_TOKEN!,
    JUPITER_API_KEY: secrets.JUPITER_API_KEY!,
    LIFI_API_KEY: secrets.LIFI_API_KEY!,
    ATTESTATION_KEY: join(dir, 'attestation.json'),
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}`,
    OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${secrets.OTEL_EXPORTER_OTLP_HEADERS}`,
  }),
  { logger: pino({ level: 'debug', mixin: requestIdMixin }, { write: (line: string) => logged.push(line) }) },
)
await ctx.payments.start()
const running = startServer(createApp(ctx), ctx)
afterAll(() => running.shutdown('test over'))

test('no secret in any log line, answer body or answer header of a full run', async () => {
  const seen: string[] = []
  const call = async (path: string, init: RequestInit = {}, fetcher: typeof fetch = fetch) => {
    const response = await fetcher(`${running.url}${path}`, init)
    seen.push(JSON.stringify([...response.headers]), await response.text())
    return response.status
  }
  const post = (body: unknown) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const blue = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
  const paying = wrapFetchWithPayment(fetch, (await demoPayer(sandbox.file, 'solana')).client) as typeof fetch
  expect(await call('/scan/quick', post({ token_address: blue }), paying)).toBe(200)
  expect(await call('/news/brief', post({ symbol: 'BLUE' }), paying)).toBe(200)
  expect(await call('/exit/cross-check', post({ token_address: blue }), paying)).toBe(200)
  expect(await call('/scan/quick', post({ token_address: blue }))).toBe(402)
  expect(await call('/scan/quick', post({ token_address: 'BONK' }))).toBe(400)
  expect(
    await call('/scan/quick', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } }),
  ).toBe(400)
  expect(await call('/scan/quick', post({ token_address: blue }), undefined)).toBe(402)
  expect(await call('/metrics', { headers: { authorization: `Bearer ${secrets.METRICS_TOKEN}` } })).toBe(200)
  expect(await call('/metrics')).toBe(403)
  for (const path of [
    '/health',
    '/.well-known/x402',
    '/.well-known/agent.json',
    '/.well-known/agent-card.json',
    '/openapi.json',
    '/llm.txt',
    '/llms.txt',
    '/skill.md',
    '/nope',
  ])
    await call(path)
  await running.shutdown('the run is over')
  expect(logged.length).toBeGreaterThan(10)
  const everything = [...logged, ...seen].join('\n')
  for (const [name, secret] of Object.entries(secrets))
    expect(everything.includes(secret), `${name} was shown`).toBe(false)
  // The public half is meant to be shown (discovery publishes it).
  expect(everything).toContain(attestationPublic)
})
