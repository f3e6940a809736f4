import { offerings } from '../../src/kernel/catalogue.ts'
import { priceInWords, type Registry } from '../../src/kernel/manifest.ts'
import { serviceDescription } from './agent-card.ts'
import { routeDocPath } from './route-docs.ts'

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
    link(
      'Service catalogue',
      '/llm.txt',
      'every endpoint with its price, input, answer members and errors, in plain text',
    ),
    link(
      'OpenAPI 3.1 description',
      '/openapi.json',
      'the whole API in one document (large): schemas, errors, `x-payment-info`',
    ),
    link('Agent skill', '/skill.md', 'when to call which route, how payment works, how to read the answers'),
    link(
      'MCP server',
      '/mcp',
      'streamable HTTP; one tool per route below, paid with x402 in the call\'s _meta["x402/payment"]',
    ),
    link(
      'A2A server',
      '/a2a',
      'JSON-RPC (A2A 1.0 and 0.3); one skill per route below, paid by the A2A x402 extension (docs: a2a.md)',
    ),
    '',
    '## Endpoints',
    '',
  ]
  for (const { route, tool } of offerings(registry)) {
    const when = route.callOrder ? ` Call it ${route.callOrder.when}.` : ''
    lines.push(
      `- [${route.key}](${origin}${routeDocPath(route)}): ${route.summary} — ${priceInWords(route)}. MCP tool \`${tool}\`.${when}`,
    )
  }
  lines.push(
    '',
    '## Optional',
    '',
    link('x402 manifest', '/.well-known/x402', "the paid resources, their offers, and a link to each one's schemas"),
    link('A2A agent card', '/.well-known/agent-card.json', 'skills and interfaces in the A2A schema'),
    link('Agent card', '/.well-known/agent.json', 'skills, as the service contract defines the card'),
    link('API reference', '/docs', 'the OpenAPI description rendered for people'),
    link('Health', '/health', 'liveness and the state of each dependency'),
    '',
  )
  return lines.join('\n')
}
