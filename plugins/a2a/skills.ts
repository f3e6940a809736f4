/**
 * The skills an A2A message may call and how it names one: every offered route (src/kernel/catalogue.ts)
 * by its name (its MCP tool's), and a card skill of one route by its id; the input is the route's JSON
 * body (or path parameters) as the message's one data part.
 */
import type { Message } from '@a2a-js/sdk'
import { type Offering, offerings } from '../../src/kernel/catalogue.ts'
import { addressesIn, saysPhrase } from '../../src/kernel/asked.ts'
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

type ReadCall =
  | { ok: true; call: Call; offering: Offering }
  | { ok: false; reason: string; skill?: string; missing?: string[] }

/**
 * The call a first message asks for: the skill in `metadata["solsentry.skill"]`, its input the route's
 * JSON body (or path parameters) as the message's one data part (none: an empty object). A message that
 * names no skill is read from its words (`readWords`).
 */
export function readCall(message: Message, skills: Map<string, Offering>): ReadCall {
  const skill = message.metadata?.[SKILL]
  if (skill === undefined || skill === null || skill === '') return readWords(message, skills)
  if (typeof skill !== 'string')
    return {
      ok: false,
      reason: `name the skill in the message's metadata["${SKILL}"] as a string: one of ${names(skills)}`,
    }
  const offering = skills.get(skill)
  if (!offering) {
    const routes = [
      ...new Set([...skills.values()].filter((known) => known.skill === skill).map((known) => known.tool)),
    ]
    if (routes.length > 1)
      return { ok: false, reason: `the skill ${skill} has several routes: name one of ${routes.join(', ')}` }
    return { ok: false, reason: `unknown skill ${skill}: the skills are ${names(skills)}` }
  }
  const data = message.parts.filter((part) => part.content?.$case === 'data')
  if (data.length > 1) return { ok: false, reason: `send ${skill}'s input as one data part, not ${data.length}` }
  const required = requiredOf(offering)
  const typed = data.length === 0 ? typedAddress(message, offering, required) : undefined
  if (typed) return { ok: true, call: { skill: offering.tool, input: typed }, offering }
  if (data.length === 0 && required.length > 0)
    return {
      ok: false,
      reason: `send ${skill}'s input as a data part: {${required.map((name) => ` "${name}": …`).join(',')} } (the body of ${offering.route.key})`,
      skill: offering.tool,
      missing: required,
    }
  const value = data[0]?.content?.$case === 'data' ? data[0].content.value : {}
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, reason: `${skill}'s input is a JSON object (the body of ${offering.route.key})` }
  return { ok: true, call: { skill: offering.tool, input: value as Record<string, unknown> }, offering }
}

/** One route's reading of a text: the input its words state, what is missing, or why they cannot be its input. */
interface Reading {
  offering: Offering
  /** The words of the longest of its phrases the text says. */
  weight: number
  input: Record<string, unknown>
  missing: string[]
  problem?: string
}

/**
 * A message that names no skill, read from its words (an LLM agent sends text only, as the card's
 * examples read): of the routes whose declared phrases (`askedBy`, in their manifests) the text says, the
 * one whose longest phrase found has the most words, then the one whose input the words state more of. A
 * tie, no phrase at all, two addresses for one, or a missing required member is answered, not guessed.
 */
export function readWords(message: Message, skills: Map<string, Offering>): ReadCall {
  if (message.parts.some((part) => part.content?.$case === 'data'))
    return {
      ok: false,
      reason: `a data part is the input of a named skill: name it in the message's metadata["${SKILL}"], one of ${names(skills)}`,
    }
  const text = textOf(message)
  const addresses = addressesIn(text)
  const readings: Reading[] = []
  for (const offering of unique(skills)) {
    const asked = offering.route.askedBy
    if (!asked) continue
    const weight = Math.max(0, ...asked.phrases.filter((phrase) => saysPhrase(text, phrase)).map(wordsOf))
    if (weight > 0) readings.push(reading(offering, weight, text, addresses))
  }
  if (readings.length === 0)
    return {
      ok: false,
      reason:
        `the words name no skill this service knows. Say what you want as the card's examples do, with one of these ` +
        `phrases: ${phraseList(skills)}; or name the skill in the message's metadata["${SKILL}"] with its input as a data part`,
    }
  // The most words of one phrase, then the most input the words state: "Swap 0.5 SOL for <mint> if it is
  // safe" is a trade (amount and tokens stated), not a scan of the one address it holds.
  const rank = (read: Reading) => [read.weight, Object.keys(read.input).length] as const
  const [topWeight, topStated] = readings.map(rank).sort((a, b) => b[0] - a[0] || b[1] - a[1])[0]!
  const best = readings.filter((read) => rank(read)[0] === topWeight && rank(read)[1] === topStated)
  if (best.length > 1)
    return {
      ok: false,
      reason:
        `the words ask for several skills (${best.map((read) => read.offering.tool).join(', ')}) and none more than the others: ` +
        `name the one you mean in the message's metadata["${SKILL}"], or say it with fewer of the others' words`,
    }
  const [chosen] = best as [Reading]
  const { tool, route } = chosen.offering
  if (chosen.problem) return { ok: false, reason: chosen.problem, skill: tool }
  if (chosen.missing.length > 0)
    return {
      ok: false,
      reason:
        `the words ask for ${tool} (${route.key}) but do not give its ${chosen.missing.map((name) => `"${name}"`).join(', ')}: ` +
        `say ${chosen.missing.length === 1 ? 'it' : 'them'} in the text, or send the input as a data part ` +
        `{${[...Object.keys(chosen.input), ...chosen.missing].map((name) => ` "${name}": …`).join(',')} } with metadata["${SKILL}"] = "${tool}"`,
      skill: tool,
      missing: chosen.missing,
    }
  return { ok: true, call: { skill: tool, input: chosen.input }, offering: chosen.offering }
}

/** What a text says of one route's input: its reader's members, then the one address left for its one address member. */
function reading(offering: Offering, weight: number, text: string, addresses: string[]): Reading {
  const { route, tool } = offering
  const input: Record<string, unknown> = { ...(route.askedBy?.read?.(text) ?? {}) }
  // A reader may take addresses itself, one (`wallet_address`) or a list (`token_addresses`).
  const used = new Set(Object.values(input).flat())
  const left = addresses.filter((address) => !used.has(address))
  const open = route.addressFields.filter((field) => input[field.name] === undefined).map((field) => field.name)
  let problem: string | undefined
  if (left.length === 1 && open.length === 1) input[open[0]!] = left[0]
  else if (left.length > 0 && open.length === 0)
    problem = `${tool} (${route.key}) takes no address here, and the text holds ${left.join(', ')}: say what you want of it`
  else if (left.length > 1)
    problem =
      `the text holds ${left.length} addresses (${left.join(', ')}) and ${tool} (${route.key}) takes one as ` +
      `"${open.join('" or "')}": send the one you mean`
  else if (left.length === 1)
    problem = `${tool} (${route.key}) takes several addresses (${open.join(', ')}): the text does not say which ${left[0]} is`
  const missing = requiredOf(offering).filter((name) => input[name] === undefined)
  return { offering, weight, input, missing, ...(problem ? { problem } : {}) }
}

function requiredOf(offering: Offering): string[] {
  return ((offering.route.body ?? offering.route.params) as { required?: string[] } | undefined)?.required ?? []
}

/** Each offered route once (the map also holds its aliases and card-skill id). */
function unique(skills: Map<string, Offering>): Offering[] {
  return [...new Set(skills.values())]
}

function names(skills: Map<string, Offering>): string {
  return [...new Set(unique(skills).map((offering) => offering.tool))].join(', ')
}

/** Each route asked for in words, with its first phrase: `sol_trending ("trending")`. */
function phraseList(skills: Map<string, Offering>): string {
  return unique(skills)
    .filter((offering) => offering.route.askedBy)
    .map((offering) => `${offering.tool} ("${offering.route.askedBy!.phrases[0]}")`)
    .join(', ')
}

function wordsOf(phrase: string): number {
  return phrase.trim().split(/\s+/).length
}

function textOf(message: Message): string {
  return message.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join(' ')
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

/**
 * A skill whose one required input is an address, asked in words ("Quick scan <mint>", as the card's
 * examples read): the one address the text parts hold, as that input. Anything else is not guessed.
 */
function typedAddress(message: Message, offering: Offering, required: string[]): Record<string, unknown> | undefined {
  const [member] = required
  if (required.length !== 1 || !offering.route.addressFields.some((field) => field.name === member)) return undefined
  const addresses = addressesIn(textOf(message))
  return addresses.length === 1 ? { [member!]: addresses[0] } : undefined
}
