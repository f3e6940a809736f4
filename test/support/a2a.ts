import { randomUUID } from 'node:crypto'
import { type Message, Role, type Task, TaskState } from '@a2a-js/sdk'
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  ServiceParameters,
  withA2AExtensions,
} from '@a2a-js/sdk/client'
import { expect } from 'bun:test'
import type { PaymentRequired } from '@x402/core/types'
import { demoPayer } from '../../sandbox/demo-client.ts'
import type { RunningSandbox } from '../../sandbox/index.ts'
import type { ServiceContext } from '../../src/context.ts'
import { createApp } from '../../src/app.ts'
import { startServer } from '../../src/http/server.ts'
import { X402_EXTENSION_URI } from '../../src/kernel/a2a.ts'
import { eventually } from './eventually.ts'
import { sandboxContext } from './live.ts'
import { usdcOf } from './x402.ts'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

/** The call options that activate the A2A x402 extension (the card requires it). */
export const PAYING = { serviceParameters: ServiceParameters.create(withA2AExtensions(X402_EXTENSION_URI)) }

/** A message's metadata paying with `payment` (x402 A2A extension, standalone flow). */
export const paying = (payment: unknown) => ({
  'x402.payment.status': 'payment-submitted',
  'x402.payment.payload': payment,
})

/** A user message: `input` as its data part (none when it names a task), `metadata`, on `taskId` if given. */
export function a2aMessage(input: unknown, metadata: Record<string, unknown>, taskId = ''): Message {
  const parts =
    input === undefined
      ? []
      : [
          {
            content: { $case: 'data' as const, value: input },
            metadata: {},
            filename: '',
            mediaType: 'application/json',
          },
        ]
  return {
    messageId: randomUUID(),
    contextId: '',
    taskId,
    role: Role.ROLE_USER,
    parts,
    metadata,
    extensions: [],
    referenceTaskIds: [],
  }
}

/** A user message in words only (an LLM agent's), with `metadata`, on `taskId` if given. */
export function a2aWords(text: string, metadata: Record<string, unknown> = {}, taskId = ''): Message {
  return {
    ...a2aMessage(undefined, metadata, taskId),
    parts: [{ content: { $case: 'text', value: text }, metadata: {}, filename: '', mediaType: 'text/plain' }],
  }
}

/** A task's status metadata (the extension's keys). */
export const saidBy = (task: Task) => (task.status?.message?.metadata ?? {}) as Record<string, unknown>

/** A task's status words (its text part). */
export const wordsOf = (task: Task) => {
  const content = task.status?.message?.parts.find((part) => part.content?.$case === 'text')?.content
  return content?.$case === 'text' ? content.value : ''
}

/** A task's status data (its status message's data part), if it says any. */
export const dataSaidBy = (task: Task): Json => {
  const content = task.status?.message?.parts.find((part) => part.content?.$case === 'data')?.content
  return content?.$case === 'data' ? content.value : undefined
}

/** A finished task's answer: its artifact's data part. */
export const answerOf = (task: Task): Json => {
  const content = task.artifacts[0]?.parts.find((part) => part.content?.$case === 'data')?.content
  return content?.$case === 'data' ? content.value : undefined
}

/** A finished task's answer in words: its artifact's text part. */
export const answerTextOf = (task: Task): string => {
  const content = task.artifacts[0]?.parts.find((part) => part.content?.$case === 'text')?.content
  return content?.$case === 'text' ? content.value : ''
}

/** The payment requirements a task waiting for payment offers. */
export const requiredBy = (task: Task) => saidBy(task)['x402.payment.required'] as PaymentRequired

/**
 * The official A2A client on a service at `url` (made by `factory`: the SDK's default unless a test
 * chooses its transports): messages, tasks/get and tasks/cancel with the extension active.
 */
export async function a2aAgent(url: string, factory = new ClientFactory()) {
  return agentOn(await factory.createFromUrl(url))
}

/** A client factory on the JSON-RPC transport alone (none of the SDK's other transports). */
export const jsonRpcOnly = () =>
  new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory()] }),
  )

/** `client` (the official A2A client, however made) sending messages, tasks/get and tasks/cancel with the extension active. */
export function agentOn(client: Client) {
  return {
    client,
    async send(message: Message, returnImmediately = false): Promise<Task> {
      const configuration = { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately }
      const answer = await client.sendMessage({ tenant: '', message, configuration, metadata: undefined }, PAYING)
      if (!('status' in answer)) throw new Error('expected a task')
      return answer
    },
    get: (id: string, historyLength?: number) => client.getTask({ tenant: '', id, historyLength }, PAYING),
    cancel: (id: string) => client.cancelTask({ tenant: '', id, metadata: undefined }, PAYING),
  }
}

export type A2aAgent = ReturnType<typeof agentOn>

/**
 * A quick scan of `input` asked on `agent`, waiting for its payment, and the demo payer's payment for it
 * on Solana, signed and not yet sent.
 */
export async function askedAndSigned(agent: A2aAgent, sandbox: RunningSandbox, input: unknown) {
  const { client: x402, payer } = await demoPayer(sandbox.file, 'solana')
  const task = await agent.send(a2aMessage(input, { 'solsentry.skill': 'sol_quick_scan' }))
  expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
  return { task, payment: await x402.createPaymentPayload(requiredBy(task)), payer }
}

/**
 * Pays `task` with `payment` on `agent`, answered at once, while the facilitator takes `delayMs` to settle
 * (well under the settle timeout): the call is working while `meanwhile` runs; then the task as `readOn`
 * reads it once its call has ended.
 */
export async function paidWhileRunning(
  on: { sandbox: RunningSandbox; agent: A2aAgent; readOn?: A2aAgent; delayMs?: number },
  task: Task,
  payment: unknown,
  meanwhile: () => unknown,
): Promise<Task> {
  const { sandbox, agent, readOn = agent, delayMs = 500 } = on
  sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs })
  try {
    const first = await agent.send(a2aMessage(undefined, paying(payment), task.id), true)
    expect(first.status?.state).toBe(TaskState.TASK_STATE_WORKING)
    await meanwhile()
    return await eventually(
      'the paid call answered',
      () => readOn.get(task.id),
      (read) => read.status?.state !== TaskState.TASK_STATE_WORKING,
    )
  } finally {
    sandbox.faults.clear()
  }
}

/**
 * Pays `task` with `payment` on `agent` while the facilitator answers only after the service stops waiting
 * (a service run with FACILITATOR_SETTLE_TIMEOUT_MS=1000): the settlement left pending. The task as answered.
 */
export async function paidPending(sandbox: RunningSandbox, agent: A2aAgent, task: Task, payment: unknown) {
  sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 2_500 })
  try {
    return await agent.send(a2aMessage(undefined, paying(payment), task.id))
  } finally {
    sandbox.faults.clear()
  }
}

/**
 * Once the chain shows `payer`'s balance moved from `before` and `ctx`'s resolver has read the pending
 * settlement, the same `payment` sent again on `task` (by `agent`): the task as answered.
 */
export async function collectedOnceSettled(
  on: { sandbox: RunningSandbox; ctx: ServiceContext; agent: A2aAgent },
  task: Task,
  paid: { payment: unknown; payer: string; before: bigint },
): Promise<Task> {
  await eventually(
    'the settlement on chain',
    () => usdcOf(on.sandbox, paid.payer),
    (now) => now !== paid.before,
  )
  await on.ctx.payments.resolvePending()
  return on.agent.send(a2aMessage(undefined, paying(paid.payment), task.id))
}

/**
 * One service instance on `sandbox` with `settings`, over HTTP on loopback, its payment gate started, and
 * an A2A agent on it: what the files that run several instances on one Redis start each of (they shut it down).
 */
export async function a2aInstance(sandbox: RunningSandbox, settings: Record<string, string>) {
  const ctx = sandboxContext(sandbox, settings)
  await ctx.payments.start()
  const running = startServer(createApp(ctx), ctx)
  return { ctx, running, agent: await a2aAgent(running.url) }
}

/** An A2A 0.3 `message/send` request (JSON-RPC id `id`): a user message of `parts`, in 0.3's spelling, with `metadata`. */
export const legacyMessageSend = (id: string | number, parts: unknown[], metadata: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'message/send',
  params: { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts, metadata } },
})

/** A raw A2A 1.0 JSON-RPC request to `url`/a2a (what the client does not send: a tenant, an odd shape). */
export async function a2aRpc(
  url: string,
  method: string,
  params: unknown,
): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
  const answer = await fetch(`${url}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', 'a2a-extensions': X402_EXTENSION_URI },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await answer.json()) as never
}
