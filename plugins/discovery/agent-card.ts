import type { AgentCard as A2aAgentCard } from '@a2a-js/sdk'
import {
  A2A_LEGACY_VERSION,
  A2A_PATH,
  A2A_PROTOCOL_VERSION,
  a2aInterfaces,
  A2A_CAPABILITIES,
} from '../../src/kernel/a2a.ts'
import { cardSkills, offerings } from '../../src/kernel/catalogue.ts'
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

/**
 * The A2A agent card (`/.well-known/agent-card.json`), typed by the official `@a2a-js/sdk`. Its first
 * interfaces are the A2A JSON-RPC binding at `/a2a` (protocol 1.0, and 0.3 on the same endpoint; no
 * streaming, no push notifications: plugins/a2a), then the service's other doors named as what they are —
 * its MCP server and its HTTP API described by OpenAPI. It declares the A2A x402 extension as required
 * (payment is per call, no authentication). Skills are the manifests'; each takes its route's JSON body
 * as a data part (docs/a2a.md).
 */
export function a2aCard(registry: Registry, origin: string, rails: string): A2aAgentCard & LegacyCardFields {
  const json = ['application/json']
  return {
    name: 'solsentry',
    description: serviceDescription(rails),
    // For A2A 0.3 clients, as the SDK's own card handler serves them (toCompatAgentCard, embedV1Interfaces):
    // 1.0 clients read supportedInterfaces and ignore these.
    url: `${origin}${A2A_PATH}`,
    preferredTransport: 'JSONRPC',
    protocolVersion: A2A_LEGACY_VERSION,
    supportedInterfaces: [
      ...a2aInterfaces(origin),
      { url: `${origin}/mcp`, protocolBinding: 'MCP', protocolVersion: A2A_PROTOCOL_VERSION, tenant: '' },
      { url: `${origin}/openapi.json`, protocolBinding: 'OPENAPI', protocolVersion: A2A_PROTOCOL_VERSION, tenant: '' },
    ],
    provider: { organization: 'solsentry', url: origin },
    version: SERVICE_VERSION,
    documentationUrl: `${origin}/llms.txt`,
    capabilities: A2A_CAPABILITIES,
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: json,
    defaultOutputModes: json,
    skills: cardSkills(registry).map((skill) => ({
      ...skill,
      description: `${skill.description} ${overA2a(registry, skill.id)}`,
      inputModes: json,
      outputModes: json,
      securityRequirements: [],
    })),
    signatures: [],
  }
}

/** The members an A2A 0.3 card has and a 1.0 card lacks: where and how a 0.3 client talks to the agent. */
interface LegacyCardFields {
  url: string
  preferredTransport: 'JSONRPC'
  protocolVersion: string
}

/**
 * How a card skill is called over A2A: the name each of its routes is called by in
 * `metadata["solsentry.skill"]` (the route's MCP tool name), its JSON body as the message's data part.
 */
function overA2a(registry: Registry, skill: string): string {
  const names = offerings(registry)
    .filter((offering) => offering.skill === skill)
    .map(({ tool, route }) => {
      const input = route.body
        ? ': its JSON body as a data part'
        : route.params
          ? ': its path parameters as a data part'
          : ''
      return `"${tool}" (${route.key}${input})`
    })
  return `Over A2A (/a2a): message metadata["solsentry.skill"] = ${names.join(' or ')}.`
}
