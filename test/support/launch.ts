/**
 * Starts a service command, waits for its "listening" log line and returns the URL it serves, the
 * child process and a reader for the rest of its stdout (once it has exited).
 */
export async function launch(cmd: string[], options: { cwd: string; env: Record<string, string> }) {
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
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    const { done, value } = await reader.read()
    if (done) break
    buffer += decoder.decode(value)
    let newline
    while ((newline = buffer.indexOf('\n')) >= 0) {
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
