/**
 * The skills an A2A message may call and how it names one: every offered route (src/kernel/catalogue.ts)
 * by its name (its MCP tool's), and a card skill of one route by its id; the input is the route's JSON
 * body (or path parameters) as the message's one data part.
 */
import type { Message } from '@a2a-js/sdk'
import { type Offering, offerings } from '../../src/kernel/catalogue.ts'
import { priceInWords, type Registry } from '../../src/kernel/manifest.ts'
import { SKILL } from './x402-extension.ts'

/** The call a task runs, kept in its metadata (`solsentry.call`) for the payment that follows. */
export interface Call {
  skill: string
  input: Record<string, unknown>
}

/** The skills a message may name: every offered route by its name, and a card skill of one route by its id. */
export function skillsOf(registry: Registry): Map<string, Offering> {
  const named = new Map<string, Offering>()
  const all = offerings(registry)
  for (const offering of all) {
    named.set(offering.tool, offering)
    for (const alias of offering.aliases) named.set(alias, offering)
  }
  for (const offering of all)
    if (!named.has(offering.skill) && all.filter((other) => other.skill === offering.skill).length === 1)
      named.set(offering.skill, offering)
  return named
}

type ReadCall = { ok: true; call: Call; offering: Offering } | { ok: false; reason: string }

/**
 * The call a first message asks for: the skill in `metadata["solsentry.skill"]`, its input the route's
 * JSON body (or path parameters) as the message's one data part (none: an empty object).
 */
export function readCall(message: Message, skills: Map<string, Offering>): ReadCall {
  const names = () => [...new Set([...skills.values()].map((offering) => offering.tool))].join(', ')
  const skill = message.metadata?.[SKILL]
  if (typeof skill !== 'string' || skill === '')
    return { ok: false, reason: `name the skill in the message's metadata["${SKILL}"]: one of ${names()}` }
  const offering = skills.get(skill)
  if (!offering) {
    const routes = [
      ...new Set([...skills.values()].filter((known) => known.skill === skill).map((known) => known.tool)),
    ]
    if (routes.length > 1)
      return { ok: false, reason: `the skill ${skill} has several routes: name one of ${routes.join(', ')}` }
    return { ok: false, reason: `unknown skill ${skill}: the skills are ${names()}` }
  }
  const data = message.parts.filter((part) => part.content?.$case === 'data')
  if (data.length > 1) return { ok: false, reason: `send ${skill}'s input as one data part, not ${data.length}` }
  const required =
    ((offering.route.body ?? offering.route.params) as { required?: string[] } | undefined)?.required ?? []
  const typed = data.length === 0 ? typedAddress(message, offering, required) : undefined
  if (typed) return { ok: true, call: { skill: offering.tool, input: typed }, offering }
  if (data.length === 0 && required.length > 0)
    return {
      ok: false,
      reason: `send ${skill}'s input as a data part: {${required.map((name) => ` "${name}": …`).join(',')} } (the body of ${offering.route.key})`,
    }
  const value = data[0]?.content?.$case === 'data' ? data[0].content.value : {}
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, reason: `${skill}'s input is a JSON object (the body of ${offering.route.key})` }
  return { ok: true, call: { skill: offering.tool, input: value as Record<string, unknown> }, offering }
}

/** docs/a2a.md's table of skills, from the mounted routes: the name to send, the route, its price, its input. */
export function skillTable(registry: Registry): string {
  const rows = offerings(registry).map(({ tool, skill, route }) => {
    const schema = (route.body ?? route.params) as
      | { properties?: Record<string, unknown>; required?: string[] }
      | undefined
    const members = Object.keys(schema?.properties ?? {}).map((name) =>
      schema?.required?.includes(name) ? `\`${name}\`` : `\`${name}\`?`,
    )
    const input = members.length > 0 ? `{ ${members.join(', ')} }` : 'none'
    return `| \`${tool}\` | \`${skill}\` | \`${route.key}\` | ${priceInWords(route)} | ${input} |`
  })
  return [
    "| `solsentry.skill` | Card skill | Route | Price | Data part (the route's input) |",
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n')
}

/** A word that reads as a Solana address (base58, 32 to 44 characters); the front door checks it. */
const ADDRESS_WORD = /(?<![1-9A-HJ-NP-Za-km-z])[1-9A-HJ-NP-Za-km-z]{32,44}(?![1-9A-HJ-NP-Za-km-z])/g

/**
 * A skill whose one required input is an address, asked in words ("Quick scan <mint>", as the card's
 * examples read): the one address the text parts hold, as that input. Anything else is not guessed.
 */
function typedAddress(message: Message, offering: Offering, required: string[]): Record<string, unknown> | undefined {
  const [member] = required
  if (required.length !== 1 || !offering.route.addressFields.some((field) => field.name === member)) return undefined
  const text = message.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join(' ')
  const addresses = [...new Set(text.match(ADDRESS_WORD) ?? [])]
  return addresses.length === 1 ? { [member!]: addresses[0] } : undefined
}
