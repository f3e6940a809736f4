import type { TSchema } from '@sinclair/typebox'
import { ERROR_CATALOGUE } from '../../src/core/errors.ts'
import { routeErrors, type Registry } from '../../src/core/manifest.ts'
import { SERVICE_VERSION } from '../../src/core/version.ts'

/** Spec §1 rule 5, keyed by route so only mounted routes are suggested. */
const CALL_ORDER: { route: string; when: string }[] = [
  { route: 'POST /scan/quick', when: 'before any swap or buy decision' },
  { route: 'POST /scan/deep', when: 'after a quick scan returned grade B or better, while sizing a position' },
  { route: 'POST /market/intel', when: 'for price, volume and momentum' },
  { route: 'POST /trade/quote', when: 'to get a risk-gated swap quote and an unsigned transaction' },
  {
    route: 'POST /trade/execute',
    when: 'with the transaction signed by your own wallet; the fee is charged only on confirmation',
  },
]

/** Renders the plain-text catalogue served at /llm.txt from the registered manifests. */
export function renderLlmTxt(registry: Registry, baseUrl: string): string {
  const routes = registry.routes()
  const mounted = new Set(routes.map((route) => route.key))
  const order = CALL_ORDER.filter((step) => mounted.has(step.route))
  const lines = [
    `# solsentry ${SERVICE_VERSION}`,
    '',
    '> Pay-per-call answers about Solana tokens (SPL mints): is it safe, what is its market doing, and',
    '> bring-your-own-wallet swaps. Pay a few cents per call in USDC over x402 (HTTP 402) on Base or',
    '> Solana: no account, no API key.',
    '',
    `Base URL: ${baseUrl}`,
    'Requests and answers are JSON (Content-Type: application/json); every JSON answer carries schema_version "2.0".',
    'Paid routes answer 402 with a challenge: the `payment-required` header (base64 JSON) and a JSON body with',
    '`accepts[]` (scheme, network, maxAmountRequired in USDC atomic units, asset, payTo). Sign a payment for one',
    'offer and repeat the identical request with it in the X-PAYMENT header; the receipt comes back in',
    'X-PAYMENT-RESPONSE. A call that fails is not charged, and a payment pays for one call only. If a paid call',
    'answers 402 saying its settlement is "not known yet", present the same payment again with the same request',
    'once the chain shows it: that call is owed, once (on any other request the payment is refused).',
    "Trades: a job_id belongs to the wallet that quoted it; each job's transaction is its own; the execute fee",
    'is charged once, on confirmation, and GET /trade/status/{job_id} reports it as it stands on chain.',
    'Errors are JSON: {"error": true, "code": "...", "message": "...", "request_id": "..."}.',
    'Every member keeps its documented type: a number the data could not measure is 0 (an enum takes its',
    'documented neutral value, a nullable member null) and is named in missing_fields; data_quality says how',
    'complete the answer is (FULL, PARTIAL, LIMITED). Never read a listed 0 as measured.',
    '',
  ]
  if (order.length > 0) {
    lines.push('## Suggested call order', '')
    for (const [index, step] of order.entries()) lines.push(`${index + 1}. ${step.route} ${step.when}.`)
    lines.push('Each scanner owns its own slice of signals; they do not overlap.', '')
  }
  lines.push('## Endpoints', '')
  for (const route of routes) {
    const price = route.price === 'free' ? 'free' : `${route.price.usd} USD`
    lines.push(`### ${route.key} (${[route.skill, price].filter(Boolean).join(', ')})`, '', route.description, '')
    if (route.params) lines.push('Path parameters:', ...fieldLines(route.params, 1), '')
    if (route.body) lines.push('Input (JSON body):', ...fieldLines(route.body, 1), '')
    const produces = route.produces ?? 'application/json'
    lines.push(`Output (200, ${produces}):`)
    lines.push(...(produces === 'application/json' ? fieldLines(route.response, 1) : ['  text']), '')
    const errors = routeErrors(route).map((code) => `${ERROR_CATALOGUE[code].status} ${code}`)
    lines.push(`Errors: ${errors.join(', ')}`, '')
  }
  return lines.join('\n')
}

type JsonSchema = TSchema & {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  anyOf?: JsonSchema[]
  const?: unknown
  enum?: unknown[]
  description?: string
  additionalProperties?: boolean | JsonSchema
  patternProperties?: Record<string, JsonSchema>
}

/** One line per member of an object schema, nested members indented below their parent. */
function fieldLines(schema: JsonSchema, depth: number): string[] {
  const lines: string[] = []
  const required = new Set(schema.required ?? [])
  for (const [name, member] of Object.entries(schema.properties ?? {})) {
    const flag = required.has(name) ? '' : ' (optional)'
    const description = member.description ? ` — ${member.description.split('\n')[0]}` : ''
    lines.push(`${'  '.repeat(depth)}- ${name}: ${typeName(member)}${flag}${description}`)
    const inner = objectPart(member)
    if (inner?.properties && depth < 3) lines.push(...fieldLines(inner, depth + 1))
  }
  return lines
}

function objectPart(schema: JsonSchema): JsonSchema | undefined {
  if (schema.properties) return schema
  if (schema.items?.properties) return schema.items
  return schema.anyOf?.map(objectPart).find(Boolean)
}

function typeName(schema: JsonSchema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ')
  if (schema.anyOf) return schema.anyOf.map(typeName).join(' | ')
  if (schema.patternProperties) {
    const [value] = Object.values(schema.patternProperties)
    return `map of string to ${value ? typeName(value) : 'any'}`
  }
  if (schema.type === 'array') return `array of ${schema.items ? typeName(schema.items) : 'any'}`
  if (Array.isArray(schema.type)) return schema.type.join(' | ')
  if (schema.type) return schema.type
  return 'any'
}
