import type { TSchema } from '@sinclair/typebox'
import { ERROR_CATALOGUE } from '../../src/kernel/errors.ts'
import { callOrderLines, routeErrors, type Registry } from '../../src/kernel/manifest.ts'
import { SERVICE_VERSION } from '../../src/kernel/version.ts'
import { HTTP_PAYMENT, READING, TRADES } from './guide.ts'

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
    ...TRADES,
    ...READING,
    '',
  ]
  if (order.length > 0) {
    lines.push('## Suggested call order', '')
    lines.push(...order)
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
