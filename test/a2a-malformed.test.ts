import { describe, expect, test } from 'bun:test'
import { X402_EXTENSION_URI } from '../src/kernel/a2a.ts'
import { liveService } from './support/live.ts'

// Malformed JSON-RPC to /a2a: each is a JSON-RPC error (or the front door's JSON error) with a clear
// message, never a 500 or a hang.
const { running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const EXTENSION = { 'X-A2A-Extensions': X402_EXTENSION_URI }

async function post(body: string, headers: Record<string, string> = {}): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${running.url}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...EXTENSION, ...headers },
    body,
  })
  const text = await response.text()
  let json: Json
  try {
    json = JSON.parse(text)
  } catch {
    json = { unparsed: text }
  }
  return { status: response.status, json }
}

/** A 0.3 message/send whose message is `message`. */
const send = (message: unknown, version?: string) =>
  JSON.stringify({ jsonrpc: version ?? '2.0', id: 'm-1', method: 'message/send', params: { message } })

const legacyMessage = (parts: unknown, metadata: Record<string, unknown> = {}) => ({
  kind: 'message',
  messageId: 'msg-1',
  role: 'user',
  parts,
  metadata,
})

/** The error an answer carries, JSON-RPC's or the front door's, with its message. */
function errorOf(answer: { status: number; json: Json }): { code: unknown; message: string } {
  expect(answer.status).toBeLessThan(500)
  const error = answer.json.error === true ? answer.json : answer.json.error
  expect(error, JSON.stringify(answer.json)).toBeDefined()
  expect(typeof error.message).toBe('string')
  expect(error.message.length).toBeGreaterThan(10)
  return { code: error.code, message: error.message }
}

describe('malformed JSON-RPC to /a2a', () => {
  test('a body that is not JSON: a clear error, not a 500', async () => {
    const { message } = errorOf(await post('{"jsonrpc": "2.0", "method": '))
    expect(message).toMatch(/JSON/i)
  })

  test('a JSON body that is not an object (an array, a string, null)', async () => {
    for (const body of ['[]', '"hello"', 'null', '42']) {
      const error = errorOf(await post(body))
      expect(error.message, body).not.toMatch(/internal/i)
    }
  })

  test('the wrong jsonrpc version: Invalid Request', async () => {
    const { code, message } = errorOf(await post(send(legacyMessage([{ kind: 'text', text: 'hi' }]), '1.0')))
    expect(code === -32600 || code === 'INVALID_REQUEST' || code === 'VALIDATION_ERROR', message).toBe(true)
    expect(message).toMatch(/jsonrpc|2\.0|invalid/i)
  })

  test('an unknown method: Method not found', async () => {
    const { code } = errorOf(
      await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/everything', params: {} })),
    )
    expect(code).toBe(-32601)
  })

  test('params of the wrong type: Invalid params', async () => {
    for (const params of ['"a string"', '[1, 2]', '{"message": "not an object"}', '{"message": 7}', '{"id": 7}']) {
      for (const [method, version] of [
        ['message/send', '0.3'],
        ['tasks/get', '0.3'],
        ['tasks/cancel', '0.3'],
        ['SendMessage', '1.0'],
        ['GetTask', '1.0'],
        ['CancelTask', '1.0'],
      ]) {
        const body = `{"jsonrpc": "2.0", "id": 2, "method": "${method}", "params": ${params}}`
        const { code, message } = errorOf(await post(body, { 'A2A-Version': version! }))
        expect([-32602, -32600, -32001], `${method} ${params}: ${message}`).toContain(code as number)
      }
    }
  })

  test('a huge body: refused by size before it is read, not a 500', async () => {
    const huge = send(legacyMessage([{ kind: 'text', text: 'x'.repeat(2_000_000) }]))
    const answer = await post(huge)
    expect(answer.status).toBeLessThan(500)
    expect(answer.status).not.toBe(200)
    errorOf(answer)
  })

  // A message the A2A schema accepts but that holds no usable input is an input error like the others
  // (docs/a2a.md): its task ends failed with what to send, before any payment is asked.
  test('a message with no parts: its task failed, saying what to send; no payment asked', async () => {
    const named = inputError(await post(send(legacyMessage([], { 'solsentry.skill': 'sol_quick_scan' }))))
    expect(named).toMatch(/as a data part: \{ "token_address"/)
    const unnamed = inputError(await post(send(legacyMessage([]))))
    expect(unnamed).toMatch(/name no skill.*metadata\["solsentry.skill"\]/)
  })

  test('a data part that is an array: its task failed, the input is a JSON object; no payment asked', async () => {
    const answer = await post(
      send(legacyMessage([{ kind: 'data', data: [mintOf('blue-chip')] }], { 'solsentry.skill': 'sol_quick_scan' })),
    )
    expect(inputError(answer)).toMatch(/input is a JSON object/)
  })
})

/** The words of a task ended failed on its input (INVALID_REQUEST), never one asking for payment. */
function inputError(answer: { status: number; json: Json }): string {
  expect(answer.status).toBe(200)
  const status = answer.json.result?.status
  expect(status?.state, JSON.stringify(answer.json)).toBe('failed')
  expect(status.message.metadata?.['x402.payment.status']).toBeUndefined()
  expect(status.message.parts[1]).toMatchObject({ kind: 'data', data: { code: 'INVALID_REQUEST' } })
  return status.message.parts[0].text
}

describe('deeply nested metadata (review of 2026-11-28)', () => {
  test('thousands of levels deep, in either version: answered, never a 500', async () => {
    const mint = mintOf('blue-chip')
    for (const depth of [1_000, 7_000]) {
      const nested = `{"solsentry.skill":"sol_quick_scan","junk":${'['.repeat(depth)}${']'.repeat(depth)}}`
      const legacy = `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"deep-${depth}","role":"user","parts":[{"kind":"data","data":{"token_address":"${mint}"}}],"metadata":${nested}}}}`
      const current = `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"deep-${depth}-1","role":"ROLE_USER","parts":[{"data":{"token_address":"${mint}"}}],"metadata":${nested}}}}`
      for (const [body, headers] of [
        [legacy, {}],
        [current, { 'a2a-version': '1.0', 'a2a-extensions': X402_EXTENSION_URI }],
      ] as const) {
        const answer = await post(body, headers)
        expect(answer.status).toBe(200)
        expect(answer.json.result ?? answer.json.error, JSON.stringify(answer.json).slice(0, 300)).toBeDefined()
      }
    }
  })
})
