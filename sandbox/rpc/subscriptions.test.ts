import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { address, createSolanaRpcSubscriptions, type Signature } from '@solana/kit'
import { startSandbox, type RunningSandbox } from '../index.ts'
import { ephemeralSandboxOptions } from '../options.ts'

// accountSubscribe and logsSubscribe {mentions} as the validator serves them, fired by the rug controls'
// transactions: the notifications a position guard (issue 34) listens to.

let sandbox: RunningSandbox
const mintOf = (name: string) => sandbox.file.scenarios.find((scenario) => scenario.name === name)!.mint
const recorded = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../test/fixtures/recorded/solana-ws/${name}`, import.meta.url), 'utf8')).answer

beforeAll(async () => {
  sandbox = await startSandbox(ephemeralSandboxOptions())
})
afterAll(() => sandbox.stop())

/** The member names of a JSON value, nested, with the type of each leaf: its shape. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])]
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, shape((value as Record<string, unknown>)[key])]),
    )
  return value === null ? 'null' : typeof value
}

/** A raw WebSocket client: every message it received, and a wait for the next one that matches. */
async function rawSocket() {
  const socket = new WebSocket(sandbox.file.urls.ws)
  await new Promise((resolve) => socket.addEventListener('open', resolve))
  const received: Record<string, any>[] = []
  const waiting: { match: (message: Record<string, any>) => boolean; resolve: (m: Record<string, any>) => void }[] = []
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data))
    received.push(message)
    for (const waiter of waiting.filter((entry) => entry.match(message))) {
      waiting.splice(waiting.indexOf(waiter), 1)
      waiter.resolve(message)
    }
  })
  let nextId = 1
  const next = (match: (message: Record<string, any>) => boolean) => {
    const already = received.find(match)
    if (already) return Promise.resolve(already)
    return new Promise<Record<string, any>>((resolve) => waiting.push({ match, resolve }))
  }
  const call = async (method: string, params: unknown[]) => {
    const id = nextId++
    socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
    return next((message) => message.id === id)
  }
  return { socket, received, next, call }
}

describe('accountSubscribe', () => {
  test("a kit client hears the mint change with the slot of the rug's transaction (jsonParsed)", async () => {
    const mint = mintOf('mint-authority-live')
    const abort = new AbortController()
    const stream = await createSolanaRpcSubscriptions(sandbox.file.urls.ws)
      .accountNotifications(address(mint), { commitment: 'confirmed', encoding: 'jsonParsed' })
      .subscribe({ abortSignal: abort.signal })
    const outcome = await sandbox.rugs['mint-more'](mint)
    for await (const notification of stream) {
      expect(notification.context.slot).toBe(outcome.slot)
      const info = (notification.value.data as unknown as { parsed: { info: { supply: string } } }).parsed.info
      expect(info.supply).toBe(outcome.after.supply as string)
      break
    }
    abort.abort()
  })

  test("base64: a holder's token account notifies when it is frozen, in getAccountInfo's shape", async () => {
    const mint = mintOf('freeze-authority-live')
    const holder = await sandbox.world.signer('freeze-authority-live:holder-3')
    const account = await sandbox.world.ata(mint, holder.address)
    const abort = new AbortController()
    const stream = await createSolanaRpcSubscriptions(sandbox.file.urls.ws)
      .accountNotifications(account, { commitment: 'confirmed', encoding: 'base64' })
      .subscribe({ abortSignal: abort.signal })
    const outcome = await sandbox.rugs.freeze(mint, { holder: holder.address })
    for await (const notification of stream) {
      expect(notification.context.slot).toBe(outcome.slot)
      const [data, encoding] = notification.value.data as unknown as [string, string]
      expect(encoding).toBe('base64')
      expect(Buffer.from(data, 'base64')[108]).toBe(2) // AccountState::Frozen
      break
    }
    abort.abort()
  })

  test("the notifications have the recorded ones' shapes: a token account in jsonParsed (devnet), a wallet in base58 (docs)", async () => {
    const client = await rawSocket()
    const mint = mintOf('mint-authority-live')
    const holder = await sandbox.world.signer('mint-authority-live:holder-0')
    const account = await sandbox.world.ata(mint, holder.address)
    // The developer's wallet pays the fee (base58 serves data up to 128 bytes: a wallet's, not a token account's).
    const dev = await sandbox.world.signer('mint-authority-live:dev')
    const parsed = await client.call('accountSubscribe', [account, { encoding: 'jsonParsed', commitment: 'finalized' }])
    const binary = await client.call('accountSubscribe', [dev.address, { encoding: 'base58' }])
    const outcome = await sandbox.rugs['mint-more'](mint, { amount: 1, to: holder.address })
    const parsedNote = await client.next((m) => m.params?.subscription === parsed.result)
    const binaryNote = await client.next((m) => m.params?.subscription === binary.result)
    expect(parsedNote.params.result.context.slot).toBe(Number(outcome.slot))
    expect(shape(parsedNote)).toEqual(shape(recorded('accountNotification-devnet-token-account-jsonParsed.json')))
    expect(shape(binaryNote)).toEqual(shape(recorded('accountNotification-docs-base58.json')))
    client.socket.close()
  })

  test('accountUnsubscribe stops the notifications; a second subscription still hears the change', async () => {
    const client = await rawSocket()
    const mint = mintOf('mint-authority-live')
    const first = await client.call('accountSubscribe', [mint, { encoding: 'base64' }])
    expect((await client.call('accountUnsubscribe', [first.result])).result).toBe(true)
    const second = await client.call('accountSubscribe', [mint, { encoding: 'base64' }])
    await sandbox.rugs['mint-more'](mint, { amount: 1 })
    // Both listeners would be called in the same dispatch, the first before the second: once the
    // second's notification is in, the first's would have been too.
    await client.next((m) => m.params?.subscription === second.result)
    expect(client.received.filter((m) => m.params?.subscription === first.result)).toEqual([])
    client.socket.close()
  })

  test.each([
    ['accountSubscribe', ['not-a-key'], -32602],
    ['accountSubscribe', [], -32602],
    ['accountSubscribe', ['11111111111111111111111111111111', { encoding: 'hex' }], -32602],
    ['accountSubscribe', ['11111111111111111111111111111111', { commitment: 'soon' }], -32602],
    ['accountUnsubscribe', [987654], -32602],
    ['accountUnsubscribe', ['one'], -32602],
    ['logsSubscribe', [{ mentions: [] }], -32602],
    ['logsSubscribe', [{ mentions: ['not-a-key'] }], -32602],
    ['logsSubscribe', [{ mentions: ['11111111111111111111111111111111'] }, { commitment: 'soon' }], -32602],
  ])('%s %j is a JSON-RPC error %d', async (method, params, code) => {
    const client = await rawSocket()
    const answer = await client.call(method, params)
    expect(answer.error.code).toBe(code)
    expect(answer.error.message).toBeString()
    client.socket.close()
  })

  test('an unknown subscription id gets the validator\'s "Invalid subscription id."', async () => {
    const client = await rawSocket()
    expect((await client.call('logsUnsubscribe', [424242])).error).toEqual({
      code: -32602,
      message: 'Invalid subscription id.',
    })
    client.socket.close()
  })
})

describe('logsSubscribe {mentions: [one address]}', () => {
  test("a kit client hears the rug's transaction by its signature, with its logs", async () => {
    const mint = mintOf('rug-ready')
    const abort = new AbortController()
    const stream = await createSolanaRpcSubscriptions(sandbox.file.urls.ws)
      .logsNotifications({ mentions: [address(mint)] }, { commitment: 'confirmed' })
      .subscribe({ abortSignal: abort.signal })
    const outcome = await sandbox.rugs['raise-transfer-fee'](mint, { bps: 500 })
    for await (const notification of stream) {
      expect(notification.value.signature).toBe(outcome.signature as Signature)
      expect(notification.context.slot).toBe(outcome.slot)
      expect(notification.value.err).toBeNull()
      expect(notification.value.logs?.length).toBeGreaterThan(0)
      break
    }
    abort.abort()
  })

  test('the notification has the shape of the recorded one; logsUnsubscribe stops it', async () => {
    const client = await rawSocket()
    const mint = mintOf('rug-ready')
    const first = await client.call('logsSubscribe', [{ mentions: [mint] }, { commitment: 'finalized' }])
    const outcome = await sandbox.rugs['raise-transfer-fee'](mint, { bps: 600 })
    const note = await client.next((m) => m.params?.subscription === first.result)
    expect(note.params.result.value.signature).toBe(outcome.signature)
    expect(shape(note)).toEqual(shape(recorded('logsNotification-devnet-mentions-mint.json')))
    expect((await client.call('logsUnsubscribe', [first.result])).result).toBe(true)
    const second = await client.call('logsSubscribe', [{ mentions: [mint] }])
    const again = await sandbox.rugs['raise-transfer-fee'](mint, { bps: 700 })
    await client.next((m) => m.params?.result?.value?.signature === again.signature)
    expect(client.received.filter((m) => m.params?.subscription === first.result)).toHaveLength(1)
    expect(second.result).not.toBe(first.result)
    client.socket.close()
  })

  test('two addresses in mentions are refused, as real RPCs refuse them', async () => {
    const client = await rawSocket()
    const mint = mintOf('rug-ready')
    const answer = await client.call('logsSubscribe', [{ mentions: [mint, mint] }])
    expect(answer.error).toEqual({ code: -32602, message: 'Invalid Request: Only 1 address supported' })
    client.socket.close()
  })
})
