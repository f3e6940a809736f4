import { randomUUID } from 'node:crypto'
import { describe, expect, test } from 'bun:test'
import { type Message, Role, type Task, TaskState } from '@a2a-js/sdk'
import { ClientFactory, ServiceParameters, withA2AExtensions } from '@a2a-js/sdk/client'
import type { PaymentRequired } from '@x402/core/types'
import { demoPayer } from '../sandbox/demo-client.ts'
import { X402_EXTENSION_URI } from '../src/kernel/a2a.ts'
import { eventually } from './support/eventually.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// tasks/cancel at each stage of a paid task: waiting for payment (cancelled, its payment unspent), its paid
// call running (refused: the call runs to its end and its answer is read), finished (refused, unchanged).
// Nothing is charged twice, and a paid call is never silently lost.
const { sandbox, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })
const { x402: offers } = sandbox.file
const PAYING = { serviceParameters: ServiceParameters.create(withA2AExtensions(X402_EXTENSION_URI)) }
const client = await new ClientFactory().createFromUrl(running.url)

function message(metadata: Record<string, unknown>, taskId = ''): Message {
  const input = { token_address: mintOf('blue-chip') }
  return {
    messageId: randomUUID(),
    contextId: '',
    taskId,
    role: Role.ROLE_USER,
    parts: taskId ? [] : [{ content: { $case: 'data', value: input }, metadata: {}, filename: '', mediaType: '' }],
    metadata,
    extensions: [],
    referenceTaskIds: [],
  }
}

async function send(sent: Message, returnImmediately = false): Promise<Task> {
  const configuration = { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately }
  const answer = await client.sendMessage({ tenant: '', message: sent, configuration, metadata: undefined }, PAYING)
  if (!('status' in answer)) throw new Error('expected a task')
  return answer
}

const get = (id: string) => client.getTask({ tenant: '', id, historyLength: undefined }, PAYING)
const cancel = (id: string) => client.cancelTask({ tenant: '', id, metadata: undefined }, PAYING)
const paying = (payment: unknown) => ({ 'x402.payment.status': 'payment-submitted', 'x402.payment.payload': payment })

async function asked(): Promise<{ task: Task; payment: unknown; payer: string }> {
  const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
  const task = await send(message({ 'solsentry.skill': 'sol_quick_scan' }))
  expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
  const required = task.status?.message?.metadata?.['x402.payment.required'] as PaymentRequired
  return { task, payment: await x402.createPaymentPayload(required), payer }
}

describe('tasks/cancel on a paid task', () => {
  test('waiting for payment: cancelled; its payment, refused there, is unspent and pays once on a new task', async () => {
    const { task, payment, payer } = await asked()
    const before = [await usdcOf(sandbox, payer), await usdcOf(sandbox, offers.solana.pay_to)]
    expect((await cancel(task.id)).status?.state).toBe(TaskState.TASK_STATE_CANCELED)
    await expect(send(message(paying(payment), task.id))).rejects.toThrow(/terminal state/)
    expect([await usdcOf(sandbox, payer), await usdcOf(sandbox, offers.solana.pay_to)]).toEqual(before)
    // Cancelling again answers the cancelled task; nothing changes.
    expect((await cancel(task.id)).status?.state).toBe(TaskState.TASK_STATE_CANCELED)
    const again = await send(message({ 'solsentry.skill': 'sol_quick_scan', ...paying(payment) }))
    expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(await usdcOf(sandbox, offers.solana.pay_to)).toBe(before[1]! + 20_000n)
    expect(await usdcOf(sandbox, payer)).toBe(before[0]! - 20_000n)
  })

  test('its paid call running: refused, the call runs to its end, its answer read; finished: refused, unchanged; charged once', async () => {
    const { task, payment, payer } = await asked()
    const before = await usdcOf(sandbox, payer)
    // The settlement takes a while (well under the settle timeout): the call is running when the cancel arrives.
    sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 2_000 })
    let done: Task
    try {
      const first = await send(message(paying(payment), task.id), true)
      expect(first.status?.state).toBe(TaskState.TASK_STATE_WORKING)
      await expect(cancel(task.id)).rejects.toThrow(/runs to its end/)
      done = await eventually(
        'the paid call answered',
        () => get(task.id),
        (read) => read.status?.state !== TaskState.TASK_STATE_WORKING,
      )
    } finally {
      sandbox.faults.clear()
    }
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(done.status?.message?.metadata?.['x402.payment.status']).toBe('payment-completed')
    expect(done.artifacts[0]?.parts[0]?.content).toMatchObject({ $case: 'data', value: { schema_version: '2.0' } })
    // Finished: not cancelable, and the answer and receipt stay as they are.
    await expect(cancel(task.id)).rejects.toThrow(/not cancelable/i)
    const after = await get(task.id)
    expect(after.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(after.artifacts).toEqual(done.artifacts)
    expect(await usdcOf(sandbox, payer)).toBe(before - 20_000n)
  })
})
