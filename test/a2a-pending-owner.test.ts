import { expect, test } from 'bun:test'
import { type Task, TaskState } from '@a2a-js/sdk'
import type { PaymentRequired } from '@x402/core/types'
import { paymentMoved } from '../plugins/a2a/task-store.ts'
import { demoPayer } from '../sandbox/demo-client.ts'
import {
  a2aAgent,
  a2aMessage,
  a2aWords,
  collectedOnceSettled,
  paidPending,
  paying,
  requiredBy,
  saidBy,
  wordsOf,
} from './support/a2a.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// A task whose settlement is pending (sent, its outcome read from the chain) owns its payment: whatever else
// arrives on it — a plain message, another payment, a rejection — is answered the pending status again
// (payment-submitted, solsentry.settlement), never new requirements (a client paying what it is asked paid
// twice for one call), and it keeps counting as paid. The same payload sent on other tasks points them to
// it instead of keeping each as paid: one pending payment pinned any number of tasks (review of 2026-11-28).
const { sandbox, ctx, running, mintOf } = await liveService({
  RATE_LIMIT_SCANNER_BURST: '1000',
  FACILITATOR_SETTLE_TIMEOUT_MS: '1000',
})
const agent = await a2aAgent(running.url)
const input = { token_address: mintOf('blue-chip') }
const skill = { 'solsentry.skill': 'sol_quick_scan' }

/** A task whose payment's settlement is pending: the facilitator answers after the service stops waiting. */
async function pending() {
  const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
  const before = await usdcOf(sandbox, payer)
  const asked = await agent.send(a2aMessage(input, skill))
  const required = requiredBy(asked)
  const payment = await x402.createPaymentPayload(required)
  const waiting = await paidPending(sandbox, agent, asked, payment)
  expectPending(waiting)
  return { task: asked, payment, payer, before, required, x402 }
}

function expectPending(task: Task): void {
  expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
  expect(saidBy(task)['x402.payment.status']).toBe('payment-submitted')
  expect(saidBy(task)['solsentry.settlement']).toMatchObject({ state: 'pending' })
  expect(saidBy(task)['x402.payment.required']).toBeUndefined()
  expect(wordsOf(task)).toContain('Do not sign a new payment')
  expect(paymentMoved(task)).toBe(true)
}

/** Once the chain shows the transfer and the resolver read it, the payload on its own task receives the answer. */
async function collected(task: Task, payment: unknown, payer: string, before: bigint): Promise<Task> {
  const done = await collectedOnceSettled({ sandbox, ctx, agent }, task, { payment, payer, before })
  expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(saidBy(done)['x402.payment.status']).toBe('payment-completed')
  expect(done.artifacts).toHaveLength(1)
  return done
}

test('a message on a task whose settlement is pending — none, another payment, a rejection — repeats the pending status; charged once', async () => {
  const { task, payment, payer, before, required, x402 } = await pending()
  expectPending(await agent.send(a2aWords('is it done?', {}, task.id)))
  // Another payment for the same call: not used (never verified nor settled), the task still waits for its own.
  const another = await x402.createPaymentPayload(required as PaymentRequired)
  const offered = await agent.send(a2aMessage(undefined, paying(another), task.id))
  expectPending(offered)
  expect(wordsOf(offered)).toContain('was not used')
  expectPending(await agent.send(a2aMessage(undefined, { 'x402.payment.status': 'payment-rejected' }, task.id)))
  expectPending(await agent.get(task.id))

  await collected(task, payment, payer, before)
  expect(await usdcOf(sandbox, payer)).toBe(before - 20_000n)
}, 60_000)

test('one pending payload sent on new tasks: none of them counts as paid, each names the task that owns it', async () => {
  const { task, payment, payer, before } = await pending()
  for (let i = 0; i < 5; i++) {
    const other = await agent.send(a2aMessage(input, { ...skill, ...paying(payment) }))
    expect(other.status?.state).toBe(TaskState.TASK_STATE_FAILED)
    expect(saidBy(other)['x402.payment.error']).toBe('PAYMENT_PENDING')
    expect(saidBy(other)['solsentry.paid_task']).toBe(task.id)
    expect(wordsOf(other)).toContain(`pending on task ${task.id}`)
    expect(paymentMoved(other)).toBe(false)
    expect(other.artifacts).toHaveLength(0)
  }
  // For another call (another input), the task it waits on is not named: it is not paid by it either.
  const other = await agent.send(
    a2aMessage({ token_address: mintOf('serial-rugger') }, { ...skill, ...paying(payment) }),
  )
  expect(other.status?.state).toBe(TaskState.TASK_STATE_FAILED)
  expect(saidBy(other)['solsentry.paid_task']).toBeUndefined()
  expect(wordsOf(other)).not.toContain(task.id)
  expect(paymentMoved(other)).toBe(false)
  expectPending(await agent.get(task.id))
  await collected(task, payment, payer, before)
  expect(await usdcOf(sandbox, payer)).toBe(before - 20_000n)
}, 60_000)
