import { offerings } from '../../src/kernel/catalogue.ts'
import { callOrderLines, priceInWords, type Registry } from '../../src/kernel/manifest.ts'
import { A2A_PAYMENT, HTTP_PAYMENT, MCP_PAYMENT, READING, TRADES } from './guide.ts'
import { routeDocPath } from './route-docs.ts'

/** The base URL the skill file in the repository names (the service serves it with its own origin). */
export const SKILL_FILE_ORIGIN = 'http://127.0.0.1:8402'

/**
 * The agent skill (`skills/solsentry/SKILL.md`, served at `/skill.md`): a YAML front matter with the
 * skill's name and when to use it, then how to call the service, generated from the mounted manifests.
 */
export function renderSkill(registry: Registry, origin: string): string {
  const lines = [
    '---',
    'name: solsentry',
    'description: >-',
    '  Check whether a Solana token is safe before buying it, read its market (price, volume, buy/sell',
    '  pressure, momentum), investigate it adversarially (wallet clusters, developer history, wash trading),',
    '  and swap it from your own wallet, through the solsentry pay-per-call API (USDC over x402). Use when a',
    '  user asks about a Solana SPL token by its mint address, or wants to buy or sell one.',
    '---',
    '',
    '# solsentry',
    '',
    `Base URL: ${origin} (the service's own /skill.md names its public URL).`,
    'Every scanner takes one Solana SPL mint address as `{"token_address": "<mint>"}`: a ticker ("BONK") or an',
    'EVM address is refused with INVALID_ADDRESS, and nothing is charged. Ask the user for the mint when you',
    'only have a name.',
    '',
    '## When to call what',
    '',
    ...callOrderLines(registry),
    '',
    'Each scanner owns its own slice of signals: call the one whose question you have.',
    '',
    '## Routes',
    '',
  ]
  for (const { route, tool } of offerings(registry)) {
    lines.push(
      `### ${route.key} — ${priceInWords(route)}`,
      '',
      `${route.summary}. ${route.description}`,
      '',
      `MCP tool \`${tool}\`. Fields in full: ${origin}${routeDocPath(route)}`,
      '',
    )
  }
  lines.push(
    `Every route above is also a tool of the MCP server at ${origin}/mcp and a skill of the A2A server at ${origin}/a2a, named as above.`,
    '',
  )
  lines.push(
    '## Paying',
    '',
    ...HTTP_PAYMENT,
    '',
    ...MCP_PAYMENT,
    '',
    ...A2A_PAYMENT,
    '',
    'An official x402 client does all of this for you (`@x402/fetch` wraps `fetch`). Spend only what the',
    "route's published price says: never sign an offer above it.",
    '',
    ...TRADES,
    '',
    '## Reading the answers',
    '',
    ...READING,
    'Grades run A (no structural risk found) to F (a hard fail); the `factors` (quick scan, market intel) and',
    '`findings` (deep dive) say what decided it, each with its evidence. The deep dive ends with a',
    'recommendation: AVOID, WATCH, DYOR, or CONSIDER.',
    "The field-by-field shapes are on each route's page (linked above), and all of them in /openapi.json.",
    '',
  )
  return lines.join('\n')
}
