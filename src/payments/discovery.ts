/**
 * What x402 directories read from a 402 (the Bazaar discovery extension, x402 v2 spec
 * extensions/bazaar.md): the resource's service name, description, media type and tags, and the
 * `bazaar` extension — how to call the route (method, JSON body: an example and its schema) and what it
 * answers (an example and its schema) — from the route's manifest entry, built once per route with the
 * official `@x402/extensions` helper.
 */
import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { declareDiscoveryExtension } from '@x402/extensions/bazaar'
import type { RouteSpec } from '../kernel/manifest.ts'

/** The service's name as directories show it (printable ASCII, at most 32 characters). */
export const SERVICE_NAME = 'solsentry'
/** Tags: at most 5, each at most 32 characters (the spec's limits). */
const BASE_TAGS = ['solana', 'token-risk', 'x402']

/** A sample mint for examples: BONK (a real, liquid SPL token). */
const SAMPLE_MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263'

/** An example value of a schema: its examples or default, else the simplest value its type allows. */
function exampleOf(schema: TSchema): unknown {
  const s = schema as TSchema & Record<string, unknown>
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0]
  if (s.default !== undefined) return s.default
  if (s.const !== undefined) return s.const
  if (Array.isArray(s.anyOf)) return exampleOf(s.anyOf[0] as TSchema)
  switch (s.type) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, TSchema>
      const required = new Set((s.required as string[] | undefined) ?? [])
      return Object.fromEntries(
        Object.entries(properties)
          .filter(([name]) => required.has(name))
          .map(([name, property]) => [name, exampleOf(property)]),
      )
    }
    case 'string':
      return typeof s.pattern === 'string' && s.pattern.includes('1-9A-HJ-NP-Za-km-z') ? SAMPLE_MINT : 'string'
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1
    case 'boolean':
      return false
    case 'array':
      return []
    default:
      return null
  }
}

/** A schema as plain JSON Schema (TypeBox's symbols and the service's `hint`s dropped). */
const plain = (schema: TSchema) => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>

export interface RouteDiscovery {
  serviceName: string
  tags: string[]
  extensions: Record<string, unknown>
}

/**
 * What the route declares to the official helper (`declareDiscoveryExtension`): how to call it (a JSON
 * body: an example and its schema) and what it answers (an example, and with `full` its schema). The
 * bench's `@x402/hono` target declares the same (bench/targets/hono-x402.ts).
 */
export function discoveryDeclaration(spec: RouteSpec, full = false) {
  const input = spec.body ? (exampleOf(spec.body) as Record<string, unknown>) : {}
  let output: { example: unknown; schema?: Record<string, unknown> } | undefined
  try {
    const example = Value.Create(spec.response)
    output = full ? { example, schema: plain(spec.response) } : { example }
  } catch {
    output = undefined
  }
  return {
    bodyType: 'json' as const,
    input,
    ...(spec.body ? { inputSchema: plain(spec.body) } : {}),
    ...(output ? { output } : {}),
  }
}

/** The route's tags as directories show them: the service's, then its own (at most 5, no repeats). */
export function discoveryTags(spec: RouteSpec): string[] {
  return [...BASE_TAGS, ...(spec.tags ?? [])].filter((tag, index, all) => all.indexOf(tag) === index).slice(0, 5)
}

/**
 * The route's discovery members: resource metadata and the `bazaar` extension. In a 402 (`full` false)
 * the output is its example only: payment clients echo a challenge's extensions back in the payment
 * header, and the response schemas (4–13 KB) would push that header past common 16 KB header limits.
 * `/.well-known/x402` and OpenAPI carry the full output schemas (`full` true).
 */
export function routeDiscovery(spec: RouteSpec, full = false): RouteDiscovery {
  const extension = declareDiscoveryExtension(discoveryDeclaration(spec, full)) as Record<
    string,
    { info: { input: Record<string, unknown> }; schema: Record<string, unknown> }
  >
  // The helper leaves the method to a resource server's enrichment (we build our own 402): set it here.
  const bazaar = extension.bazaar!
  bazaar.info.input.method = spec.method
  const inputSchema = (bazaar.schema.properties as Record<string, { properties?: Record<string, unknown> }>)?.input
  if (inputSchema?.properties) inputSchema.properties.method = { type: 'string', enum: [spec.method] }
  return { serviceName: SERVICE_NAME, tags: discoveryTags(spec), extensions: extension }
}
