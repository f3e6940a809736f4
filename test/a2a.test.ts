import { describe, expect, test } from 'bun:test'
import { type AgentCard, type Task, TaskState } from '@a2a-js/sdk'
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client'
import type { PaymentRequired } from '@x402/core/types'
import { demoPayer } from '../sandbox/demo-client.ts'
import { verifyAttestation } from '../src/attest/attestation.ts'
import { X402_EXTENSION_URI } from '../src/kernel/a2a.ts'
import {
  type A2aAgent,
  a2aAgent,
  a2aMessage,
  a2aWords,
  agentOn,
  answerOf,
  answerTextOf,
  legacyMessageSend,
  PAYING,
  paying,
  saidBy,
} from './support/a2a.ts'
import { eventually } from './support/eventually.ts'
import { liveService } from './support/live.ts'
import { signLocally } from './support/wallet.ts'
import { usdcOf } from './support/x402.ts'

// The whole service on the sandbox over HTTP on loopback; A2A clients on the official @a2a-js/sdk, payments
// signed by the official x402 client (@x402/core with @x402/svm and @x402/evm), balances read on chain.
const { sandbox, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })
const { x402: offers } = sandbox.file

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const factory = new ClientFactory(
  ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
  }),
)
/** A2A 1.0: the client the SDK makes from the service's URL (it reads /.well-known/agent-card.json). */
const current = await a2aAgent(running.url, factory)
/** A2A 0.3 (`message/send`, …): the same client on the card's 0.3 interface. */
const card = await new DefaultAgentCardResolver().resolve(running.url)
const legacy = agentOn(await factory.createFromAgentCard(onlyInterface(card, '0.3')))

function onlyInterface(agentCard: AgentCard, version: string): AgentCard {
  const chosen = agentCard.supportedInterfaces.filter(
    (entry) => entry.protocolBinding === 'JSONRPC' && entry.protocolVersion === version,
  )
  return { ...agentCard, supportedInterfaces: chosen }
}

/** A user message: the skill named in its metadata, its input as one data part (words when it has none). */
function message(options: { skill?: string; input?: unknown; taskId?: string; metadata?: Record<string, unknown> }) {
  const metadata = { ...(options.skill ? { 'solsentry.skill': options.skill } : {}), ...options.metadata }
  return options.input === undefined
    ? a2aWords('here it is', metadata, options.taskId)
    : a2aMessage(options.input, metadata, options.taskId)
}

/** The task's status message metadata. */
const said = (task: Task): Json => saidBy(task)

/** The payment the official x402 client signs for the requirements a task asked. */
async function pay(required: PaymentRequired, rail: 'solana' | 'base'): Promise<unknown> {
  const { client } = await demoPayer(sandbox.file, rail)
  return client.createPaymentPayload(required)
}

/** Submits `payment` on `task`, as the extension says (status payment-submitted, the payload). */
function submit(agent: A2aAgent, task: Task, payment: unknown): Promise<Task> {
  return agent.send(message({ taskId: task.id, metadata: paying(payment) }))
}

describe('A2A at /a2a (official @a2a-js/sdk client, A2A x402 extension v0.2)', () => {
  test('the card names the JSON-RPC binding first, no streaming, and the x402 extension as required', () => {
    expect(card.supportedInterfaces.map((entry) => [entry.protocolBinding, entry.protocolVersion, entry.url])).toEqual([
      ['JSONRPC', '1.0', `${running.url}/a2a`],
      ['JSONRPC', '0.3', `${running.url}/a2a`],
      ['MCP', '1.0', `${running.url}/mcp`],
      ['OPENAPI', '1.0', `${running.url}/openapi.json`],
    ])
    expect(card.capabilities).toMatchObject({ streaming: false, pushNotifications: false })
    expect(card.capabilities?.extensions).toEqual([
      expect.objectContaining({ uri: X402_EXTENSION_URI, required: true }),
    ])
    expect(current.client.transport.protocolVersion).toBe('1.0')
    expect(legacy.client.transport.protocolVersion).toBe('0.3')
  })

  test('a quick scan paid on the Solana rail (A2A 1.0): input-required, paid, the answer; the price moved once; a replay refused', async () => {
    const mint = mintOf('blue-chip')
    const { payer } = await demoPayer(sandbox.file, 'solana')
    const before = [await usdcOf(sandbox, payer), await usdcOf(sandbox, offers.solana.pay_to)]

    const asked = await current.send(message({ skill: 'sol_quick_scan', input: { token_address: mint } }))
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
    expect(said(asked)['x402.payment.status']).toBe('payment-required')
    const required = said(asked)['x402.payment.required']
    // The requirements on both rails, at the route's price, as the HTTP 402 says them.
    expect(required).toMatchObject({
      x402Version: 2,
      accepts: [
        { network: 'eip155:31337', amount: '20000' },
        { network: offers.solana.network, amount: '20000', payTo: offers.solana.pay_to },
      ],
    })
    expect(required.error).toContain('x402.payment.payload')
    expect(await usdcOf(sandbox, payer)).toBe(before[0]!)

    const payment = await pay(required, 'solana')
    const done = await submit(current, asked, payment)
    expect(done.id).toBe(asked.id)
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(said(done)['x402.payment.status']).toBe('payment-completed')
    const [receipt] = said(done)['x402.payment.receipts']
    expect(receipt).toMatchObject({ success: true, network: offers.solana.network, payer })
    expect(answerOf(done)).toMatchObject({ schema_version: '2.0', token_address: mint })
    expect(answerOf(done).structural_risk_grade).toMatch(/^[A-F]$/)
    expect(answerTextOf(done)).toBe(answerOf(done).summary)
    // The attestation rides in the artifact's metadata, over the answer's JSON bytes.
    const key = ((await (await fetch(`${running.url}/.well-known/x402`)).json()) as Json).attestation.public_key
    const statement = verifyAttestation(done.artifacts[0]!.metadata!['solsentry.attestation'], key)
    expect(statement).toMatchObject({ route: 'POST /scan/quick', payment: { transaction: receipt.transaction } })
    expect(statement!.response_sha256).toBe(
      new Bun.CryptoHasher('sha256').update(JSON.stringify(answerOf(done))).digest('hex'),
    )
    expect([await usdcOf(sandbox, payer), await usdcOf(sandbox, offers.solana.pay_to)]).toEqual([
      before[0]! - 20_000n,
      before[1]! + 20_000n,
    ])

    // tasks/get: the task as it ended, its answer and receipt kept.
    const got = await current.get(asked.id)
    expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(answerOf(got)).toEqual(answerOf(done))
    expect(said(got)['x402.payment.receipts']).toEqual([receipt])

    // The same payload on a new task is refused: nothing runs, nothing moves.
    const again = await current.send(message({ skill: 'sol_quick_scan', input: { token_address: mint } }))
    const replayed = await submit(current, again, payment)
    expect(replayed.status?.state).toBe(TaskState.TASK_STATE_FAILED)
    expect(said(replayed)).toMatchObject({
      'x402.payment.status': 'payment-failed',
      'x402.payment.error': 'DUPLICATE_NONCE',
      'x402.payment.receipts': [{ success: false, network: offers.solana.network, transaction: '' }],
    })
    expect(replayed.artifacts).toEqual([])
    // It says what works over A2A (the task it paid for holds its answer), not HTTP's sign-in-with-x.
    const refusal = JSON.stringify(replayed.status?.message?.parts[0]?.content)
    expect(refusal).not.toContain('sign-in-with-x')
    expect(refusal).toContain('tasks/get')
    expect([await usdcOf(sandbox, payer), await usdcOf(sandbox, offers.solana.pay_to)]).toEqual([
      before[0]! - 20_000n,
      before[1]! + 20_000n,
    ])
  })

  test('a quick scan paid on the Base rail (A2A 0.3, message/send): EIP-3009 on anvil, the price moved once', async () => {
    const mint = mintOf('blue-chip')
    const { payer } = await demoPayer(sandbox.file, 'base')
    const before = await sandbox.evm.usdcBalance(payer as `0x${string}`)
    const asked = await legacy.send(message({ skill: 'sol_quick_scan', input: { token_address: mint } }))
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
    const done = await submit(legacy, asked, await pay(said(asked)['x402.payment.required'], 'base'))
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(said(done)['x402.payment.receipts']).toEqual([
      expect.objectContaining({ success: true, network: 'eip155:31337' }),
    ])
    expect(answerOf(done)).toMatchObject({ schema_version: '2.0', token_address: mint })
    expect(await sandbox.evm.usdcBalance(payer as `0x${string}`)).toBe(before - 20_000n)
  })

  test('a deep dive paid on the Solana rail (A2A 0.3): its answer and recommendation', async () => {
    const mint = mintOf('blue-chip')
    const { payer } = await demoPayer(sandbox.file, 'solana')
    const before = await usdcOf(sandbox, payer)
    const asked = await legacy.send(message({ skill: 'sol_deep_dive', input: { token_address: mint } }))
    expect(said(asked)['x402.payment.required'].accepts[1]).toMatchObject({ amount: '500000' })
    const done = await submit(legacy, asked, await pay(said(asked)['x402.payment.required'], 'solana'))
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(answerOf(done)).toMatchObject({ schema_version: '2.0' })
    expect(['AVOID', 'WATCH', 'CONSIDER', 'DYOR']).toContain(answerOf(done).recommendation.action)
    expect(said(done)['x402.payment.receipts'][0]).toMatchObject({ success: true, payer })
    expect(await usdcOf(sandbox, payer)).toBe(before - 500_000n)
  }, 60_000)

  test('a deep dive paid on the Base rail (A2A 1.0): the price moved once', async () => {
    const mint = mintOf('serial-rugger')
    const { payer } = await demoPayer(sandbox.file, 'base')
    const before = await sandbox.evm.usdcBalance(payer as `0x${string}`)
    const asked = await current.send(message({ skill: 'sol_deep_dive', input: { token_address: mint } }))
    const done = await submit(current, asked, await pay(said(asked)['x402.payment.required'], 'base'))
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(answerOf(done)).toMatchObject({ token_address: mint, risk_grade: 'F', recommendation: { action: 'AVOID' } })
    expect(said(done)['x402.payment.receipts'][0]).toMatchObject({ success: true, network: 'eip155:31337' })
    expect(await sandbox.evm.usdcBalance(payer as `0x${string}`)).toBe(before - 500_000n)
  }, 60_000)

  test('a paid call that fails (a token account, not a mint) ends failed with its code, nothing charged', async () => {
    const { buyer, usdc_mint: usdc } = sandbox.file
    const tokenAccount = await sandbox.world.ata(usdc, buyer.address)
    const { payer } = await demoPayer(sandbox.file, 'solana')
    const before = [await usdcOf(sandbox, payer), await usdcOf(sandbox, offers.solana.pay_to)]
    const asked = await current.send(message({ skill: 'sol_quick_scan', input: { token_address: tokenAccount } }))
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
    const failed = await submit(current, asked, await pay(said(asked)['x402.payment.required'], 'solana'))
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED)
    expect(said(failed)).toMatchObject({
      'x402.payment.status': 'payment-failed',
      'x402.payment.error': 'NOT_A_TOKEN_MINT',
      'x402.payment.receipts': [{ success: false }],
    })
    const error = failed.status?.message?.parts.find((part) => part.content?.$case === 'data')?.content
    expect(error).toMatchObject({ $case: 'data', value: { code: 'NOT_A_TOKEN_MINT', mint: usdc } })
    expect([await usdcOf(sandbox, payer), await usdcOf(sandbox, offers.solana.pay_to)]).toEqual(before)
  })

  test('tasks/cancel on a task waiting for payment cancels it; a payment sent to it afterwards is refused', async () => {
    const asked = await current.send(
      message({ skill: 'sol_quick_scan', input: { token_address: mintOf('blue-chip') } }),
    )
    const cancelled = await current.cancel(asked.id)
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED)
    const got = await legacy.get(asked.id)
    expect(got.status?.state).toBe(TaskState.TASK_STATE_CANCELED)
    const payment = await pay(said(asked)['x402.payment.required'], 'solana')
    await expect(submit(current, asked, payment)).rejects.toThrow(/terminal state/)
  })

  test('input errors end the task failed, before any payment is asked', async () => {
    const bad = await current.send(message({ skill: 'sol_quick_scan', input: { token_address: 'BONK' } }))
    expect(bad.status?.state).toBe(TaskState.TASK_STATE_FAILED)
    expect(said(bad)['x402.payment.status']).toBeUndefined()
    expect(bad.status?.message?.parts[1]?.content).toMatchObject({ value: { code: 'INVALID_ADDRESS' } })
    const unnamed = await current.send(message({ input: { token_address: mintOf('blue-chip') } }))
    expect(unnamed.status?.state).toBe(TaskState.TASK_STATE_FAILED)
    expect(unnamed.status?.message?.parts[0]?.content).toMatchObject({
      value: expect.stringContaining('sol_quick_scan'),
    })
    const unknown = await current.send(message({ skill: 'sol_everything', input: {} }))
    expect(unknown.status?.message?.parts[0]?.content).toMatchObject({
      value: expect.stringContaining('unknown skill sol_everything'),
    })
    // The card's sol_trade groups several routes: the answer names them.
    const trade = await current.send(message({ skill: 'sol_trade', input: {} }))
    expect(trade.status?.message?.parts[0]?.content).toMatchObject({
      value: expect.stringContaining('name one of sol_trade_quote, sol_trade_execute'),
    })
    // No data part and no address in the words: told to send the input as a data part, nothing asked to pay.
    const typed = await current.send(message({ skill: 'sol_quick_scan' }))
    expect(typed.status?.state).toBe(TaskState.TASK_STATE_FAILED)
    expect(typed.status?.message?.parts[0]?.content).toMatchObject({
      value: expect.stringContaining('as a data part: { "token_address": … }'),
    })
  })

  test('a skill asked in words, as the card examples read: its one address taken from the text', async () => {
    const mint = mintOf('blue-chip')
    const words = (text: string) => a2aWords(text, { 'solsentry.skill': 'sol_quick_scan' })
    const asked = await current.send(words(`Is ${mint} safe to buy?`))
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
    expect(asked.metadata?.['solsentry.call']).toEqual({ skill: 'sol_quick_scan', input: { token_address: mint } })
    // Two addresses are not guessed between.
    const two = await current.send(words(`${mint} or ${sandbox.file.usdc_mint}?`))
    expect(two.status?.state).toBe(TaskState.TASK_STATE_FAILED)
  })

  test("a payment for one skill's price does not pay a dearer one: refused, the amount named", async () => {
    const mint = mintOf('blue-chip')
    const quick = await current.send(message({ skill: 'sol_quick_scan', input: { token_address: mint } }))
    const payment = await pay(said(quick)['x402.payment.required'], 'solana')
    const deep = await current.send(message({ skill: 'sol_deep_dive', input: { token_address: mint } }))
    const refused = await submit(current, deep, payment)
    expect(refused.status?.state).toBe(TaskState.TASK_STATE_FAILED)
    expect(said(refused)).toMatchObject({
      'x402.payment.status': 'payment-failed',
      'x402.payment.error': 'INVALID_AMOUNT',
    })
    // Unspent, it still pays for what it was signed for.
    const done = await submit(current, quick, payment)
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
  })

  test('a trade over A2A: the quote free, the execute fee settled on confirmation; an execute that cannot land is not charged', async () => {
    const buyer = await sandbox.world.signer('demo-buyer')
    const { payer } = await demoPayer(sandbox.file, 'solana')
    const quoteIt = async () => {
      const quoted = await current.send(
        message({
          skill: 'sol_trade_quote',
          input: {
            input_mint: 'So11111111111111111111111111111111111111112',
            output_mint: mintOf('blue-chip'),
            amount_in: '100000000',
            user_public_key: buyer.address,
          },
        }),
      )
      expect(quoted.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
      const { job_id, unsigned_transaction_b64 } = answerOf(quoted)
      const signed = await signLocally(unsigned_transaction_b64, buyer)
      return { job_id, signed_transaction_b64: signed }
    }

    const execute = await quoteIt()
    const fees = async () => [await usdcOf(sandbox, payer), await usdcOf(sandbox, offers.solana.pay_to)]
    const before = await fees()
    const asked = await current.send(message({ skill: 'sol_trade_execute', input: execute }))
    expect(said(asked)['x402.payment.required'].accepts[1]).toMatchObject({ amount: '150000' })
    const done = await submit(current, asked, await pay(said(asked)['x402.payment.required'], 'solana'))
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(answerOf(done)).toMatchObject({ status: 'CONFIRMED', execution: { tx_signature: expect.any(String) } })
    expect(said(done)['x402.payment.receipts'][0]).toMatchObject({ success: true, payer })
    expect(await fees()).toEqual([before[0]! - 150_000n, before[1]! + 150_000n])

    const late = await quoteIt()
    const lateAsked = await current.send(message({ skill: 'sol_trade_execute', input: late }))
    // The quote's blockhash expires before the execute arrives: the swap cannot land.
    for (let block = 0; block < 160; block++) sandbox.world.chain.produceBlock()
    const payment = await pay(said(lateAsked)['x402.payment.required'], 'solana')
    const failed = await submit(current, lateAsked, payment)
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED)
    expect(said(failed)).toMatchObject({
      'x402.payment.status': 'payment-failed',
      'x402.payment.error': 'BLOCKHASH_EXPIRED',
    })
    expect(await fees()).toEqual([before[0]! - 150_000n, before[1]! + 150_000n])
  })

  test('two payments sent at once on one task (a retry with a fresh signature): one pays, the other is refused unused', async () => {
    const { payer } = await demoPayer(sandbox.file, 'base')
    const before = await sandbox.evm.usdcBalance(payer as `0x${string}`)
    const asked = await current.send(
      message({ skill: 'sol_quick_scan', input: { token_address: mintOf('blue-chip') } }),
    )
    const required = said(asked)['x402.payment.required']
    const [first, second] = [await pay(required, 'base'), await pay(required, 'base')]
    expect(first).not.toEqual(second)
    const outcomes = await Promise.allSettled([submit(current, asked, first), submit(legacy, asked, second)])
    const done = outcomes.filter((outcome) => outcome.status === 'fulfilled')
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected')
    expect([done.length, refused.length]).toEqual([1, 1])
    expect((done[0] as PromiseFulfilledResult<Task>).value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(String((refused[0] as PromiseRejectedResult).reason)).toMatch(/a paid call is running|terminal state/)
    expect(await sandbox.evm.usdcBalance(payer as `0x${string}`)).toBe(before - 20_000n)
    const got = await current.get(asked.id)
    expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
  })

  test('a payment sent without waiting (returnImmediately): the task answers at once, tasks/get reads it completed', async () => {
    const asked = await current.send(
      message({ skill: 'sol_market_intel', input: { token_address: mintOf('blue-chip') } }),
    )
    const payment = await pay(said(asked)['x402.payment.required'], 'solana')
    const first = await current.send(message({ taskId: asked.id, metadata: paying(payment) }), true)
    expect(first.id).toBe(asked.id)
    const done = await eventually(
      'the task completed',
      () => current.get(asked.id),
      (task) => task.status?.state === TaskState.TASK_STATE_COMPLETED,
    )
    expect(answerOf(done)).toMatchObject({ schema_version: '2.0', data_quality: 'FULL' })
    expect(said(done)['x402.payment.status']).toBe('payment-completed')
  })

  test('ListTasks (A2A 1.0) is refused as not offered, not answered with an empty page', async () => {
    const all = {
      tenant: '',
      contextId: '',
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: '',
      statusTimestampAfter: undefined,
    }
    await expect(current.client.listTasks(all, PAYING)).rejects.toThrow(/ListTasks is not offered/)
  })

  test('a free skill answers at once, with no payment metadata', async () => {
    const pairs = await legacy.send(message({ skill: 'sol_trade_pairs' }))
    expect(pairs.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(answerOf(pairs).count).toBeGreaterThan(0)
    expect(said(pairs)['x402.payment.status']).toBeUndefined()
    // A payment sent with a free skill is not taken: it still pays for what it was signed for.
    const mint = mintOf('blue-chip')
    const quick = await current.send(message({ skill: 'sol_quick_scan', input: { token_address: mint } }))
    const payment = await pay(said(quick)['x402.payment.required'], 'solana')
    const free = await current.send(
      message({
        skill: 'sol_trade_pairs',
        metadata: paying(payment),
      }),
    )
    expect(free.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(said(free)['x402.payment.receipts']).toBeUndefined()
    expect((await submit(current, quick, payment)).status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
  })
})

describe('the A2A 0.3 wire, as the extension spec writes it', () => {
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${running.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })
  const sendQuick = (id: string) =>
    legacyMessageSend(id, [{ kind: 'data', data: { token_address: mintOf('blue-chip') } }], {
      'solsentry.skill': 'sol_quick_scan',
    })

  test('message/send without payment: a task input-required, x402.payment.required in its status message', async () => {
    const response = await post(sendQuick('req-001'), { 'X-A2A-Extensions': X402_EXTENSION_URI })
    expect(response.headers.get('x-a2a-extensions')).toBe(X402_EXTENSION_URI)
    const { result } = (await response.json()) as Json
    expect(result).toMatchObject({
      kind: 'task',
      status: {
        state: 'input-required',
        message: {
          kind: 'message',
          role: 'agent',
          metadata: { 'x402.payment.status': 'payment-required', 'x402.payment.required': { x402Version: 2 } },
        },
      },
    })
    expect(result.status.message.parts[0]).toMatchObject({ kind: 'text' })
  })

  test('a request that does not activate the required extension is refused, naming it', async () => {
    const answer = (await (await post(sendQuick('req-002'))).json()) as Json
    expect(answer.result).toBeUndefined()
    expect(answer.id).toBe('req-002')
    expect(answer.error.message).toContain(X402_EXTENSION_URI)
  })

  test('GET /a2a answers 405, pointing at the agent card', async () => {
    const response = await fetch(`${running.url}/a2a`)
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('POST')
    expect(((await response.json()) as Json).error.message).toContain('/.well-known/agent-card.json')
  })

  test('an unknown method and a streaming request are JSON-RPC errors', async () => {
    const unknown = (await (
      await post({ jsonrpc: '2.0', id: 3, method: 'tasks/everything', params: {} })
    ).json()) as Json
    expect(unknown.error.code).toBe(-32601)
    const stream = (await (
      await post({ ...sendQuick('req-004'), method: 'message/stream' }, { 'X-A2A-Extensions': X402_EXTENSION_URI })
    ).json()) as Json
    expect(stream.error).toBeDefined()
    expect(stream.result).toBeUndefined()
  })
})
