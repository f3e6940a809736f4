import { afterAll, expect, test } from 'bun:test'
import { type Task, TaskState } from '@a2a-js/sdk'
import { demoPayer } from '../sandbox/demo-client.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { createApp } from '../src/app.ts'
import { startServer } from '../src/http/server.ts'
import { a2aAgent, a2aMessage, paying, requiredBy, saidBy } from './support/a2a.ts'
import { eventually } from './support/eventually.ts'
import { sandboxContext } from './support/live.ts'
import { describeWithRedis, redisForFile } from './support/redis.ts'
import { usdcOf } from './support/x402.ts'

// Two instances sharing their tasks and claims in Redis: a tasks/cancel reaching the instance that does not
// run the paid call finds no event bus there, and the SDK would write the task `canceled` in the store while
// the call settles — its final status then ignored, the payer charged for a cancelled task (review of
// 2026-11-28). Refused on every instance, the running call's and its pending settlement's alike.
const redis = redisForFile()
const sandbox = await startSandbox(ephemeralSandboxOptions())
afterAll(() => sandbox.stop())
const input = { token_address: sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint }

async function instance() {
  const ctx = sandboxContext(sandbox, {
    REDIS_URL: redis.url,
    RATE_LIMIT_SCANNER_BURST: '1000',
    FACILITATOR_SETTLE_TIMEOUT_MS: '1000',
  })
  await ctx.payments.start()
  const running = startServer(createApp(ctx), ctx)
  return { ctx, running, agent: await a2aAgent(running.url) }
}

async function asked(agent: Awaited<ReturnType<typeof a2aAgent>>) {
  const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
  const task = await agent.send(a2aMessage(input, { 'solsentry.skill': 'sol_quick_scan' }))
  return { task, payment: await x402.createPaymentPayload(requiredBy(task)), payer }
}

describeWithRedis('tasks/cancel on another instance (REDIS_URL)', () => {
  test('while the paid call runs, and while its settlement is pending: refused; answered with its receipt, charged once each', async () => {
    const [a, b] = [await instance(), await instance()]
    try {
      // The call running on A, the cancel sent to B.
      const first = await asked(a.agent)
      const before = await usdcOf(sandbox, first.payer)
      sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 500 })
      let done: Task
      try {
        const working = await a.agent.send(a2aMessage(undefined, paying(first.payment), first.task.id), true)
        expect(working.status?.state).toBe(TaskState.TASK_STATE_WORKING)
        await expect(b.agent.cancel(first.task.id)).rejects.toThrow(/runs to its end|being handled/)
        done = await eventually(
          'the paid call answered',
          () => b.agent.get(first.task.id),
          (read) => read.status?.state !== TaskState.TASK_STATE_WORKING,
        )
      } finally {
        sandbox.faults.clear()
      }
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
      expect(saidBy(done)['x402.payment.status']).toBe('payment-completed')
      expect(done.artifacts).toHaveLength(1)
      expect(await usdcOf(sandbox, first.payer)).toBe(before - 20_000n)

      // Its settlement pending on A (the facilitator slower than A waits), the cancel sent to B.
      const second = await asked(a.agent)
      const then = await usdcOf(sandbox, second.payer)
      sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 2_500 })
      try {
        const waiting = await a.agent.send(a2aMessage(undefined, paying(second.payment), second.task.id))
        expect(saidBy(waiting)['solsentry.settlement']).toMatchObject({ state: 'pending' })
      } finally {
        sandbox.faults.clear()
      }
      await expect(b.agent.cancel(second.task.id)).rejects.toThrow(/settlement is pending/)
      expect((await b.agent.get(second.task.id)).status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
      await eventually(
        'the settlement on chain',
        () => usdcOf(sandbox, second.payer),
        (now) => now !== then,
      )
      await b.ctx.payments.resolvePending()
      const collected = await b.agent.send(a2aMessage(undefined, paying(second.payment), second.task.id))
      expect(collected.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
      expect(collected.artifacts).toHaveLength(1)
      expect(await usdcOf(sandbox, second.payer)).toBe(then - 20_000n)
    } finally {
      await a.running.shutdown('test over')
      await b.running.shutdown('test over')
    }
  }, 60_000)
})
