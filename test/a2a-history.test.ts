import { randomUUID } from 'node:crypto'
import { expect, test } from 'bun:test'
import { MAX_HISTORY } from '../plugins/a2a/task-store.ts'
import { X402_EXTENSION_URI } from '../src/kernel/a2a.ts'
import { liveService } from './support/live.ts'

// A task's history is bounded (plugins/a2a/task-store.ts MAX_HISTORY): a task waiting for payment grew with
// every message sent to it, each answered with the whole task — 60 messages of 14 KB made a 1.2 MB task,
// kept and sent back on every message (review of 2026-11-28). It keeps its first message (the call) and the
// last MAX_HISTORY.
const { running, mintOf } = await liveService({
  RATE_LIMIT_SCANNER_BURST: '100000',
  RATE_LIMIT_SCANNER_PER_MINUTE: '100000',
})
const mint = mintOf('blue-chip')

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

async function rpc(method: string, params: unknown): Promise<{ json: Json; bytes: number }> {
  const answer = await fetch(`${running.url}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-a2a-extensions': X402_EXTENSION_URI },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const text = await answer.text()
  return { json: JSON.parse(text), bytes: text.length }
}

const message = (data: unknown, metadata: Record<string, unknown>, taskId?: string) => ({
  message: {
    kind: 'message',
    messageId: randomUUID(),
    role: 'user',
    ...(taskId ? { taskId } : {}),
    parts: [{ kind: 'data', data }],
    metadata,
  },
})

test('60 messages of 14 KB on a task waiting for payment: its history keeps the first message and the last MAX_HISTORY', async () => {
  const first = await rpc('message/send', message({ token_address: mint }, { 'solsentry.skill': 'sol_quick_scan' }))
  const id = first.json.result.id as string
  const filler = { filler: 'x'.repeat(14_000) }
  let last = 0
  for (let i = 0; i < 60; i++) {
    const answer = await rpc('message/send', message(filler, {}, id))
    expect(answer.json.result?.status?.state).toBe('input-required')
    last = answer.bytes
  }
  const read = await rpc('tasks/get', { id })
  const history = read.json.result.history as Json[]
  expect(history).toHaveLength(MAX_HISTORY + 1)
  expect(history[0].parts[0].data).toEqual({ token_address: mint })
  // Each message and the answer stay small: the bounded history, never the sum of every message (1.2 MB).
  expect(last).toBeLessThan(MAX_HISTORY * 20_000)
  expect(read.bytes).toBeLessThan(MAX_HISTORY * 20_000)
}, 60_000)
