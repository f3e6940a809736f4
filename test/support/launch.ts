import { afterAll } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSandbox } from '../../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../../sandbox/options.ts'

/**
 * Starts a service command, waits for its "listening" log line and returns the URL it serves, the
 * child process and a reader for the rest of its stdout (once it has exited).
 */
export async function launch(
  cmd: string[],
  options: { cwd: string; env: Record<string, string> /** How long to wait for the line. */; deadlineMs?: number },
) {
  const child = Bun.spawn(cmd, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', PORT: '0', ...options.env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const lines: Record<string, unknown>[] = []
  const reader = child.stdout.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  const deadline = Date.now() + (options.deadlineMs ?? 20_000)
  while (Date.now() < deadline) {
    const { done, value } = await reader.read()
    if (done) break
    buffer += decoder.decode(value)
    for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
      lines.push(JSON.parse(buffer.slice(0, newline)))
      buffer = buffer.slice(newline + 1)
    }
    const listening = lines.find((line) => line.msg === 'listening')
    if (listening) {
      /** The rest of stdout, once the process has exited. */
      const rest = async () => {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) return buffer
          buffer += decoder.decode(value)
        }
      }
      return { child, url: listening.url as string, rest, lines }
    }
  }
  child.kill()
  throw new Error(`no "listening" line; stderr: ${await new Response(child.stderr).text()}`)
}

/**
 * The service as a process on a fresh sandbox, with its own data directory, for tests that kill and
 * restart it: `service()` starts one (on the same data each time), `payments()` reads its ledger from
 * the SQLite file beside it. Everything is removed after the file's tests.
 */
export async function restartableService(name: string) {
  const work = mkdtempSync(join(tmpdir(), `solsentry-${name}-`))
  const sandbox = await startSandbox(ephemeralSandboxOptions())
  afterAll(async () => {
    await sandbox.stop()
    rmSync(work, { recursive: true, force: true })
  })
  const env = { ...sandbox.serviceSettings, DATA_DIR: join(work, 'data'), LOG_LEVEL: 'info' }
  return {
    sandbox,
    service: () => launch([process.execPath, join(import.meta.dir, '..', '..', 'src/main.ts')], { cwd: work, env }),
    /** The payments table of the service's own SQLite file (empty before the service has made it). */
    payments(): { state: string; reason: string | null; tx: string | null }[] {
      let db: Database | undefined
      try {
        db = new Database(join(work, 'data', 'solsentry.db'), { readonly: true })
        return db
          .query<{ state: string; reason: string | null; tx: string | null }, []>(
            'SELECT state, reason, tx FROM payments',
          )
          .all()
      } catch {
        return []
      } finally {
        db?.close()
      }
    },
  }
}
