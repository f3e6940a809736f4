import { describe, expect, test } from 'bun:test'
import { type Task, TaskState } from '@a2a-js/sdk'
import type { PaymentRequired } from '@x402/core/types'
import { generatePrivateKey } from 'viem/accounts'
import { demoPayer } from '../sandbox/demo-client.ts'
import { a2aAgent, jsonRpcOnly, a2aMessage, a2aWords, paying, saidBy } from './support/a2a.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// Each refused payment's x402.payment.error comes from the gate's machine code (the 402 body's
// payment_error), not from its words: real payments signed by the official x402 client, refused for real.
const { sandbox, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const agent = await a2aAgent(running.url, jsonRpcOnly())

const said = (task: Task): Json => saidBy(task)
const ask = (skill: string) =>
  agent.send(a2aMessage({ token_address: mintOf('blue-chip') }, { 'solsentry.skill': skill }))
const submit = (task: Task, payment: unknown) => agent.send(a2aWords('the payment', paying(payment), task.id))

async function refusedWith(task: Task, code: string): Promise<void> {
  expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED)
  expect(said(task)).toMatchObject({ 'x402.payment.status': 'payment-failed', 'x402.payment.error': code })
  expect(said(task)['x402.payment.receipts'][0]).toMatchObject({ success: false })
}

describe("A2A payment errors: the gate's machine code of each refusal", () => {
  test('a payload replayed on a new task: DUPLICATE_NONCE, charged once', async () => {
    const { client: payer, payer: address } = await demoPayer(sandbox.file, 'solana')
    const first = await ask('sol_quick_scan')
    const payment = await payer.createPaymentPayload(said(first)['x402.payment.required'] as PaymentRequired)
    expect((await submit(first, payment)).status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    const paid = await usdcOf(sandbox, address)
    await refusedWith(await submit(await ask('sol_quick_scan'), payment), 'DUPLICATE_NONCE')
    expect(await usdcOf(sandbox, address)).toBe(paid)
  })

  test("a payment signed for a cheaper skill's price: INVALID_AMOUNT", async () => {
    const { client: payer } = await demoPayer(sandbox.file, 'solana')
    const quick = await ask('sol_quick_scan')
    const payment = await payer.createPaymentPayload(said(quick)['x402.payment.required'] as PaymentRequired)
    await refusedWith(await submit(await ask('sol_deep_dive'), payment), 'INVALID_AMOUNT')
  })

  test('a payment naming a network the service does not offer: NETWORK_MISMATCH', async () => {
    const { client: payer } = await demoPayer(sandbox.file, 'solana')
    const task = await ask('sol_quick_scan')
    const payment = (await payer.createPaymentPayload(said(task)['x402.payment.required'] as PaymentRequired)) as Json
    const elsewhere = {
      ...payment,
      accepted: { ...payment.accepted, network: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' },
    }
    await refusedWith(await submit(task, elsewhere), 'NETWORK_MISMATCH')
  })

  test('an EIP-3009 payment from a wallet holding no USDC: INSUFFICIENT_FUNDS, nothing charged', async () => {
    const { client: payer } = await demoPayer(sandbox.file, 'base', generatePrivateKey())
    const task = await ask('sol_quick_scan')
    const payment = await payer.createPaymentPayload(said(task)['x402.payment.required'] as PaymentRequired)
    await refusedWith(await submit(task, payment), 'INSUFFICIENT_FUNDS')
  })
})
