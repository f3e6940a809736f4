import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eventually } from './support/eventually.ts'
import { runToEnd } from './support/run.ts'

// `npm start` as a person runs it, on a port of their choosing (PORT), from a directory of their own: the
// banner's "try" lines name that port, and each one runs as printed — `npm run pay`, `npm run trade` and
// the CLI find the service and the sandbox's RPC with no other setting.
const ROOT = join(import.meta.dir, '..')
const work = mkdtempSync(join(tmpdir(), 'solsentry-banner-'))
const freePort = () => {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = server.port
  server.stop(true)
  return port
}
const port = freePort()
/** Every sandbox server on a port of the system's choosing: nothing here collides with a running sandbox. */
const sandboxPorts = Object.fromEntries(
  ['RPC', 'WS', 'MARKET', 'AGGREGATOR', 'FACILITATOR', 'BRIDGE', 'NEWS', 'MODEL', 'ANVIL'].map((name) => [
    `SANDBOX_${name}_PORT`,
    '0',
  ]),
)
/** A shell with nothing of ours set: no SOLSENTRY_*, no PORT, no DATA_DIR. */
const shell = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) =>
      !name.startsWith('SOLSENTRY_') && !name.startsWith('SANDBOX_') && name !== 'PORT' && name !== 'DATA_DIR',
  ),
) as Record<string, string>

const started = Bun.spawn([process.execPath, join(ROOT, 'sandbox', 'launch.ts')], {
  cwd: work,
  env: { ...shell, ...sandboxPorts, PORT: String(port), SANDBOX_TICK_MS: '0', LOG_LEVEL: 'silent' },
  stdout: 'ignore',
  stderr: 'pipe',
})
afterAll(async () => {
  started.kill('SIGTERM')
  await started.exited
  rmSync(work, { recursive: true, force: true })
})

let banner = ''
const reader = started.stderr.getReader()
await eventually(
  'the banner with its try lines',
  async () => {
    const { value, done } = await reader.read()
    if (done) throw new Error(`npm start ended: ${banner}`)
    banner += new TextDecoder().decode(value)
    return banner
  },
  (text) => /npx solsentry trade .*\n/.test(text),
  { timeoutMs: 60_000, intervalMs: 0 },
)

/** A try line: the command before its `#` comment, its words. */
const tryLine = (pattern: RegExp): string[] => {
  const line = banner.split('\n').find((entry) => pattern.test(entry))
  expect(line).toBeDefined()
  return line!.split('#')[0]!.trim().split(/\s+/)
}
const run = async (command: string[], env: Record<string, string> = {}) => {
  const finished = await runToEnd(command, { ...shell, ...env }, work)
  expect(finished.stderr).not.toMatch(/^\s+at /m)
  return finished
}

test('the banner names the service on PORT, never 8402, and the CLI settings in full', () => {
  const url = `http://127.0.0.1:${port}`
  expect(banner).toContain(`service      ${url}`)
  expect(banner).not.toContain(':8402')
  const exports = tryLine(/^\s+export SOLSENTRY_URL=/).slice(1)
  const settings = Object.fromEntries(exports.map((pair) => pair.split('=', 2) as [string, string]))
  expect(settings.SOLSENTRY_URL).toBe(url)
  expect(settings.SOLSENTRY_KEYPAIR).toMatch(/buyer\.json$/)
  expect(settings.SOLSENTRY_SOLANA_RPC).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
})

test('npm run pay and npm run trade, as printed, in a shell with nothing set: they find the service', async () => {
  const [, , , ...payArgs] = tryLine(/^\s+npm run pay -- /)
  const pay = await run([process.execPath, join(ROOT, 'sandbox', 'pay.ts'), ...payArgs])
  expect(pay.stderr).toContain('HTTP 200; paid by')
  expect(pay.code).toBe(0)
  const [, , , ...tradeArgs] = tryLine(/^\s+npm run trade -- /)
  expect(tradeArgs).toContain('0.1')
  const trade = await run([process.execPath, join(ROOT, 'sandbox', 'trade.ts'), ...tradeArgs])
  expect(trade.stderr).toContain('quote: HTTP 200, QUOTED')
  expect(trade.stderr).toContain('execute: HTTP 200')
  expect(trade.code).toBe(0)
}, 60_000)

test('the CLI, as printed; and without SOLSENTRY_SOLANA_RPC it pays through the sandbox RPC the world file names', async () => {
  const settings = Object.fromEntries(
    tryLine(/^\s+export SOLSENTRY_URL=/)
      .slice(1)
      .map((pair) => pair.split('=', 2) as [string, string]),
  )
  const [, , ...quickArgs] = tryLine(/^\s+npx solsentry quick /)
  const cli = join(ROOT, 'client', 'cli.ts')
  const printed = await run([process.execPath, cli, ...quickArgs], settings)
  expect(printed.code).toBe(0)
  expect(printed.stdout).toContain('Quick scan')
  const { SOLSENTRY_SOLANA_RPC: _rpc, ...withoutRpc } = settings
  const found = await run([process.execPath, cli, ...quickArgs], withoutRpc)
  expect(found.code).toBe(0)
  expect(found.stdout).toContain('attested ✓')
}, 60_000)
