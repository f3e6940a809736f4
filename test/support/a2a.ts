import { randomUUID } from 'node:crypto'
import { type Message, Role, type Task } from '@a2a-js/sdk'
import { ClientFactory, ServiceParameters, withA2AExtensions } from '@a2a-js/sdk/client'
import type { PaymentRequired } from '@x402/core/types'
import { X402_EXTENSION_URI } from '../../src/kernel/a2a.ts'

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
      : [{ content: { $case: 'data' as const, value: input }, metadata: {}, filename: '', mediaType: '' }]
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

/** A task's status metadata (the extension's keys). */
export const saidBy = (task: Task) => (task.status?.message?.metadata ?? {}) as Record<string, unknown>

/** A task's status words (its text part). */
export const wordsOf = (task: Task) => {
  const content = task.status?.message?.parts.find((part) => part.content?.$case === 'text')?.content
  return content?.$case === 'text' ? content.value : ''
}

/** The payment requirements a task waiting for payment offers. */
export const requiredBy = (task: Task) => saidBy(task)['x402.payment.required'] as PaymentRequired

/** The official A2A client on a service at `url`: messages, tasks/get and tasks/cancel with the extension active. */
export async function a2aAgent(url: string) {
  const client = await new ClientFactory().createFromUrl(url)
  return {
    client,
    async send(message: Message, returnImmediately = false): Promise<Task> {
      const configuration = { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately }
      const answer = await client.sendMessage({ tenant: '', message, configuration, metadata: undefined }, PAYING)
      if (!('status' in answer)) throw new Error('expected a task')
      return answer
    },
    get: (id: string) => client.getTask({ tenant: '', id, historyLength: undefined }, PAYING),
    cancel: (id: string) => client.cancelTask({ tenant: '', id, metadata: undefined }, PAYING),
  }
}

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
