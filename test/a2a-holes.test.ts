import { randomUUID } from 'node:crypto'
import { expect, test } from 'bun:test'
import { TaskState } from '@a2a-js/sdk'
import { demoPayer } from '../sandbox/demo-client.ts'
import { X402_EXTENSION_URI } from '../src/kernel/a2a.ts'
import { a2aAgent, a2aMessage, a2aWords, paying, requiredBy, saidBy } from './support/a2a.ts'
import { eventually } from './support/eventually.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// The adversarial review's money holes (2026-11-28), against the sandbox: a message on a task whose paid
// call is running must not lose that call's answer, and a payment answered at once (returnImmediately)
// must say the call is running, never offer the requirements again.
const { sandbox, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })
const agent = await a2aAgent(running.url)
const input = { token_address: mintOf('blue-chip') }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const quick = { 'solsentry.skill': 'sol_quick_scan' }
const get = (id: string) => agent.get(id, 0)

test('a message without payment on a task whose paid call runs is refused; the paid answer lands in the task', async () => {
  const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
  const before = await usdcOf(sandbox, payer)
  const asked = await agent.send(a2aMessage(input, quick))
  const payment = await x402.createPaymentPayload(requiredBy(asked))
  // The facilitator takes 3 s to settle: the paid call is running meanwhile.
  sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 3_000 })
  try {
    const answered = agent.send(a2aMessage(undefined, paying(payment), asked.id))
    await sleep(1_000)
    expect((await get(asked.id)).status?.state).toBe(TaskState.TASK_STATE_WORKING)
    await expect(agent.send(a2aWords('is it done yet?', {}, asked.id))).rejects.toThrow(
      /a paid call is running.*tasks\/get/,
    )
    const paid = await answered
    expect(paid.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(paid.artifacts).toHaveLength(1)
  } finally {
    sandbox.faults.clear()
  }
  const after = await get(asked.id)
  expect(after.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(after.artifacts[0]?.parts[0]?.content).toMatchObject({ $case: 'data', value: { schema_version: '2.0' } })
  expect(saidBy(after)['x402.payment.status']).toBe('payment-completed')
  expect((await usdcOf(sandbox, payer)) - before).toBe(-20_000n)
}, 60_000)

test('a payment answered at once (returnImmediately) says working, payment-submitted; a second payment is refused; paid once', async () => {
  const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
  const before = await usdcOf(sandbox, payer)
  const asked = await agent.send(a2aMessage(input, quick))
  const required = requiredBy(asked)
  sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 2_000 })
  try {
    const first = await agent.send(
      a2aMessage(undefined, paying(await x402.createPaymentPayload(required)), asked.id),
      true,
    )
    expect(first.status?.state).toBe(TaskState.TASK_STATE_WORKING)
    expect(saidBy(first)['x402.payment.status']).toBe('payment-submitted')
    expect(saidBy(first)['x402.payment.required']).toBeUndefined()
    // A client paying again anyway (a fresh signature) is refused, its payment unused.
    const again = a2aMessage(undefined, paying(await x402.createPaymentPayload(required)), asked.id)
    await expect(agent.send(again)).rejects.toThrow(/a paid call is running/)
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
  const asked = await agent.send(a2aMessage(input, quick))
  const payment = await x402.createPaymentPayload(requiredBy(asked))
  const first = await agent.send(a2aMessage(input, { ...quick, ...paying(payment) }), true)
  expect(first.status?.state).toBe(TaskState.TASK_STATE_WORKING)
  expect(saidBy(first)['x402.payment.status']).toBe('payment-submitted')
  const done = await eventually(
    'completed',
    () => get(first.id),
    (task) => task.status?.state === TaskState.TASK_STATE_COMPLETED,
  )
  expect(saidBy(done)['x402.payment.status']).toBe('payment-completed')
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
