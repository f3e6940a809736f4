/** A closed-loop HTTP load generator: `concurrency` workers, each sending its next request when the last answers. */
export interface LoadResult {
  /** wrk's socket errors (connect, read, write, timeout); 0 for the fetch generator. */
  socketErrors?: number
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
export async function startTarget(
  script: string,
  env: Record<string, string> = {},
  command: string[] = [process.execPath, script],
) {
  const child = Bun.spawn(command, {
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
      return { url: match[1]!, stop, pid: child.pid }
    }
  }
}

/**
 * The CPU time (user + system, µs) process `pid` has used so far, from Linux's /proc (clock ticks, so
 * 10 ms steps: read it around seconds of load); undefined where /proc is not there.
 */
export async function processCpuUs(pid: number): Promise<number | undefined> {
  try {
    const stat = await Bun.file(`/proc/${pid}/stat`).text()
    // The fields after the command name (which is in parentheses and may hold spaces): utime and stime are 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS_PER_S
  } catch {
    return undefined
  }
}

/** Linux's USER_HZ, the unit of /proc's CPU times (100 on every common build). */
const CLOCK_TICKS_PER_S = 100

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
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
  return {
    socketErrors: socket ? socket.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0,
    requests,
    rps: number(/Requests\/sec:\s+([\d.]+)/),
    p50Ms: ms(/50%\s+([\d.]+)(us|ms|s)/),
    p99Ms: ms(/99%\s+([\d.]+)(us|ms|s)/),
    unexpected: probe.status === options.expectStatus ? 0 : requests,
  }
}

/** The resident memory of process `pid`, MiB (Linux /proc). */
async function rssMiB(pid: number): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text()
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 102.4) / 10
}

/**
 * `npm run bench -- load [--duration 5] [--soak 100000]`: the whole service (every plugin, on a
 * sandbox) under wrk at 64 and 256 connections — GET /health, the 402 path (a quick scan without
 * payment, through the real gate) and warm quick scans (payments waived, the answer cached) — then a
 * soak of `--soak` mixed requests (health, 402s, bad addresses, discovery), printing req/s, p50/p99,
 * errors and the service's resident memory before and after.
 */
export async function run(args: string[]): Promise<void> {
  if (!Bun.which('wrk')) {
    console.log('bench load: wrk is not installed (apt-get install wrk): nothing measured')
    return
  }
  const { startSandbox } = await import('../sandbox/index.ts')
  const { ephemeralSandboxOptions } = await import('../sandbox/options.ts')
  const durationMs = numberOption(args, 'duration', 5) * 1000
  const soakRequests = numberOption(args, 'soak', 100_000)
  const sandbox = await startSandbox(ephemeralSandboxOptions())
  const script = `${import.meta.dir}/targets/solsentry.ts`
  const mint = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
  const scan = JSON.stringify({ token_address: mint })
  const gated = await startTarget(script, { ...sandbox.serviceSettings, BENCH_APP: 'service', LOG_LEVEL: 'warn' })
  const waived = await startTarget(script, {
    ...sandbox.serviceSettings,
    BENCH_APP: 'service',
    BENCH_WAIVE: '1',
    LOG_LEVEL: 'warn',
  })
  // Warm the scan's cache once.
  await (
    await fetch(`${waived.url}/scan/quick`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: scan,
    })
  ).arrayBuffer()
  const cells = [
    { name: 'GET /health', target: gated, method: 'GET' as const, path: '/health', expectStatus: 200 },
    {
      name: 'POST /scan/quick → 402',
      target: gated,
      method: 'POST' as const,
      path: '/scan/quick',
      body: scan,
      expectStatus: 402,
    },
    {
      name: 'POST /scan/quick warm',
      target: waived,
      method: 'POST' as const,
      path: '/scan/quick',
      body: scan,
      expectStatus: 200,
    },
  ]
  console.log(
    `\nbench load: wrk, ${durationMs / 1000} s per cell, Bun ${Bun.version}; the service and its sandbox in their own processes`,
  )
  console.log('cell                        conns     req/s   p50 ms   p99 ms  errors   RSS MiB before → after')
  for (const cell of cells)
    for (const concurrency of [64, 256]) {
      const before = await rssMiB(cell.target.pid)
      const result = (await wrkLoad({ ...cell, url: `${cell.target.url}${cell.path}`, durationMs, concurrency }))!
      const after = await rssMiB(cell.target.pid)
      const errors = result.unexpected + (result.socketErrors ?? 0)
      console.log(
        `${cell.name.padEnd(28)}${String(concurrency).padStart(5)}${result.rps.toFixed(0).padStart(10)}${result.p50Ms.toFixed(2).padStart(9)}${result.p99Ms.toFixed(2).padStart(9)}${String(errors).padStart(8)}   ${before} → ${after}`,
      )
    }
  // The soak: mixed requests in rounds of 5 s at 64 connections until the count is reached.
  const mixed = `${process.env.TMPDIR ?? '/tmp'}/solsentry-soak-${process.pid}.lua`
  await Bun.write(
    mixed,
    `local i = 0
local scan = ${JSON.stringify(scan)}
local bad = '{"token_address":"BONK"}'
request = function()
  i = i + 1
  local k = i % 4
  if k == 0 then return wrk.format("GET", "/health") end
  if k == 1 then return wrk.format("POST", "/scan/quick", {["Content-Type"] = "application/json"}, scan) end
  if k == 2 then return wrk.format("POST", "/scan/quick", {["Content-Type"] = "application/json"}, bad) end
  return wrk.format("GET", "/.well-known/x402")
end
`,
  )
  const start = await rssMiB(gated.pid)
  let sent = 0
  let errors = 0
  let peak = start
  while (sent < soakRequests) {
    const child = Bun.spawn([Bun.which('wrk')!, '-t1', '-c64', '-d5s', '-s', mixed, gated.url], { stdout: 'pipe' })
    const out = await new Response(child.stdout).text()
    await child.exited
    sent += Number(/(\d+) requests in/.exec(out)?.[1] ?? 0)
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
    errors += socket ? socket.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0
    peak = Math.max(peak, await rssMiB(gated.pid))
  }
  await Bun.sleep(2_000)
  Bun.gc(true)
  const end = await rssMiB(gated.pid)
  console.log(
    `soak: ${sent} mixed requests (health, 402, bad address, x402 manifest) at 64 connections; socket errors ${errors}; RSS ${start} → ${end} MiB (peak ${peak}, growth ${(((end - start) / start) * 100).toFixed(1)}%)`,
  )
  await gated.stop()
  await waived.stop()
  await sandbox.stop()
}
