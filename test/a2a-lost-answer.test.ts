import { expect, test } from 'bun:test'
import { TaskState } from '@a2a-js/sdk'
import { demoPayer } from '../sandbox/demo-client.ts'
import { X402_EXTENSION_URI } from '../src/kernel/a2a.ts'
import { a2aAgent, a2aMessage, legacyMessageSend, paying, requiredBy, saidBy, wordsOf } from './support/a2a.ts'
import { eventually } from './support/eventually.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// A one-step payment (the payload in the task's first message) whose answer is lost — the payer's connection
// dropped while its call ran, so it never learnt the task id. Sending the same payload again, as a payer
// would, is refused as used (it is charged once) and names the task it paid for, whose tasks/get reads the
// answer; it no longer says "Nothing was charged" of a payment that was (review of 2026-11-28). The HTTP path
// serves a paid answer again only to its payer for the same request (docs/payments.md): the task is named only
// to the same call — same skill, same input.
const { sandbox, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })
const agent = await a2aAgent(running.url)
const input = { token_address: mintOf('blue-chip') }
const skill = { 'solsentry.skill': 'sol_quick_scan' }
const TASK_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g

/** A 0.3 message/send whose connection is dropped by `signal` (the official client cannot be cut mid-call). */
const sent = (metadata: Record<string, unknown>, signal: AbortSignal) =>
  fetch(`${running.url}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-a2a-extensions': X402_EXTENSION_URI },
    body: JSON.stringify(legacyMessageSend(1, [{ kind: 'data', data: input }], { ...skill, ...metadata })),
    signal,
  })

test('a one-step payment whose answer was lost: the same payload again names the task that holds the answer, charged once', async () => {
  const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
  const before = await usdcOf(sandbox, payer)
  const required = requiredBy(await agent.send(a2aMessage(input, skill)))
  const payment = await x402.createPaymentPayload(required)

  // The connection drops once the paid call is settling: the payer never reads its task's id.
  const settling = sandbox.faults.countOf('facilitator:/settle')
  sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 1_000 })
  const drop = new AbortController()
  const lost = sent(paying(payment), drop.signal).catch((error: Error) => error)
  try {
    await eventually(
      'the paid call settling',
      () => sandbox.faults.countOf('facilitator:/settle'),
      (n) => n > settling,
    )
    drop.abort()
    expect(await lost).toBeInstanceOf(Error)
    await eventually(
      'charged',
      () => usdcOf(sandbox, payer),
      (now) => now === before - 20_000n,
    )
  } finally {
    sandbox.faults.clear()
  }

  // The payer sends the same payload again, on a new task, for the same call.
  const again = await eventually(
    'the first task answered',
    () => agent.send(a2aMessage(input, { ...skill, ...paying(payment) })),
    (task) => saidBy(task)['solsentry.paid_task'] !== undefined,
  )
  expect(again.status?.state).toBe(TaskState.TASK_STATE_FAILED)
  expect(saidBy(again)['x402.payment.error']).toBe('DUPLICATE_NONCE')
  expect(wordsOf(again)).not.toContain('Nothing was charged')
  const paidTask = saidBy(again)['solsentry.paid_task'] as string
  expect(wordsOf(again).match(TASK_ID)).toContain(paidTask)
  expect(paidTask).not.toBe(again.id)
  const answered = await agent.get(paidTask)
  expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(saidBy(answered)['x402.payment.status']).toBe('payment-completed')
  expect(answered.artifacts[0]?.parts[0]?.content).toMatchObject({
    $case: 'data',
    value: { token_address: input.token_address },
  })

  // Another call with that payload: refused, and the task it paid for is not named.
  const other = await agent.send(
    a2aMessage({ token_address: mintOf('serial-rugger') }, { ...skill, ...paying(payment) }),
  )
  expect(other.status?.state).toBe(TaskState.TASK_STATE_FAILED)
  expect(saidBy(other)['solsentry.paid_task']).toBeUndefined()
  expect(wordsOf(other)).not.toContain(paidTask)
  expect(await usdcOf(sandbox, payer)).toBe(before - 20_000n)
}, 60_000)
