import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'bun:test'
import type { PaymentRequired } from '@x402/core/types'
import { demoPayer } from '../sandbox/demo-client.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { X402_EXTENSION_URI } from '../src/kernel/a2a.ts'
import { a2aInstance, paying } from './support/a2a.ts'
import { describeWithRedis, startRedis } from './support/redis.ts'
import { usdcOf } from './support/x402.ts'

// Redis goes away while a paid A2A call settles (the review of 2026-11-28): the payer still gets the
// answer as a JSON-RPC answer (it is in hand), and once Redis is back the task is not held by a claim.
const sandbox = await startSandbox(ephemeralSandboxOptions())
afterAll(() => sandbox.stop())
const mint = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

describeWithRedis('A2A on Redis', () => {
  test('Redis lost between the settlement and the task save: the paid answer still reaches the payer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-outage-'))
    let redis = await startRedis({ dir })
    const { running } = await a2aInstance(sandbox, { REDIS_URL: redis.url, RATE_LIMIT_SCANNER_BURST: '1000' })
    const rpc = async (method: string, params: unknown): Promise<{ status: number; body: Json }> => {
      const answer = await fetch(`${running.url}/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', 'a2a-extensions': X402_EXTENSION_URI },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
      const text = await answer.text()
      return {
        status: answer.status,
        body: (() => {
          try {
            return JSON.parse(text)
          } catch {
            return text
          }
        })(),
      }
    }
    const ask = () =>
      rpc('SendMessage', {
        message: {
          messageId: randomUUID(),
          role: 'ROLE_USER',
          parts: [{ data: { token_address: mint } }],
          metadata: { 'solsentry.skill': 'sol_quick_scan' },
        },
      })
    const pay = (taskId: string, payment: unknown) =>
      rpc('SendMessage', {
        message: {
          messageId: randomUUID(),
          taskId,
          role: 'ROLE_USER',
          parts: [{ text: 'paying' }],
          metadata: paying(payment),
        },
      })
    try {
      const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
      const before = await usdcOf(sandbox, payer)
      const task = (await ask()).body.result.task
      const payment = await x402.createPaymentPayload(
        task.status.message.metadata['x402.payment.required'] as PaymentRequired,
      )
      sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 2_500 })
      const answered = pay(task.id, payment)
      await Bun.sleep(1_200) // the payment is settling
      await redis.stop()
      const answer = await answered
      sandbox.faults.clear()
      expect(answer.status).toBe(200)
      expect(answer.body.result?.task?.status?.state).toBe('TASK_STATE_COMPLETED')
      expect(answer.body.result.task.artifacts[0].parts[0].data).toMatchObject({ token_address: mint })
      expect((await usdcOf(sandbox, payer)) - before).toBe(-20_000n)

      redis = await startRedis({ dir, port: redis.port })
      await Bun.sleep(1_500)
      // The run ended: the task is not held by its claim (it would be for 120 s): the same payload on it is
      // told the task is done, not that a call is running.
      const again = await pay(task.id, payment)
      expect(JSON.stringify(again.body)).not.toContain('a paid call is running')
      const got = await rpc('GetTask', { id: task.id })
      expect(got.body.result?.status?.state).toBe('TASK_STATE_COMPLETED')
      expect((await usdcOf(sandbox, payer)) - before).toBe(-20_000n)
    } finally {
      await running.shutdown('test over').catch(() => {})
      await redis.stop()
    }
  }, 60_000)
})
