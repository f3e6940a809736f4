import { createConnection } from 'node:net'

/**
 * A real redis-server for tests, on a free port, without persistence. `.ci/run` installs the server
 * (Debian's redis-server) when the machine lacks it.
 */
export async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const binary = Bun.which('redis-server')
  if (!binary) throw new Error('redis-server is not installed: run `apt-get install -y redis-server` (.ci/run does)')
  const probe = Bun.serve({ port: 0, fetch: () => new Response('') })
  const port = probe.port!
  await probe.stop(true)
  const child = Bun.spawn([binary, '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdout: 'ignore',
    stderr: 'ignore',
  })
  const url = `redis://127.0.0.1:${port}`
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await new Promise<void>((resolve, reject) => {
        const socket = createConnection({ host: '127.0.0.1', port }, () => (socket.end(), resolve()))
        socket.on('error', reject)
      })
      return {
        url,
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
