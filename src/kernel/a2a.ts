/**
 * What the service says about its A2A server in one place: the agent card (plugins/discovery/agent-card.ts)
 * declares it and the A2A server (plugins/a2a) enforces it, so the two cannot disagree.
 */

/** The A2A protocol version of the agent card and of the JSON-RPC binding (`@a2a-js/sdk` 1.x). */
export const A2A_PROTOCOL_VERSION = '1.0'
/** The earlier version the same endpoint also speaks (`message/send`, `tasks/get`, `tasks/cancel`). */
export const A2A_LEGACY_VERSION = '0.3'
/** Where the A2A JSON-RPC binding is served. */
export const A2A_PATH = '/a2a'

/**
 * The A2A x402 payments extension (google-agentic-commerce/a2a-x402, spec/v0.2/spec.md §2): its URI, as
 * the card declares it and a client activates it (the `A2A-Extensions` / `X-A2A-Extensions` header).
 */
export const X402_EXTENSION_URI = 'https://github.com/google-agentic-commerce/a2a-x402/blob/main/spec/v0.2'

/** The card's declaration of the extension (spec §3): required, since every paid skill needs it. */
export const X402_EXTENSION = {
  uri: X402_EXTENSION_URI,
  description:
    'Payments using the x402 protocol for on-chain settlement (USDC), standalone flow: a paid skill answers input-required with ' +
    'x402.payment.required in the status message metadata; the signed payload comes back in x402.payment.payload.',
  required: true,
  params: {},
} as const

/** What the service's A2A server can do, as both cards say it: no streaming, no push, the x402 extension. */
export const A2A_CAPABILITIES = {
  streaming: false,
  pushNotifications: false,
  extensions: [X402_EXTENSION],
  extendedAgentCard: false,
}

/** The A2A interfaces of the service at `origin`, JSON-RPC first (1.0, then 0.3 on the same endpoint). */
export function a2aInterfaces(origin: string) {
  return [A2A_PROTOCOL_VERSION, A2A_LEGACY_VERSION].map((protocolVersion) => ({
    url: `${origin}${A2A_PATH}`,
    protocolBinding: 'JSONRPC',
    protocolVersion,
    tenant: '',
  }))
}
