import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { denoBinary, denoBridgeCommand, denoMissing } from '../sandbox/deno.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

/**
 * The stdio MCP bridge (`solsentry mcp`, docs/mcp.md) on Deno 2 (docs/deno.md): client/cli.ts run by
 * `deno run` as a desktop host would start it, driven by the MCP SDK's own client (the version the
 * lock file pins) over stdio, against the service on Bun and the sandbox. Skipped, with the reason, on
 * a machine without a deno binary.
 */
const suite = denoMissing ? describe.skip : describe
const title = `the stdio MCP bridge on Deno 2${denoMissing ? ` — skipped: ${denoMissing}` : ''}`

const live = denoMissing ? undefined : await liveService()
const cli = join(import.meta.dirname, '..', 'client', 'cli.ts')
const clients: Client[] = []
afterAll(async () => {
  for (const client of clients) await client.close()
})

/** An MCP client connected over stdio to the bridge, `deno run client/cli.ts mcp`, on the live service. */
async function bridgeOnDeno(): Promise<Client> {
  const { sandbox, running } = live!
  const [command, ...args] = [...denoBridgeCommand(denoBinary()!, cli), 'mcp']
  const transport = new StdioClientTransport({
    command: command!,
    args,
    env: {
      PATH: process.env.PATH ?? '',
      SOLSENTRY_URL: running.url,
      SOLSENTRY_KEYPAIR: sandbox.file.buyer.keypair_path,
      SOLSENTRY_SOLANA_RPC: sandbox.file.urls.rpc,
      // Deno keeps its compiled modules under HOME (or DENO_DIR): the same cache as the developer's.
      ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
      ...(process.env.DENO_DIR ? { DENO_DIR: process.env.DENO_DIR } : {}),
    },
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const mcp = new Client({ name: 'test-host', version: '1.0.0' })
  clients.push(mcp)
  await mcp.connect(transport).catch((error) => {
    throw new Error(`the bridge on Deno did not start: ${error}\n${stderr}`)
  })
  return mcp
}

suite(title, () => {
  test('an MCP client over stdio lists the service’s tools through the bridge running on Deno', async () => {
    const mcp = await bridgeOnDeno()
    expect(mcp.getServerVersion()?.name).toBe('solsentry')
    const { tools } = await mcp.listTools()
    // The service's own list (its /mcp tools/list), which the bridge relays.
    const served = (await (
      await fetch(`${live!.running.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
    ).json()) as { result: { tools: { name: string }[] } }
    expect(tools.length).toBeGreaterThan(0)
    expect(tools.map((tool) => tool.name).sort()).toEqual(served.result.tools.map((tool) => tool.name).sort())
  }, 90_000)

  test('a paid tool through the bridge on Deno: signed on Deno, settled, the receipt in _meta', async () => {
    const mcp = await bridgeOnDeno()
    await mcp.listTools() // the client validates structured results against the schemas it lists
    const { sandbox, mintOf } = live!
    const before = await usdcOf(sandbox, sandbox.file.buyer.address)
    const paid = (await mcp.callTool({
      name: 'sol_quick_scan',
      arguments: { token_address: mintOf('blue-chip') },
    })) as { isError?: boolean; _meta?: Record<string, any>; structuredContent?: Record<string, unknown> }
    expect(paid.isError).toBeFalsy()
    expect(paid._meta?.['x402/payment-response']?.success).toBe(true)
    expect(paid.structuredContent?.structural_risk_grade).toBeString()
    // 0.02 USDC moved on chain, from the wallet the bridge signed with.
    expect(before - (await usdcOf(sandbox, sandbox.file.buyer.address))).toBe(20_000n)
  }, 90_000)
})
