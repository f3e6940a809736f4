/**
 * How long a pending Solana payment takes to be found on chain when its payer's history is buried
 * under newer transactions (docs/payments.md, "Pending payments"). For each setting: a payment by the
 * official v2 client (it writes a memo) is left pending (the facilitator answers after the gate stopped
 * waiting), settles on chain, its payer receives `dust` transfers, its blockhash expires; then the
 * gate's resolver runs as it does every 30 s until the payment is credited. Prints the resolver passes,
 * the wall time they took and the RPC calls, with no added latency and with `--latency` ms added to
 * every RPC answer, paced to the Solana public endpoint's limits (40 calls per method per 10 s).
 *
 *   npm run bench -- pending [--dust 500,5000] [--latency 100]
 */
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { runPaid } from '../src/http/payment-adapter.ts'
import { SettlementChecker } from '../src/payments/settlement-check.ts'
import { RPC_PROVIDERS } from '../src/sources/rpc-providers.ts'
import { SolanaSource } from '../src/sources/solana-rpc.ts'
import { CallMeter } from '../src/sources/upstream.ts'
import { paidCall, payFor, payingRails, sandboxGate } from '../test/support/gate.ts'
import { ledgerKeyOf } from '../test/support/x402.ts'

export async function run(args: string[]): Promise<void> {
  const listOption = (name: string, fallback: string) => {
    const at = args.indexOf(`--${name}`)
    return (at >= 0 ? args[at + 1]! : fallback).split(',').map(Number)
  }
  const dusts = listOption('dust', '500,5000')
  const latencies = [0, ...listOption('latency', '100')]
  const sandbox = await startSandbox(ephemeralSandboxOptions())
  const rail = (await payingRails(sandbox)).find((paying) => paying.name === 'solana')!
  const rpcCalls = () =>
    ['getSignaturesForAddress', 'getTransaction', 'getSignatureStatuses', 'isBlockhashValid'].map((method) =>
      sandbox.faults.countOf(`rpc:${method}`),
    )

  console.log(
    `bench pending: a v2 payment (with its memo) left pending, its payer buried under dust, blockhash expired; RPC paced as ${RPC_PROVIDERS.public.label}`,
  )
  console.log('\nadded ms   dust  passes  resolve ms  getSignaturesForAddress  getTransaction  other')
  for (const latency of latencies)
    for (const dust of dusts) {
      const { gate, store, close } = await sandboxGate(sandbox, {
        facilitator: { settleTimeoutMs: 300 },
        checker: new SettlementChecker({
          solana: new SolanaSource({ url: sandbox.file.urls.rpc, provider: RPC_PROVIDERS.public }).rpc(new CallMeter()),
        }),
      })
      const header = await payFor(gate, rail)
      const key = ledgerKeyOf(header)
      const settledBefore = await rail.treasury()
      sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 700 })
      await runPaid(gate, paidCall({ 'x-payment': header }), async () => ({ status: 200, body: {} }))
      for (let waited = 0; (await rail.treasury()) === settledBefore && waited < 10_000; waited += 100)
        await Bun.sleep(100)
      sandbox.faults.clear()
      await sandbox.world.faucet.dust(rail.payer, dust)
      for (let block = 0; block < 160; block++) sandbox.world.chain.produceBlock()

      sandbox.faults.latencyMs = latency
      const [signatures0, transactions0, statuses0, blockhash0] = rpcCalls()
      const started = performance.now()
      let passes = 0
      while ((await store.ledger.get(key))?.state === 'pending' && passes < 100) {
        await gate.resolvePending()
        passes++
      }
      const took = performance.now() - started
      const [signatures, transactions, statuses, blockhash] = rpcCalls()
      sandbox.faults.latencyMs = 0
      const state = (await store.ledger.get(key))?.state
      console.log(
        `${String(latency).padStart(8)} ${String(dust).padStart(6)} ${String(passes).padStart(7)} ${took.toFixed(0).padStart(11)} ${String(signatures! - signatures0!).padStart(24)} ${String(transactions! - transactions0!).padStart(15)} ${String(statuses! - statuses0! + blockhash! - blockhash0!).padStart(6)}${state === 'credited' ? '' : `  (${state})`}`,
      )
      await close()
    }
  await sandbox.stop()
}
