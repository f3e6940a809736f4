import { randomUUID } from 'node:crypto'
import { describe, expect, test } from 'bun:test'
import { type Message, Role, type Task, TaskState } from '@a2a-js/sdk'
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  ServiceParameters,
  withA2AExtensions,
} from '@a2a-js/sdk/client'
import type { PaymentRequired } from '@x402/core/types'
import { generatePrivateKey } from 'viem/accounts'
import { demoPayer } from '../sandbox/demo-client.ts'
import { X402_EXTENSION_URI } from '../src/kernel/a2a.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// Each refused payment's x402.payment.error comes from the gate's machine code (the 402 body's
// payment_error), not from its words: real payments signed by the official x402 client, refused for real.
const { sandbox, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const PAYING = { serviceParameters: ServiceParameters.create(withA2AExtensions(X402_EXTENSION_URI)) }
const client = await new ClientFactory(
  ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory()] }),
).createFromUrl(running.url)

function message(metadata: Record<string, unknown>, input?: unknown, taskId = ''): Message {
  return {
    messageId: randomUUID(),
    contextId: '',
    taskId,
    role: Role.ROLE_USER,
    parts:
      input === undefined
        ? [{ content: { $case: 'text', value: 'the payment' }, metadata: {}, filename: '', mediaType: 'text/plain' }]
        : [{ content: { $case: 'data', value: input }, metadata: {}, filename: '', mediaType: 'application/json' }],
    metadata,
    extensions: [],
    referenceTaskIds: [],
  }
}

async function send(sent: Message): Promise<Task> {
  const answer = await client.sendMessage(
    { tenant: '', message: sent, configuration: undefined, metadata: undefined },
    PAYING,
  )
  if (!('status' in answer)) throw new Error('expected a task')
  return answer
}

const said = (task: Task): Json => task.status?.message?.metadata ?? {}
const ask = (skill: string) => send(message({ 'solsentry.skill': skill }, { token_address: mintOf('blue-chip') }))
const submit = (task: Task, payment: unknown) =>
  send(message({ 'x402.payment.status': 'payment-submitted', 'x402.payment.payload': payment }, undefined, task.id))

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
