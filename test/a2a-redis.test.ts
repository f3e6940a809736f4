import { randomUUID } from 'node:crypto'
import { afterAll, expect, test } from 'bun:test'
import { type Message, Role, type Task, TaskState } from '@a2a-js/sdk'
import { type Client, ClientFactory, ServiceParameters, withA2AExtensions } from '@a2a-js/sdk/client'
import type { PaymentRequired } from '@x402/core/types'
import { demoPayer } from '../sandbox/demo-client.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { createApp } from '../src/app.ts'
import { startServer } from '../src/http/server.ts'
import { X402_EXTENSION_URI } from '../src/kernel/a2a.ts'
import { sandboxContext } from './support/live.ts'
import { describeWithRedis, redisForFile } from './support/redis.ts'

// Two service instances on one Redis (a real redis-server) and one sandbox, each over HTTP on loopback:
// an A2A task made on one is paid on the other, and two payments for one task sent to both at once pay once.
const redis = redisForFile()
const sandbox = await startSandbox(ephemeralSandboxOptions())
afterAll(() => sandbox.stop())
const mint = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
const PAYING = { serviceParameters: ServiceParameters.create(withA2AExtensions(X402_EXTENSION_URI)) }

async function instance() {
  const ctx = sandboxContext(sandbox, { REDIS_URL: redis.url, RATE_LIMIT_SCANNER_BURST: '1000' })
  await ctx.payments.start()
  const running = startServer(createApp(ctx), ctx)
  const client = await new ClientFactory().createFromUrl(running.url)
  return { running, client }
}

function message(metadata: Record<string, unknown>, taskId = ''): Message {
  const data = {
    content: { $case: 'data' as const, value: { token_address: mint } },
    metadata: {},
    filename: '',
    mediaType: '',
  }
  return {
    messageId: randomUUID(),
    contextId: '',
    taskId,
    role: Role.ROLE_USER,
    parts: taskId ? [] : [data],
    metadata,
    extensions: [],
    referenceTaskIds: [],
  }
}

async function send(client: Client, sent: Message): Promise<Task> {
  const answer = await client.sendMessage(
    { tenant: '', message: sent, configuration: undefined, metadata: undefined },
    PAYING,
  )
  if (!('status' in answer)) throw new Error('expected a task')
  return answer
}

const ask = (client: Client) => send(client, message({ 'solsentry.skill': 'sol_quick_scan' }))
const submit = (client: Client, task: Task, payment: unknown) =>
  send(client, message({ 'x402.payment.status': 'payment-submitted', 'x402.payment.payload': payment }, task.id))
const requiredOf = (task: Task) => task.status?.message?.metadata?.['x402.payment.required'] as PaymentRequired

describeWithRedis('A2A on several instances (tasks and payment claims in Redis)', () => {
  test('a task made on one instance is paid on another; two payments sent to both at once pay once', async () => {
    const [a, b] = [await instance(), await instance()]
    try {
      const { client: x402, payer } = await demoPayer(sandbox.file, 'base')
      const before = await sandbox.evm.usdcBalance(payer as `0x${string}`)

      const asked = await ask(a.client)
      expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
      const done = await submit(b.client, asked, await x402.createPaymentPayload(requiredOf(asked)))
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
      const got = await a.client.getTask({ tenant: '', id: asked.id, historyLength: undefined }, PAYING)
      expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
      expect(got.artifacts[0]?.parts[0]?.content).toMatchObject({ $case: 'data', value: { token_address: mint } })
      expect(await sandbox.evm.usdcBalance(payer as `0x${string}`)).toBe(before - 20_000n)

      const again = await ask(b.client)
      const payments = [
        await x402.createPaymentPayload(requiredOf(again)),
        await x402.createPaymentPayload(requiredOf(again)),
      ]
      const outcomes = await Promise.allSettled([
        submit(a.client, again, payments[0]),
        submit(b.client, again, payments[1]),
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
      const asked = await ask(a.client)
      const payments = [
        await x402.createPaymentPayload(requiredOf(asked)),
        await x402.createPaymentPayload(requiredOf(asked)),
      ]
      const submitRaw = async (url: string, payment: unknown) => {
        const answer = await fetch(`${url}/a2a`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'a2a-version': '1.0', 'a2a-extensions': X402_EXTENSION_URI },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: randomUUID(),
            method: 'SendMessage',
            params: {
              message: {
                messageId: randomUUID(),
                task_id: asked.id,
                role: 'ROLE_USER',
                parts: [{ text: 'paying' }],
                metadata: { 'x402.payment.status': 'payment-submitted', 'x402.payment.payload': payment },
              },
            },
          }),
        })
        return (await answer.json()) as { result?: unknown; error?: { message: string } }
      }
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
