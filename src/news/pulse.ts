/**
 * The crowd's lean, scored without a language model (POST /news/pulse; docs/catalogue.md, "News: the
 * pulse"): each post is bullish, bearish or neutral by a small lexicon of market terms (a negation
 * within the three words before a term flips it), and the posts together lean BULLISH, BEARISH, MIXED
 * or NEUTRAL by the shares of the opinionated ones. Alarms — words that say the token can take the
 * holder's money (rug, scam, honeypot, exploit, drained, hacked, phishing, fake, warning, "do not
 * buy" and their kin) — weigh ALARM_WEIGHT times a market term. Pure: the posts come from the news
 * sources.
 */

export type Lean = 'BULLISH' | 'BEARISH' | 'NEUTRAL' | 'MIXED'

/** Terms that lean a post one way (lower case; phrases match as words in order). */
export const BULLISH_TERMS = [
  'bullish',
  'rally',
  'rallies',
  'surge',
  'surges',
  'soar',
  'soars',
  'breakout',
  'all-time high',
  'ath',
  'moon',
  'pump',
  'gains',
  'upgrade',
  'partnership',
  'adoption',
  'inflows',
  'buy',
  'accumulate',
  'outperform',
  'record high',
  'approval',
  'launches',
] as const
/**
 * Alarms: the crowd saying the token can take the holder's money, with their inflections and kin. Each
 * weighs ALARM_WEIGHT against the hype around it, in its post and in the crowd: hype is cheap and
 * repeated by the dozen (a shill campaign, sandbox/news/posts.ts BNDL), a named rug or drain is
 * evidence a buyer must weigh first.
 */
export const ALARM_TERMS = [
  'rug',
  'rugs',
  'rugged',
  'rugging',
  'rugpull',
  'rugpulls',
  'rug-pull',
  'rug pull',
  'rug pulls',
  'scam',
  'scams',
  'scammer',
  'scammers',
  'scammed',
  'scammy',
  'honeypot',
  'honeypots',
  'honey pot',
  'exploit',
  'exploits',
  'exploited',
  'exploiter',
  'drain',
  'drains',
  'drained',
  'drainer',
  'hack',
  'hacks',
  'hacked',
  'heist',
  'stolen',
  'phishing',
  'phish',
  'phished',
  'fake',
  'fakes',
  'impersonator',
  'warning',
  'warnings',
  'warn',
  'warns',
  'warned',
  'do not buy',
  "don't buy",
  'dont buy',
  'stay away',
  'fraud',
  'fraudulent',
  'ponzi',
] as const
/** The other bearish market terms (one point each). */
export const BEARISH_TERMS = [
  'bearish',
  'crash',
  'crashes',
  'plunge',
  'plunges',
  'dump',
  'dumps',
  'sell-off',
  'selloff',
  'outflows',
  'liquidation',
  'liquidations',
  'lawsuit',
  'sec charges',
  'delist',
  'delisting',
] as const
/**
 * How many market terms one alarm outweighs, in its post and, for a post it leans bearish, in the
 * crowd's shares: one warning against three hype posts. A negated alarm ("not a rug") is a denial, not
 * evidence: it counts one point the other way, as any negated term.
 */
export const ALARM_WEIGHT = 3
const NEGATIONS = new Set(['not', 'no', "isn't", "aren't", "won't", "don't", "doesn't", 'never', 'without'])
/** How many words before a term a negation flips it. */
const NEGATION_REACH = 3

/** An opinionated share at or above this leans the whole; both sides at or above MIXED_SHARE are mixed. */
export const LEAN_SHARE = 0.6
export const MIXED_SHARE = 0.35
/** Fewer opinionated posts than this: NEUTRAL (too few to lean). */
export const MIN_OPINIONATED = 3

// Typographic apostrophes (the feeds' "don’t") read as the plain one.
const words = (text: string) =>
  text
    .toLowerCase()
    .replaceAll('\u2019', "'")
    .match(/[\p{L}\p{N}$][\p{L}\p{N}'$-]*/gu) ?? []

/** The terms of `lexicon` a post uses, each signed +1, or −1 when a negation comes just before it. */
function hits(tokens: readonly string[], lexicon: readonly string[]): { term: string; sign: 1 | -1 }[] {
  const found: { term: string; sign: 1 | -1 }[] = []
  for (const term of lexicon) {
    const parts = term.split(' ')
    for (let i = 0; i + parts.length <= tokens.length; i++) {
      if (!parts.every((part, k) => tokens[i + k] === part)) continue
      const before = tokens.slice(Math.max(0, i - NEGATION_REACH), i)
      found.push({ term, sign: before.some((word) => NEGATIONS.has(word)) ? -1 : 1 })
    }
  }
  return found
}

export interface PostLean {
  lean: 'bull' | 'bear' | 'neutral'
  bull: string[]
  bear: string[]
  /** Whether it raises an alarm (an un-negated alarm term): a bearish post that does weighs ALARM_WEIGHT in the crowd. */
  alarm: boolean
}

/**
 * One post's lean: the side with more (sign-adjusted) points — a market term one, an alarm
 * ALARM_WEIGHT —; a tie or none is neutral. A negation reaches only within its clause (punctuation
 * ends one). A phrase and a word inside it both count ("rug pull" is also "rug").
 */
export function leanOf(text: string): PostLean {
  let score = 0
  let alarm = false
  const bull: string[] = []
  const bear: string[] = []
  for (const clause of text.split(/[.:;!?,]/)) {
    const tokens = words(clause)
    for (const { term, sign } of hits(tokens, BULLISH_TERMS)) {
      score += sign
      ;(sign > 0 ? bull : bear).push(sign > 0 ? term : `not ${term}`)
    }
    for (const { term, sign } of hits(tokens, BEARISH_TERMS)) {
      score -= sign
      ;(sign > 0 ? bear : bull).push(sign > 0 ? term : `not ${term}`)
    }
    for (const { term, sign } of hits(tokens, ALARM_TERMS)) {
      score -= sign > 0 ? ALARM_WEIGHT : -1
      if (sign > 0) alarm = true
      ;(sign > 0 ? bear : bull).push(sign > 0 ? term : `not ${term}`)
    }
  }
  return { lean: score > 0 ? 'bull' : score < 0 ? 'bear' : 'neutral', bull, bear, alarm }
}

export interface Pulse {
  signal: Lean
  posts: number
  bull: number
  bear: number
  neutral: number
  /** Bearish posts raising an alarm (rug, scam, hacked…): each weighs ALARM_WEIGHT in the lean. */
  alarms: number
  /** The terms that leaned the posts, most used first (at most 10). */
  top_terms: { term: string; count: number }[]
}

/**
 * The lean of many posts (see LEAN_SHARE, MIXED_SHARE, MIN_OPINIONATED): the shares count each
 * opinionated post once, a bearish post raising an alarm ALARM_WEIGHT times; `bull`, `bear` and
 * `neutral` count posts.
 */
export function pulseOf(texts: readonly string[]): Pulse {
  const leans = texts.map(leanOf)
  const bull = leans.filter((entry) => entry.lean === 'bull').length
  const bear = leans.filter((entry) => entry.lean === 'bear').length
  const opinionated = bull + bear
  const bearWeight = leans
    .filter((entry) => entry.lean === 'bear')
    .reduce((sum, entry) => sum + (entry.alarm ? ALARM_WEIGHT : 1), 0)
  const counts = new Map<string, number>()
  for (const entry of leans)
    for (const term of [...entry.bull, ...entry.bear]) counts.set(term, (counts.get(term) ?? 0) + 1)
  let signal: Lean = 'NEUTRAL'
  if (opinionated >= MIN_OPINIONATED) {
    const bullShare = bull / (bull + bearWeight)
    const bearShare = bearWeight / (bull + bearWeight)
    signal =
      bullShare >= LEAN_SHARE
        ? 'BULLISH'
        : bearShare >= LEAN_SHARE
          ? 'BEARISH'
          : bullShare >= MIXED_SHARE && bearShare >= MIXED_SHARE
            ? 'MIXED'
            : 'NEUTRAL'
  }
  return {
    signal,
    posts: texts.length,
    bull,
    bear,
    neutral: texts.length - opinionated,
    alarms: leans.filter((entry) => entry.lean === 'bear' && entry.alarm).length,
    top_terms: [...counts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 10)
      .map(([term, count]) => ({ term, count })),
  }
}
