/**
 * A local EVM node: the `anvil` binary of the npm package `@foundry-rs/anvil`, started as a child
 * process on the given port (0 = any free port) and stopped with the sandbox.
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

export const ANVIL_CHAIN_ID = 31337

export interface AnvilNode {
  url: string
  stop(): Promise<void>
}

/** The platform binary `@foundry-rs/anvil` installs as an optional dependency. */
function anvilBinary(): string {
  const platform = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[process.platform as string]
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string]
  const pkg = `@foundry-rs/anvil-${platform}-${arch}`
  try {
    const dir = dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`))
    return join(dir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
  } catch {
    throw new Error(`anvil is not installed for ${process.platform}/${process.arch} (${pkg}); run npm install`)
  }
}

const READY_TIMEOUT_MS = 15_000

export async function startAnvil(hostname: string, port: number): Promise<AnvilNode> {
  const child = Bun.spawn(
    [
      anvilBinary(),
      '--host',
      hostname,
      '--port',
      String(port),
      '--chain-id',
      String(ANVIL_CHAIN_ID),
      '--accounts',
      '0',
    ],
    {
      stdout: 'pipe',
      stderr: 'pipe',
    },
  )
  // anvil outlives a parent that exits without stopping the sandbox; kill it on the way out.
  const killOnExit = () => child.kill()
  process.once('exit', killOnExit)
  const stop = async () => {
    process.off('exit', killOnExit)
    child.kill()
    await child.exited
  }
  // Drained from the start, so anvil never blocks on a full pipe; read when it fails to start.
  const stderr = new Response(child.stderr).text()
  try {
    const url = await listeningUrl(child, hostname, stderr)
    return { url, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** Reads anvil's output until it prints `Listening on host:port`. */
async function listeningUrl(
  child: Bun.Subprocess<'ignore', 'pipe', 'pipe'>,
  hostname: string,
  stderr: Promise<string>,
): Promise<string> {
  const reader = child.stdout.getReader()
  const decoder = new TextDecoder()
  let seen = ''
  const timer = setTimeout(() => child.kill(), READY_TIMEOUT_MS)
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      seen += decoder.decode(value, { stream: true })
      const match = /Listening on ([^\s:]+):(\d+)/.exec(seen)
      if (match) {
        // Keep draining stdout so anvil never blocks on a full pipe.
        void (async () => {
          while (!(await reader.read()).done);
        })().catch(() => {})
        return `http://${hostname}:${match[2]}`
      }
    }
  } finally {
    clearTimeout(timer)
  }
  const errors = await stderr
  throw new Error(`anvil did not start: ${(errors || seen).trim().split('\n').slice(-3).join(' ')}`)
}
