/**
 * Swaps end to end through the service's HTTP layer on the sandbox: quote (risk gate, aggregator,
 * balance, unsigned transaction) and execute (checks, fee verified and held, simulate, send, confirm,
 * fee settled), each with a fresh service (cold caches), with no added latency and with an injected
 * latency on every upstream answer (RPC, aggregator, market, facilitator). The caller's signing is
 * excluded from the end-to-end figure, as the spec's target counts the service's part.
 *
 *   npm run bench -- trade [--latency 100] [--trades 5]
 */
import { wrapFetchWithPayment } from '@x402/fetch'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { createApp } from '../src/app.ts'
import { closeContext } from '../src/context.ts'
import { startServer } from '../src/http/server.ts'
import { demoPayer } from '../sandbox/demo-client.ts'
import { sandboxContext } from '../test/support/live.ts'
import { signLocally } from '../test/support/wallet.ts'
import { numberOption } from './load.ts'

const SOL = 'So11111111111111111111111111111111111111112'
const TOKENS = ['blue-chip', 'sniped-launch', 'wash-traded', 'pump-bonding', 'clmm-pool']
const TARGET_MS = 15_000

export async function run(args: string[]): Promise<void> {
  const latencyMs = numberOption(args, 'latency', 100)
  const trades = numberOption(args, 'trades', TOKENS.length)
  const sandbox = await startSandbox(ephemeralSandboxOptions())
  const buyer = await sandbox.world.signer('demo-buyer')
  const payingFetch = wrapFetchWithPayment(fetch, (await demoPayer(sandbox.file, 'base')).client)
  const mintOf = (name: string) => sandbox.file.scenarios.find((scenario) => scenario.name === name)!.mint
  const upstream = () =>
    ['rpc', 'dexscreener', 'jupiter', 'facilitator'].reduce((sum, key) => sum + sandbox.faults.countOf(key), 0)

  console.log(
    `bench trade: ${trades} swaps of 0.1 SOL per setting, a fresh service (cold caches) per swap, fee paid on the EVM rail`,
  )
  console.log('\nlatency  token             quote ms  execute ms  end to end ms  upstream requests  status')
  for (const added of [0, latencyMs]) {
    sandbox.faults.latencyMs = added
    const totals: number[] = []
    for (let index = 0; index < trades; index++) {
      const token = TOKENS[index % TOKENS.length]!
      const ctx = sandboxContext(sandbox, { RATE_LIMIT_SCANNER_BURST: '100000' })
      await ctx.payments.start()
      const server = startServer(createApp(ctx), ctx)
      const post = (
        path: string,
        body: unknown,
        fetcher: (url: string, init: RequestInit) => Promise<Response> = fetch,
      ) =>
        fetcher(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      const before = upstream()
      let started = performance.now()
      const quoted = (await (
        await post('/trade/quote', {
          input_mint: SOL,
          output_mint: mintOf(token),
          amount_in: '100000000',
          user_public_key: buyer.address,
        })
      ).json()) as {
        job_id: string
        status: string
        unsigned_transaction_b64: string
      }
      const quoteMs = performance.now() - started
      let executeMs = 0
      let status = quoted.status
      if (status === 'QUOTED') {
        const signed = await signLocally(quoted.unsigned_transaction_b64, buyer)
        started = performance.now()
        const executed = (await (
          await post('/trade/execute', { job_id: quoted.job_id, signed_transaction_b64: signed }, payingFetch)
        ).json()) as { status: string }
        executeMs = performance.now() - started
        status = executed.status
      }
      totals.push(quoteMs + executeMs)
      console.log(
        `${String(added).padStart(4)} ms  ${token.padEnd(16)} ${quoteMs.toFixed(0).padStart(8)} ${executeMs.toFixed(0).padStart(11)} ${(quoteMs + executeMs).toFixed(0).padStart(14)} ${String(upstream() - before).padStart(18)}  ${status}`,
      )
      await server.shutdown('bench')
      await closeContext(ctx)
    }
    const sorted = [...totals].sort((a, b) => a - b)
    console.log(
      `  ${added} ms added: end to end p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms (target < ${TARGET_MS} ms)\n`,
    )
  }
  await sandbox.stop()
}
