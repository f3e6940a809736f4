/**
 * The service's errors in the CLI's words: a body member the service refused becomes the option the
 * user typed, with the values the route's own schema accepts (read from the service's /openapi.json,
 * never a copy here); a route named in a message becomes the command that calls it; the SDK's option
 * beside the CLI's (`wallet.solana; the CLI: --keypair`) becomes the CLI's alone.
 */
import { CLIENT_CALLS } from './catalogue.ts'

/** What a person types for each body member the CLI sends. `token_address` is `<mint>`, or `--focus` in a feed. */
const OPTION_OF_MEMBER: Record<string, string> = {
  token_address: '<mint>',
  wallet_address: '<address>',
  token_addresses: '<mint…>',
  max_usd: '--max-usd',
  symbol: '<ticker or mint>',
  output_mint: '<mint>',
  input_mint: '--from',
  amount_in: '--amount',
  slippage_bps: '--slippage',
  interval: '--interval',
  sort: '--sort',
  limit: '--limit',
  min_signals: '--min-signals',
  stage: '--stage',
  preset: '--preset',
  min_progress_pct: '--min-progress',
  window_hours: '--hours',
  risk_appetite: '--appetite',
  source: '--source',
  budget_usd: '--stake',
  size_usdc: '--size',
  home_chain: '--home',
}

/** The commands whose `token_address` is the optional `--focus`, not the mint they are about. */
const FEEDS = new Set(['trending', 'radar', 'launches', 'graduating', 'momentum', 'smart-money'])

/** The option (or argument) a body member came from, in `command`. */
export function optionOf(member: string, command: string | undefined): string {
  if (member === 'token_address' && command && FEEDS.has(command)) return '--focus'
  return OPTION_OF_MEMBER[member] ?? member
}

/** A member's JSON Schema, as far as it is read here. */
export interface MemberSchema {
  type?: string
  enum?: unknown[]
  anyOf?: MemberSchema[]
  const?: unknown
  minimum?: number
  maximum?: number
  format?: string
  minLength?: number
  maxLength?: number
  description?: string
}

/** The values a member's schema accepts, in words: "must be one of 5m, 1h, 6h, 24h". Undefined when it cannot say. */
export function acceptedOf(schema: MemberSchema): string | undefined {
  const values =
    schema.enum ?? (schema.anyOf?.every((part) => 'const' in part) ? schema.anyOf.map((part) => part.const) : undefined)
  if (values) return `must be one of ${values.join(', ')}`
  const range =
    schema.minimum !== undefined && schema.maximum !== undefined
      ? ` from ${schema.minimum} to ${schema.maximum}`
      : schema.minimum !== undefined
        ? ` of at least ${schema.minimum}`
        : schema.maximum !== undefined
          ? ` of at most ${schema.maximum}`
          : ''
  if (schema.type === 'integer') return `must be a whole number${range}`
  if (schema.type === 'number') return `must be a number${range}`
  if (schema.format === 'solana-address')
    return `must be a Solana address (base58, ${schema.minLength ?? 32} to ${schema.maxLength ?? 44} characters)`
  // Else the schema's own description, its first clause: "A ticker (BONK or $BONK) or a Solana mint".
  const described = schema.description?.split(/[;.](?:\s|$)/)[0]?.trim()
  if (described) return `must be ${described.charAt(0).toLowerCase()}${described.slice(1)}`
  return undefined
}

/** The schema of one member of a route's JSON body, from the service's OpenAPI document. */
export function memberSchemaOf(openapi: unknown, route: string, member: string): MemberSchema | undefined {
  const [method, path] = route.split(' ') as [string, string]
  const operation = (openapi as { paths?: Record<string, Record<string, unknown>> }).paths?.[path]?.[
    method.toLowerCase()
  ] as { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, MemberSchema> } }> } }
  return operation?.requestBody?.content?.['application/json']?.schema?.properties?.[member]
}

/** A `solsentry` command line from the catalogue's spelling, its notes and optional parts left out: `exit <mint> --home <chain>`. */
function commandOf(cli: string): string {
  return cli
    .replace(/\([^)]*\)|\[[^\]]*\]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Routes named in a message (`POST /trade/quote`, `/exit/check`) as the commands that call them. */
export function commandWords(message: string): string {
  let words = message
  for (const [route, call] of Object.entries(CLIENT_CALLS)) {
    const path = route.split(' ')[1]!
    if (path.includes(':')) continue
    const named = new RegExp(`(^|[\\s("'])(?:(?:GET|POST) )?${literal(path)}(?![\\w/-])`, 'g')
    words = words.replace(named, (_, before: string) => `${before}solsentry ${commandOf(call.cli)}`)
  }
  return words
}

/**
 * A client message in the CLI's words: the SDK's option named beside the CLI's — "(wallet.solana; the
 * CLI: --keypair <file>)", "solanaRpcUrl (the CLI: --solana-rpc <url>)", "the url option (the CLI: …)"
 * — becomes the CLI's alone; routes become commands.
 */
export function cliWords(message: string): string {
  return commandWords(
    message
      .replace(/\(([^;()]+); the CLI: ([^()]+)\)/g, '($2)')
      .replace(
        /(?:the \w+ option|[\w.]+(?: \/ [\w.]+)*) \(the CLI: ([^;()]+)(?:; ([^()]+))?\)/g,
        (_, cli: string, more?: string) => (more ? `${cli} (${more})` : cli),
      ),
  )
}
