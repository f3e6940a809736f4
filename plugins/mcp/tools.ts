/**
 * The MCP tools, generated from the plugin manifests: one tool per route of a plugin that declares a
 * skill, its input and output schemas the route's own, its description what the manifest says (when
 * to call it, what it costs). A tool call runs as the route's HTTP call through the service's front
 * door — same validation, rate limit, price, ledger and settle-only-on-success — and its answer is
 * mapped to a tool result by the x402 MCP transport (specs/transports-v2/mcp.md of coinbase/x402):
 * a payment requirement is an `isError` result carrying the `PaymentRequired` in `structuredContent`
 * and, wrapped as `x402/error`, in `content[0].text`; the payment comes in `_meta["x402/payment"]`;
 * the receipt goes back in `_meta["x402/payment-response"]`, the answer's attestation in
 * `_meta["solsentry/attestation"]` (signed over `content[0].text`'s bytes). A scanner's answer has its
 * words in `content[1]` (text.ts): the deciding findings, the members not measured, the scope.
 */
import { type TSchema, Type } from '@sinclair/typebox'
import { ERROR_CODES } from '../../src/kernel/errors.ts'
import { offerings } from '../../src/kernel/catalogue.ts'
import { priceInWords, type RegisteredRoute, type Registry } from '../../src/kernel/manifest.ts'
import { ErrorBodySchema } from '../../src/kernel/schemas.ts'
import { PaymentRequiredSchema } from '../../src/payments/schemas.ts'
import { answerText } from './text.ts'

/** The `_meta` keys of the x402 MCP transport. */
export const PAYMENT_META = 'x402/payment'
export const RECEIPT_META = 'x402/payment-response'
/** The `_meta` key of a paid answer's attestation (docs/attestations.md): over `content[0].text`'s bytes. */
export const ATTESTATION_META = 'solsentry/attestation'
/** The tool's `_meta` key naming the HTTP route it runs as. */
export const ROUTE_META = 'solsentry/route'

/** An MCP tool as `tools/list` describes it. */
export interface Tool {
  name: string
  title: string
  description: string
  inputSchema: Record<string, unknown>
  outputSchema: Record<string, unknown>
  annotations: { readOnlyHint: boolean; openWorldHint: true }
  /** The HTTP route the tool runs as (`solsentry/route`), so a client may call it over HTTP instead. */
  _meta: { [ROUTE_META]: string }
  /** Not on the wire: the route the tool calls. */
  route: RegisteredRoute
  /** Not on the wire: earlier names tools/call still answers (deprecated; docs/mcp.md). */
  aliases: string[]
}

/** What a tool answers, as `tools/call` returns it. */
export interface ToolResult {
  [key: string]: unknown
  content: { type: 'text'; text: string }[]
  structuredContent?: Record<string, unknown>
  isError?: boolean
  _meta?: Record<string, unknown>
}

const ToolError = ErrorBodySchema(ERROR_CODES)

/**
 * The MCP tools: one per route offered to agents (src/kernel/catalogue.ts: every priced route and every
 * route of a skill), named `sol_<name>` by the catalogue's one rule.
 */
export function toolsOf(registry: Registry, rails: string): Tool[] {
  return offerings(registry).map(({ route, tool: name, aliases }) => ({
    name,
    title: route.summary,
    description: describe(route, rails),
    inputSchema: plain(route.body ?? route.params ?? Type.Object({}, { additionalProperties: false })),
    outputSchema: {
      type: 'object',
      anyOf: [route.response, ...(route.price === 'free' ? [] : [PaymentRequiredSchema]), ToolError].map(plain),
    },
    annotations: { readOnlyHint: route.method === 'GET' || route.plugin !== 'trade', openWorldHint: true },
    _meta: { [ROUTE_META]: route.key },
    route,
    aliases,
  }))
}

/** docs/mcp.md's table of tools, from the mounted routes. */
export function toolTable(registry: Registry): string {
  // The table shows names and prices: the descriptions' rails do not matter to it.
  const rows = toolsOf(registry, '').map(
    ({ name, route, aliases }) =>
      `| \`${name}\` | \`${route.key}\` | ${priceInWords(route)} | ${aliases.map((alias) => `\`${alias}\``).join(', ') || '—'} |`,
  )
  return ['| Tool | Route | Price | Deprecated alias |', '|---|---|---|---|', ...rows].join('\n')
}

/** The tool `tools/call` names: by its name, or by a deprecated alias. */
export function findTool(tools: readonly Tool[], name: string): Tool | undefined {
  return tools.find((tool) => tool.name === name) ?? tools.find((tool) => tool.aliases.includes(name))
}

/**
 * What an agent reads to decide: the summary, when to call it, the price and how payment works (on
 * `rails`, the configured payment rails in words).
 */
function describe(route: RegisteredRoute, rails: string): string {
  const parts = [`${route.summary}.`]
  if (route.callOrder) parts.push(`Call it ${route.callOrder.when}.`)
  parts.push(route.description)
  if (route.price === 'free') parts.push('Free.')
  else
    parts.push(
      `Costs ${priceInWords(route)}, in USDC (x402${rails ? `, ${rails}` : ''}): called without payment it answers the x402 PaymentRequired; ` +
        `repeat the call with the signed payment in _meta["${PAYMENT_META}"]. A call that fails is not charged.`,
    )
  return parts.join(' ')
}

/** A TypeBox schema as plain JSON Schema (its symbols dropped). */
function plain(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>
}

/** The HTTP request a tool call makes: the route's path (parameters filled in), its body, the payment. */
export function toolRequest(
  tool: Tool,
  args: Record<string, unknown>,
  origin: string,
  payment: unknown,
  headers: Record<string, string>,
): Request {
  const { route } = tool
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(args[name] ?? '')))
  const init: RequestInit & { headers: Record<string, string> } = { method: route.method, headers: { ...headers } }
  if (route.method === 'POST') {
    init.headers['content-type'] = 'application/json'
    init.body = JSON.stringify(args)
  }
  if (payment !== undefined) init.headers['payment-signature'] = Buffer.from(JSON.stringify(payment)).toString('base64')
  return new Request(`${origin}${path}`, init)
}

/**
 * What a paid tool called without payment says to do: over MCP the payment travels in the call's `_meta`
 * (the HTTP challenge's words name the X-PAYMENT header, which an MCP client never sets).
 */
export const MCP_PAYMENT_REQUIRED =
  `payment required: sign a payment for one of the offers (accepts[]) and repeat this tool call with it in _meta["${PAYMENT_META}"]` +
  '; an MCP host that cannot sign can run the local bridge (npx solsentry mcp), which pays from your own wallet'

/**
 * The tool result of the route's HTTP answer. `paid`: whether the call carried a payment (when it did
 * not, the challenge says how to pay over MCP; when it did, it keeps the reason its payment was refused).
 */
export async function toolResult(tool: Tool, response: Response, paid = false): Promise<ToolResult> {
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = { error: true, code: 'INTERNAL', message: text }
  }
  const challenge = response.headers.get('payment-required')
  if (response.status === 402 && challenge) {
    const required = decode(challenge) as Record<string, unknown>
    // The resource is the tool, as the transport names it (the HTTP route stays the ledger's resource).
    required.resource = { ...(required.resource as object), url: `mcp://tool/${tool.name}` }
    if (!paid) required.error = MCP_PAYMENT_REQUIRED
    const message = typeof required.error === 'string' ? required.error : MCP_PAYMENT_REQUIRED
    return {
      isError: true,
      structuredContent: required,
      content: [{ type: 'text', text: JSON.stringify({ 'x402/error': { code: 402, message, data: required } }) }],
    }
  }
  const structured = isObject(body) ? body : { value: body }
  const receipt = response.headers.get('payment-response')
  const attestation = response.headers.get('x-attestation')
  const meta = {
    ...(receipt ? { [RECEIPT_META]: decode(receipt) } : {}),
    ...(attestation ? { [ATTESTATION_META]: attestation } : {}),
  }
  // The answer's words come second: the attestation is over the first text's bytes, the JSON.
  const words = response.ok ? answerText(tool.route.key, structured) : undefined
  return {
    ...(response.ok ? {} : { isError: true }),
    structuredContent: structured,
    content: [{ type: 'text', text }, ...(words ? [{ type: 'text' as const, text: words }] : [])],
    ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}),
  }
}

function decode(header: string): unknown {
  return JSON.parse(Buffer.from(header, 'base64').toString('utf8'))
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
