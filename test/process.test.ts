import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { type AddressInfo, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { launch as launchService } from './support/launch.ts'

const ROOT = join(import.meta.dir, '..')
const work = mkdtempSync(join(tmpdir(), 'solsentry-process-'))
const BINARY = join(work, 'solsentry')

afterAll(() => rmSync(work, { recursive: true, force: true }))

/** Starts a command in the work directory with its data there. */
const launch = (cmd: string[], env: Record<string, string> = {}) =>
  launchService(cmd, { cwd: work, env: { DATA_DIR: join(work, 'data'), ...env } })

async function checkServes(url: string) {
  const health = await fetch(`${url}/health`)
  expect(health.status).toBe(200)
  expect(await health.json()).toMatchObject({ status: 'ok', version: '2.0.0' })
  const openapi = await fetch(`${url}/openapi.json`)
  expect(((await openapi.json()) as { openapi: string }).openapi).toBe('3.1.0')
  // The API viewer's bundle: the binary serves the copy embedded in it (src/runtime/files.ts).
  const viewer = await fetch(`${url}/docs/viewer.js`)
  expect(viewer.status).toBe(200)
  expect((await viewer.text()).length).toBeGreaterThan(100_000)
}

describe('npm start (bun src/main.ts)', () => {
  test('serves /health and exits 0 on SIGTERM after draining', async () => {
    const { child, url, rest } = await launch([process.execPath, join(ROOT, 'src/main.ts')])
    await checkServes(url)
    child.kill('SIGTERM')
    expect(await child.exited).toBe(0)
    const out = await rest()
    expect(out).toContain('"msg":"shutting down: draining in-flight requests"')
    expect(out).toContain('"msg":"stopped"')
  })

  test('a port another process holds stops it with one line naming the address (exit 78)', async () => {
    const holder = createServer().listen(0, '127.0.0.1')
    await once(holder, 'listening')
    const port = (holder.address() as AddressInfo).port
    try {
      const child = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts')], {
        cwd: work,
        env: { PATH: process.env.PATH ?? '', PORT: String(port), DATA_DIR: ':memory:', LOG_LEVEL: 'silent' },
        stderr: 'pipe',
        stdout: 'pipe',
      })
      expect(await child.exited).toBe(78)
      expect(await new Response(child.stderr).text()).toMatch(
        new RegExp(`^solsentry: cannot listen on 127\\.0\\.0\\.1:${port}: .+\n$`),
      )
    } finally {
      holder.close()
    }
  })

  test('a port a running solsentry holds is refused too: a second service never quietly shares it', async () => {
    const first = await launch([process.execPath, join(ROOT, 'src/main.ts')], { DATA_DIR: ':memory:' })
    const port = new URL(first.url).port
    try {
      const second = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts')], {
        cwd: work,
        env: { PATH: process.env.PATH ?? '', PORT: port, DATA_DIR: ':memory:', LOG_LEVEL: 'silent' },
        stderr: 'pipe',
        stdout: 'pipe',
      })
      expect(await second.exited).toBe(78)
      expect(await new Response(second.stderr).text()).toMatch(
        new RegExp(`^solsentry: cannot listen on 127\\.0\\.0\\.1:${port}: .+\n$`),
      )
    } finally {
      first.child.kill('SIGTERM')
      await first.child.exited
    }
  })

  test('a bad setting stops the process with one line naming the variable', async () => {
    const child = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts')], {
      cwd: work,
      env: { PATH: process.env.PATH ?? '', PORT: 'eighty' },
      stderr: 'pipe',
      stdout: 'pipe',
    })
    expect(await child.exited).toBe(78)
    const stderr = await new Response(child.stderr).text()
    expect(stderr).toBe('solsentry: configuration error: PORT: must be an integer from 0 to 65535 (got "eighty")\n')
  })
})

describe('the single binary (npm run build)', () => {
  beforeAll(() => {
    const build = Bun.spawnSync(
      [
        process.execPath,
        'build',
        'src/main.ts',
        '--compile',
        '--minify-whitespace',
        '--minify-syntax',
        '--outfile',
        BINARY,
      ],
      { cwd: ROOT, stderr: 'pipe', stdout: 'pipe' },
    )
    if (build.exitCode !== 0) throw new Error(`bun build --compile failed: ${build.stderr.toString()}`)
  })

  test('--version and --help print and exit 0, starting no server', async () => {
    for (const [flag, expected] of [
      ['--version', /^solsentry 2\.0\.0\n$/],
      ['--help', /^usage: solsentry \[serve \| doctor/],
    ] as const) {
      const child = Bun.spawn([BINARY, flag], { cwd: work, env: { PATH: process.env.PATH ?? '' }, stdout: 'pipe' })
      const [code, out] = await Promise.all([child.exited, new Response(child.stdout).text()])
      expect(code).toBe(0)
      expect(out).toMatch(expected)
    }
  })

  test('starts on a free port and serves /health and /openapi.json', async () => {
    const { child, url } = await launch([BINARY])
    await checkServes(url)
    child.kill('SIGTERM')
    expect(await child.exited).toBe(0)
  })
})
