import { expect, test } from 'bun:test'
import { TaskState } from '@a2a-js/sdk'
import { demoPayer } from '../sandbox/demo-client.ts'
import { a2aAgent, a2aMessage, paidPending, paying, requiredBy, saidBy } from './support/a2a.ts'
import { eventually } from './support/eventually.ts'
import { liveService } from './support/live.ts'
import { signLocally } from './support/wallet.ts'
import { usdcOf } from './support/x402.ts'

// A settlement whose answer is lost (the facilitator slower than the service waits): over A2A the task
// waits for the same payment again, says so, and never claims nothing was charged; presented again once
// the chain shows the transfer, the same payload receives the answer, charged once.
const { sandbox, ctx, running, mintOf } = await liveService({ FACILITATOR_SETTLE_TIMEOUT_MS: '1000' })
const { x402: offers } = sandbox.file
const agent = await a2aAgent(running.url)
/** A message with `metadata`: on a task, or a new task on `input` (by default a quick scan's of blue-chip). */
const send = (
  metadata: Record<string, unknown>,
  taskId = '',
  input: unknown = { token_address: mintOf('blue-chip') },
) => agent.send(a2aMessage(taskId ? undefined : input, metadata, taskId))

test('a pending settlement over A2A: the task waits for the same payload, which then receives the answer, charged once', async () => {
  const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
  const [before, buyerBefore] = [await usdcOf(sandbox, offers.solana.pay_to), await usdcOf(sandbox, payer)]
  const asked = await send({ 'solsentry.skill': 'sol_quick_scan' })
  const payment = await x402.createPaymentPayload(requiredBy(asked))
  const submitted = paying(payment)

  const waiting = await paidPending(sandbox, agent, asked, payment)
  expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
  const said = saidBy(waiting)
  expect(said['x402.payment.status']).toBe('payment-submitted')
  expect(said['x402.payment.required']).toBeUndefined()
  expect(said['solsentry.settlement']).toMatchObject({ state: 'pending', retry_after_s: expect.any(Number) })
  const words = waiting.status?.message?.parts[0]?.content
  expect(words).toMatchObject({ value: expect.stringContaining('send the same payload again on this task') })
  expect(JSON.stringify(words)).not.toContain('Nothing was charged')

  // The slow facilitator settles meanwhile (waited for, not assumed).
  await eventually(
    'the settlement on chain',
    () => usdcOf(sandbox, offers.solana.pay_to),
    (paid) => paid !== before,
    {
      timeoutMs: 15_000,
    },
  )
  // The service's resolver reads the chain (every 30 s; here at once), then the same payload is presented again.
  expect(await ctx.payments.resolvePending()).toMatchObject({ credited: 1 })
  const done = await send(submitted, asked.id)
  expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(done.artifacts[0]?.parts[0]?.content).toMatchObject({ $case: 'data', value: { schema_version: '2.0' } })
  expect(saidBy(done)['x402.payment.status']).toBe('payment-completed')
  expect(await usdcOf(sandbox, offers.solana.pay_to)).toBe(before + 20_000n)
  expect(await usdcOf(sandbox, payer)).toBe(buyerBefore - 20_000n)
}, 60_000)

test('a trade execute whose fee settlement is pending: completed with the answer, the fee said pending, never "free"', async () => {
  const buyer = await sandbox.world.signer('demo-buyer')
  const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
  const quoteInput = {
    input_mint: 'So11111111111111111111111111111111111111112',
    output_mint: mintOf('blue-chip'),
    amount_in: '100000000',
    user_public_key: buyer.address,
  }
  const quoted = await send({ 'solsentry.skill': 'sol_trade_quote' }, '', quoteInput)
  const quote = (quoted.artifacts[0]!.parts[0]!.content as { value: Record<string, string> }).value
  const signed = await signLocally(quote.unsigned_transaction_b64!, buyer)
  const asked = await send({ 'solsentry.skill': 'sol_trade_execute' }, '', {
    job_id: quote.job_id,
    signed_transaction_b64: signed,
  })
  const payment = await x402.createPaymentPayload(requiredBy(asked))
  const before = await usdcOf(sandbox, payer)
  const done = await paidPending(sandbox, agent, asked, payment)
  expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(done.artifacts).toHaveLength(1)
  const said = saidBy(done)
  expect(said['x402.payment.status']).toBe('payment-submitted')
  expect(said['solsentry.settlement']).toMatchObject({ state: 'pending' })
  const words = JSON.stringify(done.status?.message?.parts[0]?.content)
  expect(words).not.toMatch(/free|not used/)
  expect(words).toContain(`/trade/status/${quote.job_id}`)
  // The slow facilitator settles meanwhile: the fee moved once.
  await eventually(
    'the fee on chain',
    () => usdcOf(sandbox, payer),
    (now) => now !== before,
    { timeoutMs: 15_000 },
  )
  expect((await usdcOf(sandbox, payer)) - before).toBe(-150_000n)
}, 60_000)

test('a pending settlement whose task is gone: the same payload on a new task, same skill and input, receives the answer, charged once', async () => {
  const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
  const [before, buyerBefore] = [await usdcOf(sandbox, offers.solana.pay_to), await usdcOf(sandbox, payer)]
  const asked = await send({ 'solsentry.skill': 'sol_quick_scan' })
  const payment = await x402.createPaymentPayload(requiredBy(asked))
  await paidPending(sandbox, agent, asked, payment)
  await eventually(
    'the settlement on chain',
    () => usdcOf(sandbox, offers.solana.pay_to),
    (paid) => paid !== before,
    {
      timeoutMs: 15_000,
    },
  )
  await ctx.payments.resolvePending()
  // As the refusal of a task no longer kept says: a new task naming the same skill, the same input and payload.
  const done = await send({ 'solsentry.skill': 'sol_quick_scan', ...paying(payment) })
  expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(done.artifacts[0]?.parts[0]?.content).toMatchObject({ $case: 'data', value: { schema_version: '2.0' } })
  expect(await usdcOf(sandbox, payer)).toBe(buyerBefore - 20_000n)
}, 60_000)
