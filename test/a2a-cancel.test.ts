import { describe, expect, test } from 'bun:test'
import { TaskState } from '@a2a-js/sdk'
import { a2aAgent, a2aMessage, askedAndSigned, paidWhileRunning, paying, saidBy } from './support/a2a.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// tasks/cancel at each stage of a paid task: waiting for payment (cancelled, its payment unspent), its paid
// call running (refused: the call runs to its end and its answer is read), finished (refused, unchanged).
// Nothing is charged twice, and a paid call is never silently lost.
const { sandbox, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })
const { x402: offers } = sandbox.file
const agent = await a2aAgent(running.url)
const input = { token_address: mintOf('blue-chip') }
const asked = () => askedAndSigned(agent, sandbox, input)

describe('tasks/cancel on a paid task', () => {
  test('waiting for payment: cancelled; its payment, refused there, is unspent and pays once on a new task', async () => {
    const { task, payment, payer } = await asked()
    const before = [await usdcOf(sandbox, payer), await usdcOf(sandbox, offers.solana.pay_to)]
    expect((await agent.cancel(task.id)).status?.state).toBe(TaskState.TASK_STATE_CANCELED)
    await expect(agent.send(a2aMessage(undefined, paying(payment), task.id))).rejects.toThrow(/terminal state/)
    expect([await usdcOf(sandbox, payer), await usdcOf(sandbox, offers.solana.pay_to)]).toEqual(before)
    // Cancelling again answers the cancelled task; nothing changes.
    expect((await agent.cancel(task.id)).status?.state).toBe(TaskState.TASK_STATE_CANCELED)
    const again = await agent.send(a2aMessage(input, { 'solsentry.skill': 'sol_quick_scan', ...paying(payment) }))
    expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(await usdcOf(sandbox, offers.solana.pay_to)).toBe(before[1]! + 20_000n)
    expect(await usdcOf(sandbox, payer)).toBe(before[0]! - 20_000n)
  })

  test('its paid call running: refused, the call runs to its end, its answer read; finished: refused, unchanged; charged once', async () => {
    const { task, payment, payer } = await asked()
    const before = await usdcOf(sandbox, payer)
    // The settlement takes a while (well under the settle timeout): the call is running when the cancel arrives.
    const done = await paidWhileRunning({ sandbox, agent, delayMs: 2_000 }, task, payment, () =>
      expect(agent.cancel(task.id)).rejects.toThrow(/runs to its end/),
    )
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(saidBy(done)['x402.payment.status']).toBe('payment-completed')
    expect(done.artifacts[0]?.parts[0]?.content).toMatchObject({ $case: 'data', value: { schema_version: '2.0' } })
    // Finished: not cancelable, and the answer and receipt stay as they are.
    await expect(agent.cancel(task.id)).rejects.toThrow(/not cancelable/i)
    const after = await agent.get(task.id)
    expect(after.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(after.artifacts).toEqual(done.artifacts)
    expect(await usdcOf(sandbox, payer)).toBe(before - 20_000n)
  })
})
