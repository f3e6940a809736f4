/**
 * The crowd's lean, scored without a language model (POST /news/pulse, issue 16; docs to follow with
 * the route): each post is bullish, bearish or neutral by a small lexicon of market terms (a negation
 * within the three words before a term flips it), and the posts together lean BULLISH, BEARISH, MIXED
 * or NEUTRAL by the shares of the opinionated ones. Pure: the posts come from the news sources.
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
  'rug',
  'rugpull',
  'rug pull',
  'scam',
  'exploit',
  'hack',
  'hacked',
  'drained',
  'outflows',
  'liquidation',
  'liquidations',
  'lawsuit',
  'sec charges',
  'delist',
  'delisting',
  'warning',
  'fraud',
] as const
const NEGATIONS = new Set(['not', 'no', "isn't", "aren't", "won't", "don't", "doesn't", 'never', 'without'])
/** How many words before a term a negation flips it. */
const NEGATION_REACH = 3

/** An opinionated share at or above this leans the whole; both sides at or above MIXED_SHARE are mixed. */
export const LEAN_SHARE = 0.6
export const MIXED_SHARE = 0.35
/** Fewer opinionated posts than this: NEUTRAL (too few to lean). */
export const MIN_OPINIONATED = 3

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}$][\p{L}\p{N}'$-]*/gu) ?? []

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
}

/**
 * One post's lean: the side with more (sign-adjusted) terms; a tie or none is neutral. A negation
 * reaches only within its clause (punctuation ends one).
 */
export function leanOf(text: string): PostLean {
  let score = 0
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
  }
  return { lean: score > 0 ? 'bull' : score < 0 ? 'bear' : 'neutral', bull, bear }
}

export interface Pulse {
  signal: Lean
  posts: number
  bull: number
  bear: number
  neutral: number
  /** The terms that leaned the posts, most used first (at most 10). */
  top_terms: { term: string; count: number }[]
}

/** The lean of many posts (see LEAN_SHARE, MIXED_SHARE, MIN_OPINIONATED). */
export function pulseOf(texts: readonly string[]): Pulse {
  const leans = texts.map(leanOf)
  const bull = leans.filter((entry) => entry.lean === 'bull').length
  const bear = leans.filter((entry) => entry.lean === 'bear').length
  const opinionated = bull + bear
  const counts = new Map<string, number>()
  for (const entry of leans)
    for (const term of [...entry.bull, ...entry.bear]) counts.set(term, (counts.get(term) ?? 0) + 1)
  let signal: Lean = 'NEUTRAL'
  if (opinionated >= MIN_OPINIONATED) {
    const bullShare = bull / opinionated
    const bearShare = bear / opinionated
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
    top_terms: [...counts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 10)
      .map(([term, count]) => ({ term, count })),
  }
}
