/**
 * `solsentry mcp`: a local MCP server over stdio for agent hosts that cannot pay by themselves. It lists
 * the remote service's tools (its /mcp tools/list, so every route the service adds appears here) and
 * runs each call as the tool's HTTP route through the SDK, which pays from the user's own wallet within
 * the spend controls. The keys stay in this process; only signed payments leave it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import { type Receipt, type RouteKey, type Solsentry, SolsentryError } from './index.ts'
import { renderDeepDive, renderExitCheck, renderMarketIntel, renderQuickScan } from './render.ts'
import type { DeepDive, ExitCheck, MarketIntel, QuickScan } from './routes.ts'

const ROUTE_META = 'solsentry/route'

/** The bridge's MCP server on `transport` (stdio by default). Resolves when the transport closes. */
export async function runBridge(
  solsentry: Solsentry,
  transport: Transport = new StdioServerTransport(),
): Promise<void> {
  const remote = new Client({ name: 'solsentry-bridge', version: '1.0.0' })
  await remote.connect(new StreamableHTTPClientTransport(new URL(`${solsentry.url}/mcp`)))
  const { tools } = await remote.listTools()
  const instructions = remote.getInstructions()
  await remote.close()

  const server = new Server(
    { name: 'solsentry', version: '1.0.0' },
    {
      capabilities: { tools: {} },
      instructions: `${instructions ?? ''}\n\nThis local bridge pays paid tools from your own wallet, within its spend controls (per call: the published price at most).`,
    },
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }))
  server.setRequestHandler(CallToolRequestSchema, async (call) => {
    const tool: Tool | undefined = tools.find((candidate) => candidate.name === call.params.name)
    const route = tool?._meta?.[ROUTE_META]
    if (!tool || typeof route !== 'string')
      throw new McpError(ErrorCode.InvalidParams, `unknown tool ${call.params.name}: tools/list names the tools`)
    try {
      let receipt: Receipt | undefined
      const answer = (await solsentry.call(route as RouteKey, (call.params.arguments ?? {}) as never, {
        onReceipt: (settled) => {
          receipt = settled
        },
      })) as Record<string, unknown>
      const words = wordsOf(route, answer)
      return {
        structuredContent: answer,
        // The JSON first (as the service's own MCP answers it), then the answer as the CLI puts it in words.
        content: [{ type: 'text', text: JSON.stringify(answer) }, ...(words ? [{ type: 'text', text: words }] : [])],
        _meta: { 'solsentry/spent_usd': solsentry.spentUsd, ...(receipt ? { 'x402/payment-response': receipt } : {}) },
      }
    } catch (error) {
      if (!(error instanceof SolsentryError)) throw error
      const body = { ...error.body, error: true, code: error.code, message: error.message }
      return { isError: true, structuredContent: body, content: [{ type: 'text', text: JSON.stringify(body) }] }
    }
  })
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve
  })
  await server.connect(transport)
  await closed
}

/** A scanner's answer as the CLI shows it, without colours (undefined for the other routes). */
function wordsOf(route: string, answer: Record<string, unknown>): string | undefined {
  const plain = { color: false }
  if (route === 'POST /scan/quick') return renderQuickScan(plain, answer as QuickScan)
  if (route === 'POST /market/intel') return renderMarketIntel(plain, answer as MarketIntel)
  if (route === 'POST /scan/deep') return renderDeepDive(plain, answer as DeepDive)
  if (route === 'POST /exit/check') return renderExitCheck(plain, answer as ExitCheck)
  return undefined
}
