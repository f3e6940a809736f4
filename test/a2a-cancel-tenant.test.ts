import { describe, expect, test } from 'bun:test'
import { TaskState } from '@a2a-js/sdk'
import {
  a2aAgent,
  a2aRpc,
  askedAndSigned,
  collectedOnceSettled,
  paidPending,
  paidWhileRunning,
  saidBy,
} from './support/a2a.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// tasks/cancel never turns a paid task into `canceled`, whatever tenant an A2A 1.0 CancelTask names: the SDK
// looks a running call's event bus up per tenant while the tasks are not kept per tenant, so a tenant made it
// cancel a task it did not find running (review of 2026-11-28). The tenant is ignored, as the store ignores it:
// only a task waiting for its payment, unpaid, is cancelled — never one whose call runs or whose settlement
// is pending (its money may have moved).
const { sandbox, ctx, running, mintOf } = await liveService({
  RATE_LIMIT_SCANNER_BURST: '1000',
  FACILITATOR_SETTLE_TIMEOUT_MS: '1000',
})
const agent = await a2aAgent(running.url)
const input = { token_address: mintOf('blue-chip') }
const cancelTask = (id: string, tenant?: string) =>
  a2aRpc(running.url, 'CancelTask', { id, ...(tenant ? { tenant } : {}) })

const asked = () => askedAndSigned(agent, sandbox, input)

describe('CancelTask with a tenant', () => {
  test('waiting for payment, unpaid: cancelled (the tenant ignored)', async () => {
    const { task } = await asked()
    const cancelled = await cancelTask(task.id, 'x')
    expect(cancelled.error).toBeUndefined()
    expect((await agent.get(task.id)).status?.state).toBe(TaskState.TASK_STATE_CANCELED)
  })

  test('its paid call running: refused; the call ends completed with its receipt, charged once', async () => {
    const { task, payment, payer } = await asked()
    const before = await usdcOf(sandbox, payer)
    const done = await paidWhileRunning({ sandbox, agent }, task, payment, async () =>
      expect((await cancelTask(task.id, 'x')).error?.message).toMatch(/runs to its end|being handled/),
    )
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(saidBy(done)['x402.payment.status']).toBe('payment-completed')
    expect(done.artifacts).toHaveLength(1)
    expect(await usdcOf(sandbox, payer)).toBe(before - 20_000n)
  })

  test('its settlement pending: refused with or without a tenant; the same payload then receives the answer, charged once', async () => {
    const { task, payment, payer } = await asked()
    const before = await usdcOf(sandbox, payer)
    // The facilitator answers after the service stops waiting (FACILITATOR_SETTLE_TIMEOUT_MS): the settlement is pending.
    const waiting = await paidPending(sandbox, agent, task, payment)
    expect(saidBy(waiting)['solsentry.settlement']).toMatchObject({ state: 'pending' })
    for (const tenant of ['x', undefined]) {
      const refused = await cancelTask(task.id, tenant)
      expect(refused.error?.message).toMatch(/settlement is pending.*same payload/)
    }
    await expect(agent.cancel(task.id)).rejects.toThrow(/settlement is pending/)
    const kept = await agent.get(task.id)
    expect(kept.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
    expect(saidBy(kept)['x402.payment.status']).toBe('payment-submitted')

    const done = await collectedOnceSettled({ sandbox, ctx, agent }, task, { payment, payer, before })
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(saidBy(done)['x402.payment.status']).toBe('payment-completed')
    expect(done.artifacts).toHaveLength(1)
    expect(await usdcOf(sandbox, payer)).toBe(before - 20_000n)
  }, 60_000)
})
