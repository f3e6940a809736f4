import { priceInWords, type Registry } from '../../src/kernel/manifest.ts'
import { serviceDescription } from './agent-card.ts'

/**
 * `/llms.txt` in the llmstxt.org format — an H1, a blockquote summary, then H2 sections of links — from
 * the mounted manifests: where an agent finds the service's descriptions, and each route with its price
 * and when to call it. `rails`: the configured payment rails in words.
 */
export function renderLlmsTxt(registry: Registry, origin: string, rails: string): string {
  const link = (title: string, path: string, note: string) => `- [${title}](${origin}${path}): ${note}`
  const lines = [
    '# solsentry',
    '',
    `> ${serviceDescription(rails)} No account, no API key.`,
    '',
    'Scanners take one Solana SPL mint address (`{"token_address": "<mint>"}`), never a ticker or an EVM',
    'address. Paid routes answer HTTP 402 with an x402 challenge; pay it and repeat the call. Calls that fail',
    'are not charged.',
    '',
    '## Docs',
    '',
    link('Service catalogue', '/llm.txt', 'every endpoint with its price, input and output fields, in plain text'),
    link('OpenAPI 3.1 description', '/openapi.json', 'routes, schemas, errors, and `x-payment-info` per paid route'),
    link('Agent skill', '/skill.md', 'when to call which route, how payment works, how to read the answers'),
    link('MCP server', '/mcp', 'streamable HTTP; one tool per route below, paid with x402 over MCP'),
    '',
    '## Endpoints',
    '',
  ]
  for (const route of registry
    .routes()
    .filter((candidate) => candidate.skill !== undefined || candidate.price !== 'free')) {
    const when = route.callOrder ? ` Call it ${route.callOrder.when}.` : ''
    lines.push(`- [${route.key}](${origin}/openapi.json): ${route.summary} (${priceInWords(route)}).${when}`)
  }
  lines.push(
    '',
    '## Optional',
    '',
    link('x402 manifest', '/.well-known/x402', 'the paid resources'),
    link('A2A agent card', '/.well-known/agent-card.json', 'skills and interfaces in the A2A schema'),
    link('Agent card', '/.well-known/agent.json', 'skills, as the service contract defines the card'),
    link('API reference', '/docs', 'the OpenAPI description rendered for people'),
    link('Health', '/health', 'liveness and the state of each dependency'),
    '',
  )
  return lines.join('\n')
}
