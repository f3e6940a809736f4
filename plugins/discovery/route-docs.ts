/**
 * One page per route path, for agents and people: `/docs/routes/<name>.md` (what the route does, its
 * price and MCP tool, its input and output fields in full, its errors) and `/docs/schemas/<name>.json`
 * (its schemas and its x402 Bazaar declaration in full, with the payment offers). The summaries —
 * /llm.txt, /llms.txt, /.well-known/x402 — stay small and link here, one link away.
 */
import type { TSchema } from '@sinclair/typebox'
import { offerings, type Offering, routeDoc } from '../../src/kernel/catalogue.ts'
import { ERROR_CATALOGUE, type ErrorCode } from '../../src/kernel/errors.ts'
import {
  type Price,
  priceInWords,
  type RegisteredRoute,
  type Registry,
  routeErrors,
} from '../../src/kernel/manifest.ts'
import { routeDiscovery } from '../../src/payments/discovery.ts'

/** The page of a route's path: `/docs/routes/<name>.md`. */
export const routeDocPath = (route: Pick<RegisteredRoute, 'path'>) => `/docs/routes/${routeDoc(route.path)}.md`
/** Its schemas: `/docs/schemas/<name>.json`. */
export const routeSchemaPath = (route: Pick<RegisteredRoute, 'path'>) => `/docs/schemas/${routeDoc(route.path)}.json`

/** The routes a page documents (every method of one path), or none for an unknown name. */
export function routesOfDoc(registry: Registry, name: string): RegisteredRoute[] {
  return registry.routes().filter((route) => routeDoc(route.path) === name)
}

/** The page of `routes` (one path's methods) in markdown. */
export function renderRouteDoc(registry: Registry, routes: RegisteredRoute[], origin: string): string {
  const offered = new Map(offerings(registry).map((offering) => [offering.route.key, offering]))
  const lines: string[] = []
  for (const route of routes) {
    const offering = offered.get(route.key)
    lines.push(`# ${route.key} — ${priceInWords(route)}`, '', `${route.summary}. ${route.description}`, '')
    if (route.callOrder) lines.push(`Call it ${route.callOrder.when}.`, '')
    if (offering) lines.push(...offeringLines(offering), '')
    if (route.params) lines.push('## Path parameters', '', ...fieldLines(route.params, 0, 8), '')
    if (route.body) lines.push('## Input (JSON body)', '', ...fieldLines(route.body, 0, 8), '')
    const produces = route.produces ?? 'application/json'
    lines.push(`## Output (200, ${produces})`, '')
    lines.push(...(produces === 'application/json' ? fieldLines(route.response, 0, 8) : ['text']), '')
    lines.push('## Errors', '', errorLine(route), '')
    if (route.price !== 'free')
      lines.push(
        '## Schemas',
        '',
        `The JSON schemas of the input and output and the x402 Bazaar declaration: ${origin}${routeSchemaPath(route)}`,
        '',
      )
  }
  lines.push(`Every route: ${origin}/llm.txt · OpenAPI 3.1: ${origin}/openapi.json`, '')
  return lines.join('\n')
}

function offeringLines({ tool, skill }: Offering): string[] {
  return [`MCP tool: \`${tool}\` (POST /mcp) · agent skill: \`${skill}\``]
}

/** `Errors: 400 INVALID_ADDRESS, …`: the errors the route can answer, by status, but those `common` names. */
export function errorLine(route: RegisteredRoute, common: ReadonlySet<ErrorCode> = new Set()): string {
  const codes = routeErrors(route).filter((code) => !common.has(code))
  return `Errors: ${codes.map((code) => `${ERROR_CATALOGUE[code].status} ${code}`).join(', ') || 'none of its own'}`
}

/**
 * The errors many routes share, which /llm.txt states once: any route's, a JSON-body route's, a paid
 * route's (src/kernel/manifest.ts routeErrors derives them from a route's shape).
 */
export const COMMON_ERRORS: readonly { who: string; codes: readonly ErrorCode[] }[] = [
  { who: 'any route', codes: ['INTERNAL'] },
  {
    who: 'a route with a JSON body',
    codes: ['INVALID_JSON', 'INVALID_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'],
  },
  {
    who: 'a paid route',
    codes: ['PAYMENT_REQUIRED', 'PAYMENT_ID_CONFLICT', 'FACILITATOR_UNAVAILABLE', 'LEDGER_UNAVAILABLE'],
  },
]

/** The errors line of COMMON_ERRORS, in words. */
export function commonErrorsLine(): string {
  const groups = COMMON_ERRORS.map(
    ({ who, codes }) => `${who} ${codes.map((code) => `${ERROR_CATALOGUE[code].status} ${code}`).join(', ')}`,
  )
  return `Errors every endpoint below may answer, not repeated under it: ${groups.join('; ')}.`
}

/**
 * A route's schemas document: per method its price, payment offers (x402 `accepts` entries: network,
 * asset, payee, atomic amount), MCP tool, and the Bazaar discovery declaration with the input and output
 * schemas in full (the 402 itself carries the output's example only).
 */
export function routeSchemas(
  registry: Registry,
  routes: RegisteredRoute[],
  origin: string,
  offersOf: (price: Exclude<Price, 'free'>) => unknown[],
) {
  const offered = new Map(offerings(registry).map((offering) => [offering.route.key, offering]))
  return {
    path: routes[0]!.path,
    routes: routes.map((route) => {
      const offering = offered.get(route.key)
      return {
        resource: route.key,
        url: `${origin}${route.path}`,
        description: route.summary,
        price: priceInWords(route),
        ...(route.price === 'free' ? {} : { price_usd: route.price.usd, offers: offersOf(route.price) }),
        ...(offering ? { mcp_tool: offering.tool, skill: offering.skill } : {}),
        docs: `${origin}${routeDocPath(route)}`,
        ...(route.params ? { params_schema: plain(route.params) } : {}),
        ...(route.body ? { input_schema: plain(route.body) } : {}),
        output_schema: plain(route.response),
        ...(route.price === 'free' ? {} : routeDiscovery(route, true)),
      }
    }),
  }
}

const plain = (schema: TSchema) => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>

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

/** One line per member of an object schema, nested members (down to `maxDepth`) indented below their parent. */
export function fieldLines(schema: JsonSchema, depth: number, maxDepth: number): string[] {
  const lines: string[] = []
  const required = new Set(schema.required ?? [])
  for (const [name, member] of Object.entries(schema.properties ?? {})) {
    const flag = required.has(name) ? '' : ' (optional)'
    const description = member.description ? ` — ${member.description.split('\n')[0]}` : ''
    lines.push(`${'  '.repeat(depth)}- ${name}: ${typeName(member)}${flag}${description}`)
    const inner = objectPart(member)
    if (inner?.properties && depth < maxDepth) lines.push(...fieldLines(inner, depth + 1, maxDepth))
  }
  return lines
}

function objectPart(schema: JsonSchema): JsonSchema | undefined {
  if (schema.properties) return schema
  if (schema.items?.properties) return schema.items
  return schema.anyOf?.map(objectPart).find(Boolean)
}

/** A member's type in words: `string`, `"A" | "B"`, `array of object`, `map of string to number`. */
export function typeName(schema: JsonSchema): string {
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
