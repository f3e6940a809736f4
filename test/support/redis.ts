import { afterAll, beforeAll, describe, test } from 'bun:test'
import { createConnection } from 'node:net'

/**
 * Why the suites that need a real redis-server are skipped on this machine, or undefined when it has one.
 * `.ci/run` installs Debian's redis-server; a fresh machine without it reports those suites skipped, never failed.
 */
export const redisMissing: string | undefined = Bun.which('redis-server')
  ? undefined
  : 'redis-server is not installed (apt-get install -y redis-server; .ci/run does)'

/** `describe`, skipped with the reason in its title when the machine has no redis-server. */
export function describeWithRedis(title: string, body: () => void): void {
  if (redisMissing) describe.skip(`${title} — skipped: ${redisMissing}`, body)
  else describe(title, body)
}

/** `test`, skipped with the reason in its title when the machine has no redis-server. */
export function testWithRedis(title: string, body: () => Promise<void>): void {
  if (redisMissing) test.skip(`${title} — skipped: ${redisMissing}`, body)
  else test(title, body)
}

/** One suite per storage backend; those named "Redis…" are skipped (with the reason) without a redis-server. */
export function describeBackends<T>(backends: [string, T][], title: string, body: (backend: T) => void): void {
  for (const [name, backend] of backends) {
    ;(name.startsWith('Redis') ? describeWithRedis : describe)(`${title} (${name})`, () => body(backend))
  }
}

/**
 * A redis-server for this test file: started before its tests when the machine has one, stopped after.
 * `url` is read inside tests (which are skipped when there is no server).
 */
export function redisForFile(): { readonly url: string } {
  let server: Awaited<ReturnType<typeof startRedis>> | undefined
  beforeAll(async () => {
    if (!redisMissing) server = await startRedis()
  })
  afterAll(() => server?.stop())
  return {
    get url() {
      if (!server) throw new Error(redisMissing ?? 'redis-server has not started yet')
      return server.url
    },
  }
}

/**
 * A real redis-server for tests, on a free port, without persistence. `.ci/run` installs the server
 * (Debian's redis-server) when the machine lacks it. With `persistence`, it keeps an append-only file
 * in `dir`, written through on every command (`appendfsync always`, as the ledger needs), on `port`
 * when given: a server started again on the same dir and port comes back with what it held.
 */
export async function startRedis(persistence?: {
  dir: string
  port?: number
}): Promise<{ url: string; port: number; pid: number; stop(): Promise<void> }> {
  const binary = Bun.which('redis-server')
  if (!binary) throw new Error(redisMissing)
  let port = persistence?.port
  if (port === undefined) {
    const probe = Bun.serve({ port: 0, fetch: () => new Response('') })
    port = probe.port!
    await probe.stop(true)
  }
  const storage = persistence
    ? ['--dir', persistence.dir, '--appendonly', 'yes', '--appendfsync', 'always']
    : ['--appendonly', 'no']
  const child = Bun.spawn([binary, '--port', String(port), '--bind', '127.0.0.1', '--save', '', ...storage], {
    stdout: 'ignore',
    stderr: 'ignore',
  })
  const url = `redis://127.0.0.1:${port}`
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await new Promise<void>((resolve, reject) => {
        const socket = createConnection({ host: '127.0.0.1', port }, () => {
          socket.end()
          resolve()
        })
        socket.on('error', reject)
      })
      return {
        url,
        port,
        pid: child.pid,
        async stop() {
          child.kill()
          await child.exited
        },
      }
    } catch {
      await Bun.sleep(20)
    }
  }
  child.kill()
  throw new Error(`redis-server did not start on port ${port}`)
}
