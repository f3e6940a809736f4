import { randomUUID } from 'node:crypto'
import { expect, test } from 'bun:test'
import { type Message, Role, type Task, TaskState } from '@a2a-js/sdk'
import { ClientFactory, ServiceParameters, withA2AExtensions } from '@a2a-js/sdk/client'
import type { PaymentRequired } from '@x402/core/types'
import { demoPayer } from '../sandbox/demo-client.ts'
import { X402_EXTENSION_URI } from '../src/kernel/a2a.ts'
import { eventually } from './support/eventually.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// The adversarial review's money holes (2026-11-28), against the sandbox: a message on a task whose paid
// call is running must not lose that call's answer, and a payment answered at once (returnImmediately)
// must say the call is running, never offer the requirements again.
const { sandbox, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })
const PAYING = { serviceParameters: ServiceParameters.create(withA2AExtensions(X402_EXTENSION_URI)) }
const client = await new ClientFactory().createFromUrl(running.url)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function message(metadata: Record<string, unknown>, taskId = '', text?: string): Message {
  const data = {
    content: { $case: 'data' as const, value: { token_address: mintOf('blue-chip') } },
    metadata: {},
    filename: '',
    mediaType: '',
  }
  const words = { content: { $case: 'text' as const, value: text ?? '' }, metadata: {}, filename: '', mediaType: '' }
  const parts = text !== undefined ? [words] : taskId ? [] : [data]
  return {
    messageId: randomUUID(),
    contextId: '',
    taskId,
    role: Role.ROLE_USER,
    parts,
    metadata,
    extensions: [],
    referenceTaskIds: [],
  }
}
async function send(sent: Message, returnImmediately = false): Promise<Task> {
  const configuration = returnImmediately
    ? { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true }
    : undefined
  const answer = await client.sendMessage({ tenant: '', message: sent, configuration, metadata: undefined }, PAYING)
  if (!('status' in answer)) throw new Error('expected a task')
  return answer
}
const get = (id: string) => client.getTask({ tenant: '', id, historyLength: 0 }, PAYING)
const said = (task: Task) => (task.status?.message?.metadata ?? {}) as Record<string, unknown>

test('a message without payment on a task whose paid call runs is refused; the paid answer lands in the task', async () => {
  const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
  const before = await usdcOf(sandbox, payer)
  const asked = await send(message({ 'solsentry.skill': 'sol_quick_scan' }))
  const payment = await x402.createPaymentPayload(said(asked)['x402.payment.required'] as PaymentRequired)
  // The facilitator takes 3 s to settle: the paid call is running meanwhile.
  sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 3_000 })
  try {
    const paying = send(
      message({ 'x402.payment.status': 'payment-submitted', 'x402.payment.payload': payment }, asked.id),
    )
    await sleep(1_000)
    expect((await get(asked.id)).status?.state).toBe(TaskState.TASK_STATE_WORKING)
    await expect(send(message({}, asked.id, 'is it done yet?'))).rejects.toThrow(/a paid call is running.*tasks\/get/)
    const paid = await paying
    expect(paid.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(paid.artifacts).toHaveLength(1)
  } finally {
    sandbox.faults.clear()
  }
  const after = await get(asked.id)
  expect(after.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(after.artifacts[0]?.parts[0]?.content).toMatchObject({ $case: 'data', value: { schema_version: '2.0' } })
  expect(said(after)['x402.payment.status']).toBe('payment-completed')
  expect((await usdcOf(sandbox, payer)) - before).toBe(-20_000n)
}, 60_000)

test('a payment answered at once (returnImmediately) says working, payment-submitted; a second payment is refused; paid once', async () => {
  const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
  const before = await usdcOf(sandbox, payer)
  const asked = await send(message({ 'solsentry.skill': 'sol_quick_scan' }))
  const required = said(asked)['x402.payment.required'] as PaymentRequired
  sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 2_000 })
  try {
    const submitted = (payment: unknown) => ({
      'x402.payment.status': 'payment-submitted',
      'x402.payment.payload': payment,
    })
    const first = await send(message(submitted(await x402.createPaymentPayload(required)), asked.id), true)
    expect(first.status?.state).toBe(TaskState.TASK_STATE_WORKING)
    expect(said(first)['x402.payment.status']).toBe('payment-submitted')
    expect(said(first)['x402.payment.required']).toBeUndefined()
    // A client paying again anyway (a fresh signature) is refused, its payment unused.
    const again = message(submitted(await x402.createPaymentPayload(required)), asked.id)
    await expect(send(again)).rejects.toThrow(/a paid call is running/)
    const done = await eventually(
      'the task completed',
      () => get(asked.id),
      (task) => task.status?.state === TaskState.TASK_STATE_COMPLETED,
      { timeoutMs: 15_000 },
    )
    expect(done.artifacts).toHaveLength(1)
  } finally {
    sandbox.faults.clear()
  }
  await sleep(1_000)
  expect((await usdcOf(sandbox, payer)) - before).toBe(-20_000n)
}, 60_000)

test('a first message carrying its payment, answered at once, says working (not submitted) and ends completed', async () => {
  const { client: x402 } = await demoPayer(sandbox.file, 'solana')
  const asked = await send(message({ 'solsentry.skill': 'sol_quick_scan' }))
  const payment = await x402.createPaymentPayload(said(asked)['x402.payment.required'] as PaymentRequired)
  const first = await send(
    message({
      'solsentry.skill': 'sol_quick_scan',
      'x402.payment.status': 'payment-submitted',
      'x402.payment.payload': payment,
    }),
    true,
  )
  expect(first.status?.state).toBe(TaskState.TASK_STATE_WORKING)
  expect(said(first)['x402.payment.status']).toBe('payment-submitted')
  const done = await eventually(
    'completed',
    () => get(first.id),
    (task) => task.status?.state === TaskState.TASK_STATE_COMPLETED,
  )
  expect(said(done)['x402.payment.status']).toBe('payment-completed')
}, 60_000)

test('a task id that is not a string is a clean invalid-params error; an unknown task says how to collect a payment', async () => {
  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const answer = await fetch(`${running.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-a2a-extensions': X402_EXTENSION_URI, ...headers },
      body: JSON.stringify(body),
    })
    expect(answer.status).toBe(200)
    return (await answer.json()) as { error?: { code: number; message: string } }
  }
  const legacy = (taskId: unknown) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'message/send',
    params: {
      message: { kind: 'message', messageId: randomUUID(), role: 'user', taskId, parts: [{ kind: 'text', text: 'p' }] },
    },
  })
  for (const taskId of [5, [randomUUID()], { id: 'x' }]) {
    const refused = await post(legacy(taskId))
    expect(refused.error?.code).toBe(-32602)
    expect(refused.error?.message).toContain('message.taskId is')
    expect(refused.error?.message).not.toContain('trim')
  }
  const current = {
    jsonrpc: '2.0',
    id: 2,
    method: 'SendMessage',
    params: { message: { messageId: randomUUID(), task_id: 7, role: 'ROLE_USER', parts: [{ text: 'p' }] } },
  }
  expect((await post(current, { 'a2a-version': '1.0' })).error?.code).toBe(-32602)

  const unknown = randomUUID()
  const onMessage = await post(legacy(unknown))
  expect(onMessage.error?.message).toContain(`Task not found: ${unknown}`)
  expect(onMessage.error?.message).toContain('send the same payload')
  const onGet = await post({ jsonrpc: '2.0', id: 3, method: 'tasks/get', params: { id: unknown } })
  expect(onGet.error?.message).toContain('on a new task')
})
