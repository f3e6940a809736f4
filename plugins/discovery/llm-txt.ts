import { offerings } from '../../src/kernel/catalogue.ts'
import { callOrderLines, priceInWords, type Registry } from '../../src/kernel/manifest.ts'
import { SERVICE_VERSION } from '../../src/kernel/version.ts'
import { A2A_PAYMENT, HTTP_PAYMENT, MCP_PAYMENT, READING, TRADES } from './guide.ts'
import { COMMON_ERRORS, commonErrorsLine, errorLine, fieldLines, routeDocPath } from './route-docs.ts'

/**
 * Renders the plain-text catalogue served at /llm.txt from the registered manifests. `rails`: the
 * configured payment rails in words.
 */
export function renderLlmTxt(registry: Registry, baseUrl: string, rails: string): string {
  const routes = registry.routes()
  const order = callOrderLines(registry)
  const lines = [
    `# solsentry ${SERVICE_VERSION}`,
    '',
    '> Pay-per-call answers about Solana tokens (SPL mints): is it safe, what is its market doing, and',
    `> bring-your-own-wallet swaps. Pay a few cents per call in USDC over x402 (HTTP 402)${rails ? ` on ${rails}` : ''}:`,
    '> no account, no API key.',
    '',
    `Base URL: ${baseUrl}`,
    'Requests and answers are JSON (Content-Type: application/json); every JSON answer carries schema_version "2.0".',
    ...HTTP_PAYMENT,
    ...MCP_PAYMENT,
    ...A2A_PAYMENT,
    ...TRADES,
    ...READING,
    '',
  ]
  if (order.length > 0) {
    lines.push('## Suggested call order', '')
    lines.push(...order)
    lines.push('Each scanner owns its own slice of signals; they do not overlap.', '')
  }
  lines.push(
    '## Endpoints',
    '',
    'Each endpoint below with its price, its input, the top-level members of its answer and its errors; its page',
    '(every field in full, nested ones included) is one link away.',
    commonErrorsLine(),
    '',
  )
  const common = new Set(COMMON_ERRORS.flatMap((group) => group.codes))
  const offered = new Map(offerings(registry).map((offering) => [offering.route.key, offering]))
  for (const route of routes) {
    const offering = offered.get(route.key)
    // A route offered to agents is described in full; the service's own plumbing (discovery, MCP, the web
    // page, metrics) by its summary, its page saying the rest.
    const tool = offering ? `; MCP tool ${offering.tool}` : ''
    lines.push(
      `### ${route.key} (${priceInWords(route)}${tool})`,
      '',
      offering ? `${route.summary}. ${route.description}` : `${route.summary}.`,
    )
    if (route.params) lines.push('Path parameters:', ...fieldLines(route.params, 0, 0))
    if (route.body) lines.push('Input (JSON body):', ...fieldLines(route.body, 0, 0))
    const produces = route.produces ?? 'application/json'
    const members = Object.keys((route.response as { properties?: object }).properties ?? {})
    lines.push(
      `Output (200, ${produces})${produces === 'application/json' && members.length > 0 ? `: ${members.join(', ')}` : ''}`,
      errorLine(route, common),
      `Details: ${baseUrl}${routeDocPath(route)}`,
      '',
    )
  }
  return lines.join('\n')
}
