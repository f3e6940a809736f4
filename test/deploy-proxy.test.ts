import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:https'
import { request as plainRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../src/app.ts'
import { startServer, type RunningServer } from '../src/http/server.ts'
import { fixturePlugin } from './fixtures/fixture-plugin.ts'
import { testContext, VALID_MINT } from './support/app.ts'

// deploy/nginx.conf, the example of docs/deploy.md, run as it is (its placeholders swapped for loopback
// ports and a certificate made here) in front of the service with TRUST_PROXY=true: callers reach it
// over TLS, each caller's own address is what the rate limits key on, and a forged X-Forwarded-For is
// not. Callers connect from 127.0.0.2 and 127.0.0.3; nginx reaches the service from 127.0.0.1.
const NGINX = Bun.which('nginx') ?? (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : undefined)
const OPENSSL = Bun.which('openssl')
const missing = !NGINX
  ? 'nginx is not installed (apt-get install -y nginx; .ci/run does)'
  : !OPENSSL
    ? 'openssl is not installed (apt-get install -y openssl)'
    : undefined

const CONFIG = join(import.meta.dir, '..', 'deploy', 'nginx.conf')
const HOST = 'scan.example.com'

function freePort(): number {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
  const port = probe.port!
  probe.stop(true)
  return port
}

/** deploy/nginx.conf with its host-specific lines swapped; fails when one of them is no longer there. */
function rendered(replacements: [string, string][]): string {
  let text = readFileSync(CONFIG, 'utf8')
  for (const [from, to] of replacements) {
    if (!text.includes(from)) throw new Error(`deploy/nginx.conf no longer has "${from}": update this test`)
    text = text.replaceAll(from, to)
  }
  return text
}

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** One request to nginx over TLS as `HOST`, from the local address `from`, trusting only the test's certificate. */
function viaTls(
  port: number,
  ca: string,
  from: string,
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        servername: HOST,
        ca,
        localAddress: from,
        path,
        method: init.method ?? 'GET',
        headers: { host: HOST, ...init.headers },
      },
      (res) => {
        let body = ''
        res.on('data', (chunk) => {
          body += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
    req.end(init.body)
  })
}

const scan = (port: number, ca: string, from: string, headers: Record<string, string> = {}) =>
  viaTls(port, ca, from, '/fixture/scan', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ token_address: VALID_MINT }),
  })

const body = (answer: Answer) => JSON.parse(answer.body) as { code?: string; message?: string }

const TITLE = 'deploy/nginx.conf in front of the service (TLS, TRUST_PROXY=true)'
;(missing ? describe.skip : describe)(missing ? `${TITLE} — skipped: ${missing}` : TITLE, () => {
  const dir = mkdtempSync(join(tmpdir(), 'solsentry-nginx-'))
  const tlsPort = freePort()
  const plainPort = freePort()
  let service: RunningServer
  let nginx: ReturnType<typeof Bun.spawn> | undefined
  let ca = ''

  beforeAll(async () => {
    // A self-signed certificate for the example's host name, made for this run.
    const cert = Bun.spawnSync(
      [
        OPENSSL!,
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        `/CN=${HOST}`,
        '-addext',
        `subjectAltName=DNS:${HOST}`,
        '-keyout',
        join(dir, 'privkey.pem'),
        '-out',
        join(dir, 'fullchain.pem'),
      ],
      { stdout: 'ignore', stderr: 'pipe' },
    )
    if (cert.exitCode !== 0) throw new Error(`openssl: ${cert.stderr.toString()}`)
    ca = readFileSync(join(dir, 'fullchain.pem'), 'utf8')

    const ctx = testContext({ PORT: '0', TRUST_PROXY: 'true', RATE_LIMIT_SCANNER_BURST: '1' })
    service = startServer(createApp(ctx, { plugins: [fixturePlugin(ctx)] }), ctx)
    const servicePort = new URL(service.url).port

    writeFileSync(
      join(dir, 'solsentry.conf'),
      rendered([
        ['server 127.0.0.1:8402;', `server 127.0.0.1:${servicePort};`],
        ['listen 443 ssl;', `listen 127.0.0.1:${tlsPort} ssl;`],
        ['listen 80;', `listen 127.0.0.1:${plainPort};`],
        [`/etc/letsencrypt/live/${HOST}/`, `${dir}/`],
      ]),
    )
    // Around the example, what /etc/nginx/nginx.conf gives it, with every path in the test's folder.
    mkdirSync(join(dir, 'temp'))
    const temp = (name: string) => `${name}_temp_path ${join(dir, 'temp', name)};`
    writeFileSync(
      join(dir, 'nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        `pid ${join(dir, 'nginx.pid')};`,
        `error_log ${join(dir, 'error.log')} warn;`,
        ...(process.getuid?.() === 0 ? ['user root;'] : []),
        'events { worker_connections 64; }',
        'http {',
        `  access_log ${join(dir, 'access.log')};`,
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `  ${temp(name)}`),
        `  include ${join(dir, 'solsentry.conf')};`,
        '}',
      ].join('\n'),
    )
    const checked = Bun.spawnSync([NGINX!, '-t', '-p', dir, '-c', join(dir, 'nginx.conf')], { stderr: 'pipe' })
    if (checked.exitCode !== 0) throw new Error(`nginx -t: ${checked.stderr.toString()}`)
    nginx = Bun.spawn([NGINX!, '-p', dir, '-c', join(dir, 'nginx.conf')], { stdout: 'ignore', stderr: 'pipe' })
    for (let attempt = 0; ; attempt++) {
      try {
        await viaTls(tlsPort, ca, '127.0.0.1', '/health')
        break
      } catch (error) {
        if (attempt > 100) throw new Error(`nginx did not answer: ${error}; ${readFileSync(join(dir, 'error.log'))}`)
        await Bun.sleep(30)
      }
    }
  })

  afterAll(async () => {
    nginx?.kill('SIGQUIT')
    await nginx?.exited
    await service?.shutdown('test over')
    rmSync(dir, { recursive: true, force: true })
  })

  test('serves the service over TLS with the certificate for its host name', async () => {
    const health = await viaTls(tlsPort, ca, '127.0.0.2', '/health')
    expect(health.status).toBe(200)
    expect(body(health)).toMatchObject({ status: 'ok' })
    // A caller that does not trust the certificate is refused by TLS itself.
    await expect(viaTls(tlsPort, '', '127.0.0.2', '/health')).rejects.toThrow()
  })

  test('/metrics is not readable through the proxy without its token: the caller nginx names decides, not nginx’s own loopback socket', async () => {
    // 127.0.0.2 stands for an internet caller here (only 127.0.0.1 and ::1 count as this host).
    const proxied = await viaTls(tlsPort, ca, '127.0.0.2', '/metrics')
    expect(proxied.status).toBe(403)
    expect(body(proxied)).toMatchObject({ code: 'FORBIDDEN' })
    // A scraper on this host asking the service's own port, past the proxy, still reads them.
    expect((await fetch(`${service.url}/metrics`)).status).toBe(200)
  })

  test('plain HTTP is redirected to https', async () => {
    const answer = await new Promise<{ status: number; location?: string }>((resolve, reject) => {
      const req = plainRequest(
        { host: '127.0.0.1', port: plainPort, path: '/scan/quick', headers: { host: HOST } },
        (res) => {
          res.resume()
          resolve({ status: res.statusCode ?? 0, location: res.headers.location })
        },
      )
      req.on('error', reject)
      req.end()
    })
    expect(answer).toEqual({ status: 301, location: `https://${HOST}/scan/quick` })
  })

  test("the rate limits key on each caller's own address, which nginx appends; a forged X-Forwarded-For is not used", async () => {
    // 127.0.0.2 spends its burst of one, and the refusal names its own address.
    expect((await scan(tlsPort, ca, '127.0.0.2')).status).toBe(200)
    const limited = await scan(tlsPort, ca, '127.0.0.2')
    expect(limited.status).toBe(429)
    expect(body(limited).code).toBe('RATE_LIMITED')
    expect(body(limited).message).toContain('127.0.0.2')
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    // 127.0.0.3 has its own bucket (not nginx's 127.0.0.1, shared by everyone), even posing as 127.0.0.2...
    const forged = { 'x-forwarded-for': '127.0.0.2' }
    expect((await scan(tlsPort, ca, '127.0.0.3', forged)).status).toBe(200)
    // ...and, its burst spent, cannot borrow another's address to get a fresh one.
    const again = await scan(tlsPort, ca, '127.0.0.3', { 'x-forwarded-for': '127.0.0.9' })
    expect(again.status).toBe(429)
    expect(body(again).message).toContain('127.0.0.3')
  })

  test('a body over the service limit gets the service own JSON 413, not a page of nginx', async () => {
    const answer = await viaTls(tlsPort, ca, '127.0.0.4', '/fixture/scan', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token_address: VALID_MINT, padding: 'x'.repeat(20_000) }),
    })
    expect(answer.status).toBe(413)
    expect(body(answer).code).toBe('PAYLOAD_TOO_LARGE')
  })
})
