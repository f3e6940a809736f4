/**
 * How a route is asked for in words: the phrases a manifest declares for it (`RouteSpec.askedBy`) and the
 * small readers of the parameters such words state (a window, a percentage, a named value). The A2A server
 * (plugins/a2a/skills.ts) chooses a route by them for a text-only message — deterministically, no language
 * model: what the words do not determine is not guessed.
 */

/** What a route's manifest says of the words that ask for it. */
export interface AskedBy {
  /**
   * Phrases, lower case, that select the route, matched on word boundaries. Between routes a text
   * selects, the one whose longest phrase found has the most words wins; a tie is not guessed between.
   */
  phrases: readonly string[]
  /**
   * The input members the words state (a window, a percentage, a preset, a trade's amount and tokens):
   * only what the text says, nothing defaulted. An address member it leaves out is filled by the A2A
   * server with the one address the text holds, when the route takes one address.
   */
  read?: (text: string) => Record<string, unknown>
}

/** A word that reads as a Solana address (base58, 32 to 44 characters); the front door checks it. */
export const ADDRESS_WORD = /(?<![1-9A-HJ-NP-Za-km-z])[1-9A-HJ-NP-Za-km-z]{32,44}(?![1-9A-HJ-NP-Za-km-z])/g

/** The distinct addresses a text holds, in order. */
export function addressesIn(text: string): string[] {
  return [...new Set(text.match(ADDRESS_WORD) ?? [])]
}

/** Whether `phrase` occurs in `text` as whole words (case-insensitive). */
export function saysPhrase(text: string, phrase: string): boolean {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')
  return new RegExp(`(?<![\\w.])${escaped}(?![\\w])`, 'i').test(text)
}

const MINUTES_PER_UNIT: Record<string, number> = {
  m: 1,
  min: 1,
  minute: 1,
  h: 60,
  hr: 60,
  hour: 60,
  d: 1440,
  day: 1440,
}

/**
 * The window a text states ("over the last 6 hours", "24h", "past day", "last hour") as one of `windows`
 * (`'5m' | '1h' | '6h' | '24h'`-like labels); undefined when it states none or one not offered.
 */
export function windowIn<W extends string>(text: string, windows: readonly W[]): W | undefined {
  const said = text.toLowerCase()
  const counted = /(?<![\w.])(\d+)\s*(minutes?|mins?|m|hours?|hrs?|h|days?|d)\b/.exec(said)
  const single = /\b(?:last|past|one|an?)\s+(minute|hour|day)\b/.exec(said)
  let minutes: number | undefined
  if (counted) minutes = Number(counted[1]) * MINUTES_PER_UNIT[counted[2]!.replace(/s$/, '')]!
  else if (single) minutes = MINUTES_PER_UNIT[single[1]!]
  if (minutes === undefined) return undefined
  return windows.find((window) => minutesOf(window) === minutes)
}

function minutesOf(window: string): number | undefined {
  const match = /^(\d+)(m|h|d)$/.exec(window)
  return match ? Number(match[1]) * MINUTES_PER_UNIT[match[2]!]! : undefined
}

/** The one percentage a text states ("above 80% bonded" → 80); undefined for none or several. */
export function percentIn(text: string): number | undefined {
  const found = [...text.matchAll(/(\d+(?:\.\d+)?)\s*(?:%|percent\b)/gi)]
  return found.length === 1 ? Number(found[0]![1]) : undefined
}

/** `{ interval: '6h' }` when the text states one of `windows`, else nothing: a reader's member. */
export function windowAt<W extends string>(text: string, windows: readonly W[]): { interval?: W } {
  const window = windowIn(text, windows)
  return window ? { interval: window } : {}
}

/** `{ [member]: 80 }` when the text states one percentage, else nothing: a reader's member. */
export function percentAt(text: string, member: string): Record<string, number> {
  const percent = percentIn(text)
  return percent === undefined ? {} : { [member]: percent }
}

/** The one amount of dollars a text states ("at most 0.30 USD", "$2", "up to 1.5 usdc"); undefined for none or several. */
export function dollarsIn(text: string): number | undefined {
  const found = [...text.matchAll(/\$\s*(\d+(?:\.\d+)?)|(?<![\w.])(\d+(?:\.\d+)?)\s*(?:usd|usdc|dollars?)\b/gi)]
  return found.length === 1 ? Number(found[0]![1] ?? found[0]![2]) : undefined
}

/** `'0.5'` of a token of 9 decimals → `'500000000'`: a decimal amount in atomic units, exact; undefined past its decimals. */
export function atomicUnits(amount: string, decimals: number): string | undefined {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount)
  if (!match || (match[2]?.length ?? 0) > decimals) return undefined
  const units = BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt((match[2] ?? '').padEnd(decimals, '0') || '0')
  return units > 0n ? units.toString() : undefined
}
