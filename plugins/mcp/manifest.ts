import { Type } from '@sinclair/typebox'
import { defineManifest } from '../../src/kernel/manifest.ts'

/** A JSON-RPC 2.0 message (MCP's wire format): its members are MCP's, see modelcontextprotocol.io. */
const JsonRpcMessage = (description: string) =>
  Type.Object({ jsonrpc: Type.Literal('2.0') }, { additionalProperties: true, description })

/** One message, or (revision 2025-03-26 allows it) a batch of them: the SDK's transport answers both. */
const JsonRpcMessages = (description: string) =>
  Type.Union([JsonRpcMessage(description), Type.Array(JsonRpcMessage(description), { minItems: 1 })], {
    description: `${description}, or a batch of them (an array, as revision 2025-03-26 allows)`,
  })

export const manifest = defineManifest({
  name: 'mcp',
  routes: {
    call: {
      method: 'POST',
      path: '/mcp',
      summary: 'MCP server (streamable HTTP, stateless)',
      description:
        'The Model Context Protocol endpoint: one tool per skill route (tools/list), each with its input and output ' +
        'schemas. Paid tools take x402 payment over MCP: called without payment a tool answers an isError result ' +
        'with the PaymentRequired in structuredContent; repeat the call with the signed payment in ' +
        '_meta["x402/payment"]; the receipt comes back in _meta["x402/payment-response"]. Same prices and ledger as HTTP.',
      price: 'free',
      body: JsonRpcMessages('A JSON-RPC 2.0 request or notification (MCP)'),
      response: JsonRpcMessages('A JSON-RPC 2.0 response (MCP)'),
      tags: ['mcp'],
    },
    stream: {
      method: 'GET',
      path: '/mcp',
      summary: 'MCP server-to-client stream: not offered',
      description:
        'Answers 405 (as the streamable HTTP transport allows): this server is stateless and answers each request in its response.',
      price: 'free',
      response: JsonRpcMessage('A JSON-RPC 2.0 error: method not allowed'),
      tags: ['mcp'],
    },
  },
})
