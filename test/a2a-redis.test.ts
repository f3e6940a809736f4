import { randomUUID } from 'node:crypto'
import { afterAll, expect, test } from 'bun:test'
import { type Task, TaskState } from '@a2a-js/sdk'
import { demoPayer } from '../sandbox/demo-client.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { type A2aAgent, a2aInstance, a2aMessage, a2aRpc, paying, requiredBy } from './support/a2a.ts'
import { describeWithRedis, redisForFile } from './support/redis.ts'

// Two service instances on one Redis (a real redis-server) and one sandbox, each over HTTP on loopback:
// an A2A task made on one is paid on the other, and two payments for one task sent to both at once pay once.
const redis = redisForFile()
const sandbox = await startSandbox(ephemeralSandboxOptions())
afterAll(() => sandbox.stop())
const mint = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
const input = { token_address: mint }

const instance = () => a2aInstance(sandbox, { REDIS_URL: redis.url, RATE_LIMIT_SCANNER_BURST: '1000' })
const ask = (agent: A2aAgent) => agent.send(a2aMessage(input, { 'solsentry.skill': 'sol_quick_scan' }))
const submit = (agent: A2aAgent, task: Task, payment: unknown) =>
  agent.send(a2aMessage(undefined, paying(payment), task.id))

describeWithRedis('A2A on several instances (tasks and payment claims in Redis)', () => {
  test('a task made on one instance is paid on another; two payments sent to both at once pay once', async () => {
    const [a, b] = [await instance(), await instance()]
    try {
      const { client: x402, payer } = await demoPayer(sandbox.file, 'base')
      const before = await sandbox.evm.usdcBalance(payer as `0x${string}`)

      const asked = await ask(a.agent)
      expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
      const done = await submit(b.agent, asked, await x402.createPaymentPayload(requiredBy(asked)))
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
      const got = await a.agent.get(asked.id)
      expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
      expect(got.artifacts[0]?.parts[0]?.content).toMatchObject({ $case: 'data', value: { token_address: mint } })
      expect(await sandbox.evm.usdcBalance(payer as `0x${string}`)).toBe(before - 20_000n)

      const again = await ask(b.agent)
      const payments = [
        await x402.createPaymentPayload(requiredBy(again)),
        await x402.createPaymentPayload(requiredBy(again)),
      ]
      const outcomes = await Promise.allSettled([
        submit(a.agent, again, payments[0]),
        submit(b.agent, again, payments[1]),
      ])
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected'])
      expect(await sandbox.evm.usdcBalance(payer as `0x${string}`)).toBe(before - 40_000n)
    } finally {
      await a.running.shutdown('test over')
      await b.running.shutdown('test over')
    }
  }, 60_000)

  test('the task id spelled task_id (proto JSON, which the SDK reads) takes the same claim: two payments at once pay once', async () => {
    const [a, b] = [await instance(), await instance()]
    try {
      const { client: x402, payer } = await demoPayer(sandbox.file, 'base')
      const before = await sandbox.evm.usdcBalance(payer as `0x${string}`)
      const asked = await ask(a.agent)
      const payments = [
        await x402.createPaymentPayload(requiredBy(asked)),
        await x402.createPaymentPayload(requiredBy(asked)),
      ]
      // A raw SendMessage: the SDK client always spells it taskId.
      const submitRaw = (url: string, payment: unknown) =>
        a2aRpc(url, 'SendMessage', {
          message: {
            messageId: randomUUID(),
            task_id: asked.id,
            role: 'ROLE_USER',
            parts: [{ text: 'paying' }],
            metadata: paying(payment),
          },
        })
      const outcomes = await Promise.all([submitRaw(a.running.url, payments[0]), submitRaw(b.running.url, payments[1])])
      expect(outcomes.filter((outcome) => outcome.error).length).toBe(1)
      expect(outcomes.find((outcome) => outcome.error)?.error?.message).toMatch(/a paid call is running|terminal state/)
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(await sandbox.evm.usdcBalance(payer as `0x${string}`)).toBe(before - 20_000n)
    } finally {
      await a.running.shutdown('test over')
      await b.running.shutdown('test over')
    }
  }, 60_000)
})
