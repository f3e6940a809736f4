/** A closed-loop HTTP load generator: `concurrency` workers, each sending its next request when the last answers. */
export interface LoadResult {
  requests: number
  rps: number
  p50Ms: number
  p99Ms: number
  unexpected: number
}

export interface LoadOptions {
  url: string
  method: 'GET' | 'POST'
  body?: string
  expectStatus: number
  durationMs: number
  concurrency: number
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = []
  let unexpected = 0
  const init: RequestInit = {
    method: options.method,
    body: options.body,
    headers: options.body ? { 'content-type': 'application/json' } : {},
  }
  const started = performance.now()
  const end = started + options.durationMs
  async function worker() {
    while (performance.now() < end) {
      const sent = performance.now()
      const response = await fetch(options.url, init)
      await response.arrayBuffer()
      latencies.push(performance.now() - sent)
      if (response.status !== options.expectStatus) unexpected++
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker))
  const elapsedS = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN
  return { requests: latencies.length, rps: latencies.length / elapsedS, p50Ms: at(0.5), p99Ms: at(0.99), unexpected }
}

/**
 * Starts a bench target script and waits for its "READY <url>" line on stderr. `stop()` returns the
 * CPU time (µs) the target process used, which it prints as "CPU <µs>" when it gets SIGTERM.
 */
export async function startTarget(script: string, env: Record<string, string> = {}) {
  const child = Bun.spawn([process.execPath, script], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdout: 'ignore',
    stderr: 'pipe',
  })
  const reader = child.stderr.getReader()
  let text = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) throw new Error(`${script} exited before it was ready: ${text}`)
    text += new TextDecoder().decode(value)
    const match = /READY (\S+)/.exec(text)
    if (match) {
      const stop = async (): Promise<number> => {
        child.kill('SIGTERM')
        for (;;) {
          const cpu = /CPU (\d+)/.exec(text)
          if (cpu) {
            await child.exited
            return Number(cpu[1])
          }
          const next = await reader.read()
          if (next.done) throw new Error(`${script} exited without reporting its CPU time`)
          text += new TextDecoder().decode(next.value)
        }
      }
      return { url: match[1]!, stop }
    }
  }
}

/** A numeric `--name value` option of a bench's arguments, or the fallback. */
export function numberOption(args: string[], name: string, fallback: number): number {
  const index = args.indexOf(`--${name}`)
  return index >= 0 ? Number(args[index + 1]) : fallback
}

/**
 * The same measurement with Debian's `wrk` (C, its own process), so the load generator does not share
 * the server's JavaScript runtime: undefined when `wrk` is not installed (`apt-get install wrk`).
 * Each scenario's status is checked once with fetch first: wrk only counts non-2xx answers.
 */
export async function wrkLoad(options: LoadOptions & { threads?: number }): Promise<LoadResult | undefined> {
  const wrk = Bun.which('wrk')
  if (!wrk) return undefined
  const probe = await fetch(options.url, {
    method: options.method,
    body: options.body,
    headers: options.body ? { 'content-type': 'application/json' } : {},
  })
  await probe.arrayBuffer()
  const args = [
    wrk,
    `-t${options.threads ?? 1}`,
    `-c${options.concurrency}`,
    `-d${Math.max(1, Math.round(options.durationMs / 1000))}s`,
    '--latency',
  ]
  if (options.method === 'POST') {
    const script = `${process.env.TMPDIR ?? '/tmp'}/solsentry-wrk-${process.pid}.lua`
    const body = JSON.stringify(options.body ?? '')
    await Bun.write(
      script,
      `wrk.method = "POST"\nwrk.body = ${body}\nwrk.headers["Content-Type"] = "application/json"\n`,
    )
    args.push('-s', script)
  }
  const child = Bun.spawn([...args, options.url], { stdout: 'pipe', stderr: 'pipe' })
  const out = await new Response(child.stdout).text()
  await child.exited
  const number = (pattern: RegExp) => Number(pattern.exec(out)?.[1] ?? Number.NaN)
  const ms = (pattern: RegExp) => {
    const match = pattern.exec(out)
    if (!match) return Number.NaN
    const value = Number(match[1])
    return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value
  }
  const requests = number(/(\d+) requests in/)
  return {
    requests,
    rps: number(/Requests\/sec:\s+([\d.]+)/),
    p50Ms: ms(/50%\s+([\d.]+)(us|ms|s)/),
    p99Ms: ms(/99%\s+([\d.]+)(us|ms|s)/),
    unexpected: probe.status === options.expectStatus ? 0 : requests,
  }
}
