import { afterAll, expect, test } from 'bun:test'
import { TaskState } from '@a2a-js/sdk'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import {
  a2aInstance,
  askedAndSigned,
  collectedOnceSettled,
  paidPending,
  paidWhileRunning,
  saidBy,
} from './support/a2a.ts'
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

const instance = () =>
  a2aInstance(sandbox, {
    REDIS_URL: redis.url,
    RATE_LIMIT_SCANNER_BURST: '1000',
    FACILITATOR_SETTLE_TIMEOUT_MS: '1000',
  })

describeWithRedis('tasks/cancel on another instance (REDIS_URL)', () => {
  test('while the paid call runs, and while its settlement is pending: refused; answered with its receipt, charged once each', async () => {
    const [a, b] = [await instance(), await instance()]
    try {
      // The call running on A, the cancel sent to B.
      const first = await askedAndSigned(a.agent, sandbox, input)
      const before = await usdcOf(sandbox, first.payer)
      const done = await paidWhileRunning({ sandbox, agent: a.agent, readOn: b.agent }, first.task, first.payment, () =>
        expect(b.agent.cancel(first.task.id)).rejects.toThrow(/runs to its end|being handled/),
      )
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
      expect(saidBy(done)['x402.payment.status']).toBe('payment-completed')
      expect(done.artifacts).toHaveLength(1)
      expect(await usdcOf(sandbox, first.payer)).toBe(before - 20_000n)

      // Its settlement pending on A (the facilitator slower than A waits), the cancel sent to B.
      const second = await askedAndSigned(a.agent, sandbox, input)
      const then = await usdcOf(sandbox, second.payer)
      const waiting = await paidPending(sandbox, a.agent, second.task, second.payment)
      expect(saidBy(waiting)['solsentry.settlement']).toMatchObject({ state: 'pending' })
      await expect(b.agent.cancel(second.task.id)).rejects.toThrow(/settlement is pending/)
      expect((await b.agent.get(second.task.id)).status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
      const collected = await collectedOnceSettled({ sandbox, ...b }, second.task, { ...second, before: then })
      expect(collected.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
      expect(collected.artifacts).toHaveLength(1)
      expect(await usdcOf(sandbox, second.payer)).toBe(then - 20_000n)
    } finally {
      await a.running.shutdown('test over')
      await b.running.shutdown('test over')
    }
  }, 60_000)
})
