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
import pino from 'pino'
import { demoPayer } from '../sandbox/demo-client.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { loadConfig } from '../src/core/config.ts'
import { FacilitatorClient } from '../src/payments/facilitator.ts'
import { PaymentGate } from '../src/payments/gate.ts'
import { readPayment } from '../src/payments/payment-header.ts'
import { paymentKey } from '../src/payments/payment-key.ts'
import { runPaid } from '../src/payments/http.ts'
import { paymentRails } from '../src/payments/rails.ts'
import { SettlementChecker } from '../src/payments/settlement-check.ts'
import { RPC_PROVIDERS } from '../src/sources/rpc-providers.ts'
import { SolanaSource } from '../src/sources/solana-rpc.ts'
import { CallMeter } from '../src/sources/upstream.ts'
import { openSqliteStore } from '../src/store/index.ts'
import { usdcOf } from '../test/support/x402.ts'

export async function run(args: string[]): Promise<void> {
  const listOption = (name: string, fallback: string) => {
    const at = args.indexOf(`--${name}`)
    return (at >= 0 ? args[at + 1]! : fallback).split(',').map(Number)
  }
  const dusts = listOption('dust', '500,5000')
  const latencies = [0, ...listOption('latency', '100')]
  const sandbox = await startSandbox(ephemeralSandboxOptions())
  const { client, payer } = await demoPayer(sandbox.file, 'solana')
  const paidCall = (headers: Record<string, string>) => ({
    headers: new Headers(headers),
    url: 'http://127.0.0.1:8402/scan/quick',
    resource: 'POST /scan/quick',
    requestHash: 'bench',
    description: 'quick scan',
    amount: '20000',
    requestId: `bench-${crypto.randomUUID()}`,
  })
  const treasury = () => usdcOf(sandbox, sandbox.file.x402.solana.pay_to)
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
      const store = openSqliteStore(':memory:')
      const gate = new PaymentGate({
        rails: paymentRails(loadConfig(sandbox.serviceSettings)),
        ledger: store.ledger,
        facilitator: new FacilitatorClient({ url: sandbox.file.urls.facilitator, settleTimeoutMs: 300 }),
        logger: pino({ level: 'silent' }),
        checker: new SettlementChecker({
          solana: new SolanaSource({ url: sandbox.file.urls.rpc, provider: RPC_PROVIDERS.public }).rpc(new CallMeter()),
        }),
      })
      await gate.start()
      const challenge = gate.challenge(paidCall({}), 'payment required')
      const required = JSON.parse(Buffer.from(challenge.header, 'base64').toString())
      const header = Buffer.from(JSON.stringify(await client.createPaymentPayload(required))).toString('base64')
      const read = readPayment(new Headers({ 'x-payment': header }))
      if (read.kind !== 'payment' || read.payment.x402Version !== 2) throw new Error('unreadable payment')
      const key = paymentKey(read.payment, read.payment.accepted.network)!
      const settledBefore = await treasury()
      sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 700 })
      await runPaid(gate, paidCall({ 'x-payment': header }), async () => ({ status: 200, body: {} }))
      for (let waited = 0; (await treasury()) === settledBefore && waited < 10_000; waited += 100) await Bun.sleep(100)
      sandbox.faults.clear()
      await sandbox.world.faucet.dust(payer, dust)
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
      await gate.stop()
      await store.close()
    }
  await sandbox.stop()
}
