import { Type } from '@sinclair/typebox'
import { A2A_PATH } from '../../src/kernel/a2a.ts'
import { defineManifest } from '../../src/kernel/manifest.ts'

/** A JSON-RPC 2.0 message (A2A's JSON-RPC binding): its members are A2A's, see a2a-protocol.org. */
const JsonRpcMessage = (description: string) =>
  Type.Object({ jsonrpc: Type.Literal('2.0') }, { additionalProperties: true, description })

export const manifest = defineManifest({
  name: 'a2a',
  routes: {
    call: {
      method: 'POST',
      path: A2A_PATH,
      summary: 'A2A server (JSON-RPC binding, A2A 1.0 and 0.3)',
      description:
        'The Agent2Agent endpoint: message/send (SendMessage), tasks/get (GetTask), tasks/cancel (CancelTask); no streaming. ' +
        'One skill per offered route (the agent card). Paid skills take payment by the A2A x402 extension (v0.2, required): ' +
        'a message without payment ends in a task input-required with x402.payment.required in its status message metadata; ' +
        'send the signed payload on the same task in x402.payment.payload; the answer comes back as an artifact with ' +
        'x402.payment.receipts. Same prices and ledger as HTTP.',
      price: 'free',
      // Every A2A request takes a token from its client's bucket, as a scanner's HTTP call does (a skill's
      // own HTTP call takes one more, on the same client's address).
      rateLimit: 'scanner',
      body: JsonRpcMessage('A JSON-RPC 2.0 request (A2A)'),
      response: JsonRpcMessage('A JSON-RPC 2.0 response (A2A)'),
      tags: ['a2a'],
    },
    get: {
      method: 'GET',
      path: A2A_PATH,
      summary: 'A2A server: POST only',
      description:
        'Answers 405: the A2A JSON-RPC binding takes POSTed JSON-RPC requests; an A2A client starts from the agent card, ' +
        '/.well-known/agent-card.json.',
      price: 'free',
      response: JsonRpcMessage('A JSON-RPC 2.0 error: method not allowed'),
      tags: ['a2a'],
    },
  },
})
