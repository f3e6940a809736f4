import type { AgentCard as A2aAgentCard } from '@a2a-js/sdk'
import { cardSkills } from '../../src/kernel/catalogue.ts'
import type { Registry } from '../../src/kernel/manifest.ts'
import { SERVICE_VERSION } from '../../src/kernel/version.ts'

/**
 * What the service is, in one paragraph: the agent cards and /llms.txt say it. `rails`: the payment rails
 * the operator configured, in words (railsInWords: "Base or Solana", "Solana", "Base").
 */
export function serviceDescription(rails: string): string {
  return (
    'Tells AI agents and traders whether a Solana token is safe, what its market is doing, and executes ' +
    `swaps for callers who keep their own keys. Pay per call in USDC over x402${rails ? ` on ${rails}` : ''}.`
  )
}

/** The A2A protocol version whose AgentCard this is (the one `@a2a-js/sdk` 1.x types). */
export const A2A_PROTOCOL_VERSION = '1.0'

/**
 * The A2A agent card (`/.well-known/agent-card.json`), typed by the official `@a2a-js/sdk`. The service
 * speaks no A2A message binding (JSONRPC, GRPC, HTTP+JSON): its interfaces are named as what they are —
 * its MCP server and its HTTP API described by OpenAPI — so an A2A client is not sent to a message
 * endpoint that does not exist. Skills are the manifests'; no authentication (payment is per call).
 */
export function a2aCard(registry: Registry, origin: string, rails: string): A2aAgentCard {
  const json = ['application/json']
  return {
    name: 'solsentry',
    description: serviceDescription(rails),
    supportedInterfaces: [
      { url: `${origin}/mcp`, protocolBinding: 'MCP', protocolVersion: A2A_PROTOCOL_VERSION, tenant: '' },
      { url: `${origin}/openapi.json`, protocolBinding: 'OPENAPI', protocolVersion: A2A_PROTOCOL_VERSION, tenant: '' },
    ],
    provider: { organization: 'solsentry', url: origin },
    version: SERVICE_VERSION,
    documentationUrl: `${origin}/llms.txt`,
    capabilities: { streaming: false, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: json,
    defaultOutputModes: json,
    skills: cardSkills(registry).map((skill) => ({
      ...skill,
      inputModes: json,
      outputModes: json,
      securityRequirements: [],
    })),
    signatures: [],
  }
}
