import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { callOrderLines } from '../../src/kernel/manifest.ts'
import { callerOf, forwardedHeaders, publicOrigin, type SocketServer } from '../../src/http/request.ts'
import { routeOptions } from '../../src/http/route-options.ts'
import { SERVICE_VERSION } from '../../src/kernel/version.ts'
import { paymentRails, railsInWords } from '../../src/payments/rails.ts'
import { manifest } from './manifest.ts'

export { manifest }
import { findTool, PAYMENT_META, type Tool, toolRequest, toolResult, toolsOf } from './tools.ts'
import { WATCH_RESOURCE_TEMPLATE, watchContents, watchReadRequest, watchUriOf } from './watch-resource.ts'

/** Answers one HTTP request through the service's front door (what `Service.handle` does). */
export type Dispatch = (request: Request, server: SocketServer) => Promise<Response>

/**
 * The MCP server at `/mcp` (streamable HTTP, stateless, JSON answers) on the official SDK: the tools
 * of plugins/mcp/tools.ts, each call dispatched as its route's HTTP request through `dispatch`, from the
 * caller's own address (so rate limits hold the caller, not the MCP endpoint).
 */
export function mcpPlugin(ctx: ServiceContext, dispatch: Dispatch) {
  ctx.registry.register(manifest)
  const { routes } = manifest
  // Built on first use (every plugin has registered its routes by then), once.
  let tools: Tool[] | undefined
  let guide: string | undefined
  const toolList = () => (tools ??= toolsOf(ctx.registry, railsInWords(paymentRails(ctx.config))))
  const serverGuide = () => (guide ??= instructions(ctx))

  function serverFor(outer: Request): Server {
    const server = new Server(
      { name: 'solsentry', version: SERVICE_VERSION },
      // Resources without subscribe: a stateless server has no stream to send notifications on.
      { capabilities: { tools: {}, resources: {} }, instructions: serverGuide() },
    )
    // A watch's alerts (watch-resource.ts): none listed (each is its payer's), one template, read signed in.
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }))
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
      resourceTemplates: [WATCH_RESOURCE_TEMPLATE],
    }))
    server.setRequestHandler(ReadResourceRequestSchema, async (read) => {
      const { id, afterSeq } = watchUriOf(read.params.uri)
      const request = watchReadRequest(id, publicOrigin(ctx, outer), read.params._meta, forwardedHeaders(outer))
      return watchContents(read.params.uri, afterSeq, await dispatch(request, callerOf(outer)))
    })
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: toolList().map(({ route: _route, aliases: _aliases, ...tool }) => tool),
    }))
    server.setRequestHandler(CallToolRequestSchema, async (call) => {
      const tool = findTool(toolList(), call.params.name)
      if (!tool)
        throw new McpError(
          ErrorCode.InvalidParams,
          `unknown tool ${call.params.name}: tools/list names the ${toolList().length} tools of this server`,
        )
      const payment = call.params._meta?.[PAYMENT_META]
      const request = toolRequest(
        tool,
        call.params.arguments ?? {},
        publicOrigin(ctx, outer),
        payment,
        forwardedHeaders(outer),
      )
      return toolResult(tool, await dispatch(request, callerOf(outer)), payment !== undefined)
    })
    return server
  }

  return new Elysia({ name: 'plugin:mcp' })
    .post(
      routes.call.path,
      async function mcpRoute({ request, body }) {
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        })
        const server = serverFor(request)
        await server.connect(transport)
        try {
          // The front door read the body already (its size, media type and JSON checked there).
          return await transport.handleRequest(request, { parsedBody: body })
        } finally {
          void server.close()
        }
      },
      routeOptions(ctx, routes.call),
    )
    .get(
      routes.stream.path,
      function mcpStream() {
        const body = {
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Method not allowed: this MCP server is stateless, POST each request' },
          id: null,
        }
        return new Response(JSON.stringify(body), {
          status: 405,
          headers: { allow: 'POST', 'content-type': 'application/json' },
        })
      },
      routeOptions(ctx, routes.stream),
    )
}

mcpPlugin.manifest = manifest

/** The server's instructions to the agent: the suggested call order and how paid tools are paid. */
function instructions(ctx: ServiceContext): string {
  const order = callOrderLines(ctx.registry).join('\n')
  return [
    'solsentry answers whether a Solana token (an SPL mint address, never a ticker) is safe, what its market is doing, and runs bring-your-own-wallet swaps.',
    `Suggested call order:\n${order}`,
    'Paid tools answer the x402 PaymentRequired (isError, structuredContent) when called without payment: sign one offer and repeat the call with the payment in _meta["x402/payment"]. A call that fails is not charged; a payment pays for one call.',
  ].join('\n\n')
}
