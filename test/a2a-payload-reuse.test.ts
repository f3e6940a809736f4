import { expect, test } from 'bun:test'
import { TaskState } from '@a2a-js/sdk'
import { demoPayer } from '../sandbox/demo-client.ts'
import { a2aAgent, a2aMessage, paying, requiredBy, saidBy } from './support/a2a.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// One payload where it does not belong, over A2A: on two tasks at once, on a dearer task than it was signed
// for (v2 and v1), naming another skill than its task's, and across A2A and HTTP. Each is refused or runs the
// task's own call, never charged twice (the review of 2026-11-28 found these held; kept so they keep holding).
const { sandbox, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })
const agent = await a2aAgent(running.url)
const mint = mintOf('blue-chip')
const input = { token_address: mint }
const quick = { 'solsentry.skill': 'sol_quick_scan' }
const deep = { 'solsentry.skill': 'sol_deep_dive' }
const overHttp = (payment: unknown) =>
  fetch(`${running.url}/scan/quick`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'payment-signature': Buffer.from(JSON.stringify(payment)).toString('base64'),
    },
    body: JSON.stringify(input),
  })

test('one payload on two tasks at once: one answered, the other refused, charged once', async () => {
  const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
  const before = await usdcOf(sandbox, payer)
  const [t1, t2] = await Promise.all([agent.send(a2aMessage(input, quick)), agent.send(a2aMessage(input, quick))])
  const payment = await x402.createPaymentPayload(requiredBy(t1))
  sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 500 })
  const outcomes = await Promise.all([
    agent.send(a2aMessage(input, paying(payment), t1.id)),
    agent.send(a2aMessage(input, paying(payment), t2.id)),
  ]).finally(() => sandbox.faults.clear())
  const states = outcomes.map((task) => TaskState[task.status!.state]).sort()
  expect(states).toEqual(['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED'])
  expect(await usdcOf(sandbox, payer)).toBe(before - 20_000n)
}, 60_000)

test('a payload signed for the cheap skill on a deep-dive task: refused INVALID_AMOUNT, nothing charged', async () => {
  const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
  const before = await usdcOf(sandbox, payer)
  const cheap = await agent.send(a2aMessage(input, quick))
  const dear = await agent.send(a2aMessage(input, deep))
  const done = await agent.send(a2aMessage(input, paying(await x402.createPaymentPayload(requiredBy(cheap))), dear.id))
  expect(done.status?.state).toBe(TaskState.TASK_STATE_FAILED)
  expect(saidBy(done)['x402.payment.error']).toBe('INVALID_AMOUNT')
  expect(done.artifacts).toHaveLength(0)
  expect(await usdcOf(sandbox, payer)).toBe(before)
}, 60_000)

test('a v1 payload (Solana) at the cheap price: refused on the deep dive, pays the quick scan once', async () => {
  const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
  const before = await usdcOf(sandbox, payer)
  const cheap = await agent.send(a2aMessage(input, quick))
  const dear = await agent.send(a2aMessage(input, deep))
  const v1 = async () => {
    const v2 = (await x402.createPaymentPayload(requiredBy(cheap))) as unknown as { payload: unknown }
    return { x402Version: 1, scheme: 'exact', network: 'solana-devnet', payload: v2.payload }
  }
  const onDear = await agent.send(a2aMessage(input, paying(await v1()), dear.id))
  expect(onDear.status?.state).toBe(TaskState.TASK_STATE_FAILED)
  expect(saidBy(onDear)['x402.payment.error']).toBe('INVALID_AMOUNT')
  const onCheap = await agent.send(a2aMessage(input, paying(await v1()), cheap.id))
  expect(onCheap.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(await usdcOf(sandbox, payer)).toBe(before - 20_000n)
}, 60_000)

test("the payment message naming another skill and input runs its task's own call", async () => {
  const { client: x402 } = await demoPayer(sandbox.file, 'solana')
  const asked = await agent.send(a2aMessage(input, quick))
  const payment = await x402.createPaymentPayload(requiredBy(asked))
  const done = await agent.send(
    a2aMessage({ token_address: mintOf('serial-rugger') }, { ...deep, ...paying(payment) }, asked.id),
  )
  expect(done.artifacts[0]?.name).toBe('sol_quick_scan')
  expect(done.artifacts[0]?.parts[0]?.content).toMatchObject({ $case: 'data', value: { token_address: mint } })
}, 60_000)

test('a payload used over A2A is refused over HTTP, and one used over HTTP is refused over A2A: each charged once', async () => {
  const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
  const before = await usdcOf(sandbox, payer)
  const t1 = await agent.send(a2aMessage(input, quick))
  const p1 = await x402.createPaymentPayload(requiredBy(t1))
  expect((await agent.send(a2aMessage(input, paying(p1), t1.id))).status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect((await overHttp(p1)).status).toBe(402)
  const t2 = await agent.send(a2aMessage(input, quick))
  const p2 = await x402.createPaymentPayload(requiredBy(t2))
  expect((await overHttp(p2)).status).toBe(200)
  const overA2A = await agent.send(a2aMessage(input, paying(p2), t2.id))
  expect(overA2A.status?.state).toBe(TaskState.TASK_STATE_FAILED)
  expect(saidBy(overA2A)['x402.payment.error']).toBe('DUPLICATE_NONCE')
  expect(await usdcOf(sandbox, payer)).toBe(before - 40_000n)
}, 60_000)
