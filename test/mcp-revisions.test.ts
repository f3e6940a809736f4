import { describe, expect, test } from 'bun:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js'
import type { PaymentRequired } from '@x402/core/types'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { demoPayer } from '../sandbox/demo-client.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// MCP across protocol revisions: the /mcp endpoint and the stdio bridge answer a client of every
// revision the installed official SDK supports (its SUPPORTED_PROTOCOL_VERSIONS, 2024-10-07 …
// 2025-11-25), each one with the revision it asked for, and take its paid tool calls.
const { sandbox, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })
const offers = sandbox.file.x402
const mint = mintOf('blue-chip')

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

/**
 * A transport that asks for `revision` in its `initialize` (the SDK's client always asks for its latest):
 * a client of an older revision, as far as the wire shows.
 */
class PinnedTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  /** The revision the server's initialize answer names. */
  negotiated?: string
  /** The revision the SDK client handed the transport for its mcp-protocol-version header (HTTP). */
  headerRevision?: string
  constructor(
    private readonly inner: Transport,
    private readonly revision: string,
  ) {}
  start() {
    this.inner.onclose = () => this.onclose?.()
    this.inner.onerror = (error) => this.onerror?.(error)
    this.inner.onmessage = (message) => {
      const answered = (message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion
      if (typeof answered === 'string') this.negotiated = answered
      this.onmessage?.(message)
    }
    return this.inner.start()
  }
  send(message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]) {
    const pinned =
      'method' in message && message.method === 'initialize'
        ? { ...message, params: { ...message.params, protocolVersion: this.revision } }
        : message
    return this.inner.send(pinned, options)
  }
  setProtocolVersion(version: string) {
    this.headerRevision = version
    this.inner.setProtocolVersion?.(version)
  }
  close() {
    return this.inner.close()
  }
}

async function pinnedClient(inner: Transport, revision: string): Promise<{ mcp: Client; transport: PinnedTransport }> {
  const mcp = new Client({ name: `host-${revision}`, version: '1.0.0' })
  const transport = new PinnedTransport(inner, revision)
  await mcp.connect(transport)
  return { mcp, transport }
}

/** The official x402 client's payment for a tool's PaymentRequired, on the Solana rail. */
async function pay(required: PaymentRequired): Promise<unknown> {
  const { client } = await demoPayer(sandbox.file, 'solana')
  return client.createPaymentPayload(required)
}

/** One raw JSON-RPC POST to /mcp, as a client that builds its own requests sends it. */
async function post(body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${running.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: await response.json() }
}

const initialize = (protocolVersion: string, id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-host', version: '1.0.0' } },
})

test("the revisions served are the installed SDK's: 2024-11-05 through 2025-11-25 among them", () => {
  for (const revision of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])
    expect(SUPPORTED_PROTOCOL_VERSIONS).toContain(revision)
  expect(LATEST_PROTOCOL_VERSION).toBe('2025-11-25')
  // docs/mcp.md's table of revisions is the SDK's list, no more, no less.
  const doc = readFileSync(join(import.meta.dir, '..', 'docs', 'mcp.md'), 'utf8')
  const table = doc.slice(doc.indexOf('<!-- revisions:'), doc.indexOf('## Tools'))
  const listed = [...table.matchAll(/^\| `(\d{4}-\d{2}-\d{2})` \|/gm)].map((match) => match[1])
  expect(listed).toEqual([...SUPPORTED_PROTOCOL_VERSIONS])
})

describe.each([...SUPPORTED_PROTOCOL_VERSIONS])('/mcp with a client of revision %s', (revision) => {
  test('initialize answers that revision; tools/list and a paid tools/call work under it', async () => {
    const { mcp, transport } = await pinnedClient(
      new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`)),
      revision,
    )
    try {
      expect(transport.negotiated).toBe(revision)
      expect(transport.headerRevision).toBe(revision)
      const { tools } = await mcp.listTools()
      expect(tools.find((tool) => tool.name === 'sol_quick_scan')?.inputSchema).toMatchObject({
        required: ['token_address'],
      })
      const { payer } = await demoPayer(sandbox.file, 'solana')
      const before = await usdcOf(sandbox, payer)
      const args = { name: 'sol_quick_scan', arguments: { token_address: mint } }
      const challenge = (await mcp.callTool(args)) as Json
      expect(challenge.isError).toBe(true)
      // The challenge in the text content too: a client of a revision before structuredContent reads it there.
      expect(JSON.parse(challenge.content[0].text)['x402/error'].data).toEqual(challenge.structuredContent)
      const paid = (await mcp.callTool({
        ...args,
        _meta: { 'x402/payment': await pay(challenge.structuredContent) },
      })) as Json
      expect(paid.isError).toBeFalsy()
      expect(JSON.parse(paid.content[0].text)).toMatchObject({ token_address: mint, schema_version: '2.0' })
      expect(paid._meta['x402/payment-response']).toMatchObject({ success: true, network: offers.solana.network })
      expect(await usdcOf(sandbox, payer)).toBe(before - 20_000n)
    } finally {
      await mcp.close()
    }
  }, 60_000)

  test('raw JSON-RPC: initialize answers the revision; a tools/list under its mcp-protocol-version header answers', async () => {
    const answer = await post(initialize(revision))
    expect(answer.status).toBe(200)
    expect(answer.body.result).toMatchObject({ protocolVersion: revision, serverInfo: { name: 'solsentry' } })
    const listed = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-protocol-version': revision })
    expect(listed.status).toBe(200)
    expect(listed.body.result.tools.length).toBeGreaterThan(10)
  })
})

describe('negotiation at the edges', () => {
  test('a revision the SDK does not know: initialize answers the latest it serves (the client decides)', async () => {
    for (const asked of ['2023-01-01', '2026-06-30']) {
      const answer = await post(initialize(asked))
      expect(answer.body.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION)
    }
  })

  test('a request under an unknown mcp-protocol-version header: 400 naming the revisions served', async () => {
    const answer = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': '2099-01-01' })
    expect(answer.status).toBe(400)
    expect(answer.body.error.message).toContain('Unsupported protocol version: 2099-01-01')
    for (const revision of SUPPORTED_PROTOCOL_VERSIONS) expect(answer.body.error.message).toContain(revision)
  })

  test('a 2025-03-26 client sends no mcp-protocol-version header: its calls answer (the spec assumes 2025-03-26)', async () => {
    const listed = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    expect(listed.status).toBe(200)
    expect(listed.body.result.tools.map((tool: Json) => tool.name)).toContain('sol_quick_scan')
  })

  test('2025-03-26 batches: an array of requests answers an array of responses, each by its id', async () => {
    const answer = await post(
      [
        { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
        { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'sol_trade_pairs', arguments: {} } },
      ],
      { 'mcp-protocol-version': '2025-03-26' },
    )
    expect(answer.status).toBe(200)
    expect(Array.isArray(answer.body)).toBe(true)
    const byId = Object.fromEntries(answer.body.map((response: Json) => [response.id, response]))
    expect(byId.a.result.tools.length).toBeGreaterThan(10)
    expect(byId.b.result.structuredContent.count).toBeGreaterThan(0)
  })
})

describe('stateless: no session between calls', () => {
  test('two paid calls on two connections of different revisions, at once: each paid once, each answered', async () => {
    const { client, payer } = await demoPayer(sandbox.file, 'solana')
    const before = [await usdcOf(sandbox, payer), await usdcOf(sandbox, offers.solana.pay_to)]
    const connections = await Promise.all(
      ['2024-11-05', LATEST_PROTOCOL_VERSION].map((revision) =>
        pinnedClient(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`)), revision),
      ),
    )
    try {
      const mints = [mint, mintOf('dead-token')]
      const answers = await Promise.all(
        connections.map(async ({ mcp }, i) => {
          const args = { name: 'sol_quick_scan', arguments: { token_address: mints[i] } }
          const required = ((await mcp.callTool(args)) as Json).structuredContent
          const payment = await client.createPaymentPayload(required)
          return (await mcp.callTool({ ...args, _meta: { 'x402/payment': payment } })) as Json
        }),
      )
      expect(answers.map((answer) => answer.structuredContent.token_address)).toEqual(mints)
      const receipts = answers.map((answer) => answer._meta['x402/payment-response'])
      expect(receipts.every((receipt) => receipt.success)).toBe(true)
      expect(receipts[0].transaction).not.toBe(receipts[1].transaction)
      expect(await usdcOf(sandbox, payer)).toBe(before[0]! - 40_000n)
      expect(await usdcOf(sandbox, offers.solana.pay_to)).toBe(before[1]! + 40_000n)
    } finally {
      await Promise.all(connections.map(({ mcp }) => mcp.close()))
    }
  }, 60_000)

  test('a paid tools/call with no initialize before it (another connection, no session id) is answered and paid', async () => {
    const challenge = await post(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'sol_quick_scan', arguments: { token_address: mint } },
      },
      { 'mcp-protocol-version': LATEST_PROTOCOL_VERSION },
    )
    const required = challenge.body.result.structuredContent
    const paid = await post(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: 'sol_quick_scan',
          arguments: { token_address: mint },
          _meta: { 'x402/payment': await pay(required) },
        },
      },
      { 'mcp-protocol-version': LATEST_PROTOCOL_VERSION },
    )
    expect(paid.body.result.isError).toBeFalsy()
    expect(paid.body.result._meta['x402/payment-response'].success).toBe(true)
  }, 30_000)
})

// The bridge (`solsentry mcp`) as a host starts it, over stdio: every revision negotiated, a paid call each.
const cli = join(import.meta.dir, '..', 'client', 'cli.ts')
const bridgeEnv: Record<string, string> = {
  ...(process.env as Record<string, string>),
  SOLSENTRY_URL: running.url,
  SOLSENTRY_KEYPAIR: sandbox.file.buyer.keypair_path,
  SOLSENTRY_SOLANA_RPC: sandbox.file.urls.rpc,
}

describe.each([...SUPPORTED_PROTOCOL_VERSIONS])('the stdio bridge with a host of revision %s', (revision) => {
  test('initialize answers that revision; tools/list and a paid tools/call work under it', async () => {
    const stdio = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp'],
      env: bridgeEnv,
      stderr: 'pipe',
    })
    const { mcp, transport } = await pinnedClient(stdio, revision)
    try {
      expect(transport.negotiated).toBe(revision)
      const { tools } = await mcp.listTools()
      expect(tools.map((tool) => tool.name)).toContain('sol_quick_scan')
      const before = await usdcOf(sandbox, sandbox.file.buyer.address)
      const paid = (await mcp.callTool({ name: 'sol_quick_scan', arguments: { token_address: mint } })) as Json
      expect(paid.isError).toBeFalsy()
      expect(JSON.parse(paid.content[0].text)).toMatchObject({ token_address: mint })
      expect(paid._meta['x402/payment-response']).toMatchObject({ success: true })
      expect(await usdcOf(sandbox, sandbox.file.buyer.address)).toBe(before - 20_000n)
    } finally {
      await mcp.close()
    }
  }, 60_000)
})

describe('the stdio bridge reads what revision 2025-03-26 allows on a line, and answers what is not a message', () => {
  test('a batch is answered with one array, each response by its id; a line that is not JSON-RPC gets its error', async () => {
    const child = Bun.spawn([process.execPath, cli, 'mcp'], {
      env: bridgeEnv,
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
    })
    try {
      const reader = child.stdout.getReader()
      let buffered = ''
      const line = async (): Promise<Json> => {
        for (;;) {
          const newline = buffered.indexOf('\n')
          if (newline >= 0) {
            const text = buffered.slice(0, newline)
            buffered = buffered.slice(newline + 1)
            return JSON.parse(text)
          }
          const { value, done } = await reader.read()
          if (done) throw new Error(`the bridge's stdout ended (${buffered})`)
          buffered += new TextDecoder().decode(value)
        }
      }
      const send = async (text: string) => {
        child.stdin.write(`${text}\n`)
        await child.stdin.flush()
      }
      await send(JSON.stringify([initialize('2025-03-26')]))
      const [initialized] = await line()
      expect(initialized.result.protocolVersion).toBe('2025-03-26')
      await send(
        JSON.stringify([
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          { jsonrpc: '2.0', id: 'list', method: 'tools/list' },
          { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'sol_trade_pairs', arguments: {} } },
          { nope: true },
        ]),
      )
      const answers = await line()
      expect(answers).toHaveLength(3)
      expect(answers[0]).toMatchObject({ id: null, error: { code: -32600 } })
      expect(answers[1].id).toBe('list')
      expect(answers[1].result.tools.map((tool: Json) => tool.name)).toContain('sol_quick_scan')
      expect(answers[2].id).toBe(7)
      expect(answers[2].result.structuredContent.count).toBeGreaterThan(0)
      await send('this is not json')
      expect(await line()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } })
      await send('[]')
      expect(await line()).toMatchObject({
        id: null,
        error: { code: -32600, message: 'Invalid Request: an empty batch' },
      })
      // One message a line, as before.
      await send(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }))
      expect(await line()).toEqual({ jsonrpc: '2.0', id: 9, result: {} })
    } finally {
      child.kill()
      await child.exited
    }
  }, 60_000)
})
