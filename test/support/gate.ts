import pino from 'pino'
import type { RunningSandbox } from '../../sandbox/index.ts'
import { loadConfig } from '../../src/settings.ts'
import { FacilitatorClient, type FacilitatorOptions } from '../../src/payments/facilitator.ts'
import { PaymentGate, type PaidCall } from '../../src/payments/gate.ts'
import { paymentRails } from '../../src/payments/rails.ts'
import type { SettlementChecker } from '../../src/payments/settlement-check.ts'
import { openSqliteStore } from '../../src/store/index.ts'
import { demoPayer } from '../../sandbox/demo-client.ts'
import { paymentHeader, usdcOf } from './x402.ts'

/**
 * A payment gate on the sandbox's rails and facilitator, with an in-memory ledger; started (it has
 * read /supported). `close()` stops it and its store, not the sandbox.
 */
export async function sandboxGate(
  sandbox: RunningSandbox,
  options: { facilitator?: Partial<FacilitatorOptions>; checker?: SettlementChecker } = {},
) {
  const store = openSqliteStore(':memory:')
  const gate = new PaymentGate({
    rails: paymentRails(loadConfig(sandbox.serviceSettings)),
    ledger: store.ledger,
    facilitator: new FacilitatorClient({
      url: sandbox.file.urls.facilitator,
      timeoutMs: 1_000,
      ...options.facilitator,
    }),
    logger: pino({ level: 'silent' }),
    checker: options.checker,
  })
  await gate.start()
  return {
    gate,
    store,
    async close() {
      gate.stop()
      await store.close()
    },
  }
}

/** Each sandbox rail with the official v2 client paying on it, its payer and the balance its payTo holds. */
export async function payingRails(sandbox: RunningSandbox) {
  const { x402: offers } = sandbox.file
  const [solana, evm] = await Promise.all([demoPayer(sandbox.file, 'solana'), demoPayer(sandbox.file, 'base')])
  return [
    {
      name: 'solana',
      client: solana.client,
      payer: solana.payer,
      treasury: () => usdcOf(sandbox, offers.solana.pay_to),
    },
    {
      name: 'base (anvil)',
      client: evm.client,
      payer: evm.payer,
      treasury: () => sandbox.evm.usdcBalance(offers.base.pay_to as `0x${string}`),
    },
  ]
}
export type PayingRail = Awaited<ReturnType<typeof payingRails>>[number]

let calls = 0
/** One quick-scan call as the gate sees it, with these request headers. */
export const paidCall = (headers: Record<string, string> = {}): PaidCall => ({
  headers: new Headers(headers),
  url: 'http://127.0.0.1:8402/scan/quick',
  resource: 'POST /scan/quick',
  requestHash: 'one quick scan request',
  description: 'quick scan',
  amount: '20000',
  requestId: `req-${++calls}`,
})

/**
 * Pays the gate's challenge for `amount` as the official v2 client does, on the rail its scheme
 * serves; the base64 header to send.
 */
export async function payFor(gate: PaymentGate, rail: PayingRail, amount = '20000'): Promise<string> {
  const challenge = gate.challenge({ ...paidCall(), amount }, 'payment required')
  return paymentHeader(rail.client, challenge.header)
}
