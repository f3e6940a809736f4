import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'bun:test'
import { type Task, TaskState } from '@a2a-js/sdk'
import { demoPayer } from '../sandbox/demo-client.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { a2aAgent, a2aInstance, a2aMessage, paying, requiredBy, saidBy } from './support/a2a.ts'
import { eventually } from './support/eventually.ts'
import { launch } from './support/launch.ts'
import { describeWithRedis, redisForFile } from './support/redis.ts'
import { usdcOf } from './support/x402.ts'

// An instance killed (SIGKILL) while its paid A2A call settles, its task `working` in the Redis both
// instances share: another instance never cancels that task nor runs it twice, tells the payer how to
// collect, and the same payload on a new task (same skill and input) receives the answer — read from the
// chain as the HTTP path reads a payment whose call died (docs/payments.md) — charged once.
const redis = redisForFile()
const sandbox = await startSandbox(ephemeralSandboxOptions())
const work = mkdtempSync(join(tmpdir(), 'solsentry-a2a-death-'))
afterAll(async () => {
  await sandbox.stop()
  rmSync(work, { recursive: true, force: true })
})
const mint = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
const input = { token_address: mint }
const quick = { 'solsentry.skill': 'sol_quick_scan' }

describeWithRedis('A2A with its tasks in Redis, an instance killed mid-call', () => {
  test('an instance dies with a paid task working: another one never cancels it or runs it twice, and the same payload on a new task collects the answer, charged once', async () => {
    const settings = { REDIS_URL: redis.url, RATE_LIMIT_SCANNER_BURST: '1000' }
    // The instance that dies: a process of its own.
    const dying = await launch([process.execPath, join(import.meta.dir, '..', 'src/main.ts')], {
      cwd: work,
      env: { ...sandbox.serviceSettings, ...settings, DATA_DIR: join(work, 'data'), LOG_LEVEL: 'info' },
    })
    // The survivor: a settlement left `settling` longer than its settle timeout and slack is read from the chain.
    const { running: survivor, agent: b } = await a2aInstance(sandbox, {
      ...settings,
      FACILITATOR_SETTLE_TIMEOUT_MS: '1000',
    })
    try {
      const a = await a2aAgent(dying.url)
      const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
      const before = await usdcOf(sandbox, payer)

      const asked = await a.send(a2aMessage(input, quick))
      const payment = await x402.createPaymentPayload(requiredBy(asked))
      // The settlement is sent, and the instance killed while the facilitator takes its time.
      const settles = sandbox.faults.countOf('facilitator:/settle')
      sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 2_000 })
      const first = await a.send(a2aMessage(undefined, paying(payment), asked.id), true)
      expect(first.status?.state).toBe(TaskState.TASK_STATE_WORKING)
      await eventually(
        'the settlement sent',
        () => sandbox.faults.countOf('facilitator:/settle'),
        (count) => count > settles,
        { timeoutMs: 10_000, intervalMs: 10 },
      )
      dying.child.kill('SIGKILL')
      await dying.child.exited
      // The facilitator settles all the same: the money moved, and no instance recorded it.
      await eventually(
        'the transfer on chain',
        () => usdcOf(sandbox, payer),
        (now) => now === before - 20_000n,
        {
          timeoutMs: 15_000,
        },
      )
      sandbox.faults.clear()

      // The survivor reads the task working; it neither cancels it nor takes a message on it, and says how to collect.
      const stuck = await b.get(asked.id)
      expect(stuck.status?.state).toBe(TaskState.TASK_STATE_WORKING)
      await expect(b.cancel(asked.id)).rejects.toThrow(/runs to its end/)
      await expect(b.send(a2aMessage(undefined, paying(payment), asked.id))).rejects.toThrow(
        /same payload .* on a new task/,
      )
      const still = await b.get(asked.id)
      expect(still.status?.state).toBe(TaskState.TASK_STATE_WORKING)

      // As told: the same payload on a new task, same skill and input. Until the settlement is read from the
      // chain that task waits for that payload again (never a new one), sent again on it; then it receives the
      // answer. It owns the payment meanwhile: the payload on yet another task points there, not kept as paid.
      let waited: Task | undefined
      const collected = await eventually(
        'the answer collected',
        async () => {
          const task = await b.send(
            waited
              ? a2aMessage(undefined, paying(payment), waited.id)
              : a2aMessage(input, { ...quick, ...paying(payment) }),
          )
          if (task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) waited = task
          return task
        },
        (task) => task.status?.state !== TaskState.TASK_STATE_INPUT_REQUIRED,
        { timeoutMs: 40_000, intervalMs: 1_000 },
      )
      if (waited) {
        expect(saidBy(waited)['x402.payment.status']).toBe('payment-submitted')
        expect(collected.id).toBe(waited.id)
      }
      expect(collected.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
      expect(collected.artifacts[0]?.parts[0]?.content).toMatchObject({ $case: 'data', value: { token_address: mint } })
      expect(await usdcOf(sandbox, payer)).toBe(before - 20_000n)
      // Collected once: the payload is spent.
      const again = await b.send(a2aMessage(input, { ...quick, ...paying(payment) }))
      expect(again.status?.state).toBe(TaskState.TASK_STATE_FAILED)
      expect(saidBy(again)['x402.payment.error']).toBe('DUPLICATE_NONCE')
      // Its refusal names the task that holds the answer (the same call).
      expect(saidBy(again)['solsentry.paid_task']).toBe(collected.id)
      expect(await usdcOf(sandbox, payer)).toBe(before - 20_000n)
    } finally {
      if (dying.child.exitCode === null) dying.child.kill('SIGKILL')
      await survivor.shutdown('test over')
    }
  }, 120_000)
})
