/**
 * The sandbox: boot time with every scenario, then p50/p99 latency and throughput of the JSON-RPC's
 * getAccountInfo (a mint, base64) and getTokenLargestAccounts (the most widely held scenario token),
 * over HTTP on loopback.
 *
 *   npm run bench -- sandbox-rpc [--requests 2000] [--concurrency 1]
 */
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { numberOption } from './load.ts'

export async function run(args: string[]): Promise<void> {
  const option = (name: string, fallback: number) => numberOption(args, name, fallback)
  const requests = option('requests', 2000)
  const concurrency = option('concurrency', 1)
  const sandbox = await startSandbox(ephemeralSandboxOptions())
  const mint = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
  console.log(
    `bench sandbox-rpc: Bun ${Bun.version}; sandbox boot with ${sandbox.file.scenarios.length} scenarios: ${sandbox.bootMs} ms`,
  )
  console.log(`${requests} requests per method, ${concurrency} concurrent, one HTTP JSON-RPC call each`)
  console.log('')
  console.log('method                      req/s    p50 ms    p99 ms')
  for (const [method, params] of [
    ['getAccountInfo', [mint, { encoding: 'base64' }]],
    ['getTokenLargestAccounts', [mint]],
  ] as const) {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
    const call = async () => {
      const response = await fetch(sandbox.file.urls.rpc, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
      const answer = (await response.json()) as { error?: unknown }
      if (answer.error) throw new Error(`${method} failed: ${JSON.stringify(answer.error)}`)
    }
    for (let i = 0; i < 200; i++) await call() // warm-up
    const latencies: number[] = []
    let next = 0
    const started = performance.now()
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < requests) {
          const sent = performance.now()
          await call()
          latencies.push(performance.now() - sent)
        }
      }),
    )
    const seconds = (performance.now() - started) / 1000
    latencies.sort((a, b) => a - b)
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!
    console.log(
      `${method.padEnd(24)} ${(latencies.length / seconds).toFixed(0).padStart(8)} ${at(0.5).toFixed(2).padStart(9)} ${at(0.99).toFixed(2).padStart(9)}`,
    )
  }
  await sandbox.stop()
}
