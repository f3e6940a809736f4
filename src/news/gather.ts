/**
 * What the /news routes read: the subject asked about (a ticker or a mint resolved through the token
 * list; nothing = the market as a whole) and the posts about it within the window, from the news
 * feeds and, when configured, X's recent search. Every source that could not be read is named.
 */
import type { ConfiguredSources } from '../sources/index.ts'
import type { JupiterToken } from '../sources/jupiter.ts'
import type { CallMeter } from '../sources/upstream.ts'
import { beforeDeadline } from '../kernel/deadline.ts'
import type { Post } from '../sources/news-posts.ts'

export interface Candidate {
  mint: string
  symbol: string
  name: string
  verified: boolean
  liquidity_usd: number | null
}

export interface Subject {
  /** What was asked ('' for the market as a whole). */
  query: string
  scope: 'market' | 'token'
  symbol: string | null
  name: string | null
  /** The mint the subject resolved to; null when the token list knows no token of that ticker. */
  mint: string | null
  /** True when the ticker names several tokens (the verified, then most liquid, one is `mint`). */
  ambiguous: boolean
  /** Every token the ticker names, most likely first (at most 5). */
  candidates: Candidate[]
}

/** A ticker: 1 to 10 letters or digits, with or without its `$`. */
export const TICKER = /^\$?[A-Za-z0-9]{1,10}$/
const MINT = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/
const MAX_CANDIDATES = 5

const candidateOf = (token: JupiterToken): Candidate => ({
  mint: token.id,
  symbol: token.symbol,
  name: token.name,
  verified: token.isVerified === true,
  liquidity_usd: token.liquidity ?? null,
})

/** The verified first, then the most liquid. */
const likelier = (a: Candidate, b: Candidate) =>
  Number(b.verified) - Number(a.verified) || (b.liquidity_usd ?? 0) - (a.liquidity_usd ?? 0)

/**
 * The subject of `query`: empty = the market; a mint = that token (its symbol from the token list when
 * listed); a ticker = the listed tokens of that exact symbol. `missing` gains `token_list` when the
 * list could not be read (the subject then stays as asked).
 */
export async function resolveSubject(
  query: string,
  jupiter: ConfiguredSources['jupiter'] | undefined,
  meter: CallMeter,
  deadlineAt: number,
  missing: Set<string>,
): Promise<Subject> {
  const asked = query.trim()
  const subject: Subject = {
    query: asked,
    scope: asked === '' ? 'market' : 'token',
    symbol: null,
    name: null,
    mint: null,
    ambiguous: false,
    candidates: [],
  }
  if (asked === '') return subject
  const isMint = MINT.test(asked) && !TICKER.test(asked)
  if (isMint) subject.mint = asked
  else subject.symbol = asked.replace(/^\$/, '').toUpperCase()
  if (!jupiter) {
    missing.add('token_list')
    return subject
  }
  try {
    const found = await beforeDeadline(jupiter.search(isMint ? asked : subject.symbol!, meter), deadlineAt)
    const matches = found
      .filter((token) => (isMint ? token.id === asked : token.symbol.toUpperCase() === subject.symbol))
      .map(candidateOf)
      .sort(likelier)
    subject.candidates = matches.slice(0, MAX_CANDIDATES)
    subject.ambiguous = !isMint && matches.length > 1
    const best = matches[0]
    if (best) {
      subject.mint = best.mint
      subject.symbol = best.symbol.toUpperCase()
      subject.name = best.name
    }
  } catch {
    missing.add('token_list')
  }
  return subject
}

/** The X query of a subject: its cashtag or mint (the market: Solana), retweets left out. */
export function xQueryOf(subject: Subject): string {
  if (subject.scope === 'market') return '(solana OR $SOL) -is:retweet'
  const terms = [subject.symbol ? `$${subject.symbol}` : null, subject.mint].filter((term) => term !== null)
  return `(${terms.join(' OR ')}) -is:retweet`
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Whether a post is about the subject: it names the mint, the cashtag, the ticker as a word in capitals
 * (3 letters or more) or the token's name (4 letters or more). Everything is about the market.
 */
export function isAbout(post: Post, subject: Subject): boolean {
  if (subject.scope === 'market') return true
  const text = `${post.title} ${post.text}`
  if (subject.mint && text.includes(subject.mint)) return true
  if (subject.symbol) {
    if (post.cashtags.includes(subject.symbol)) return true
    if (subject.symbol.length >= 3 && new RegExp(`\\b${escapeRegExp(subject.symbol)}\\b`).test(text)) return true
  }
  if (subject.name && subject.name.length >= 4 && new RegExp(`\\b${escapeRegExp(subject.name)}\\b`, 'i').test(text))
    return true
  return false
}

export interface Gathered {
  posts: Post[]
  /** Posts read per source (feed host, or `x`), before the subject and window filter. */
  sources: { name: string; posts: number; read: boolean }[]
  window: { hours: number; from: string; to: string }
}

/**
 * The posts about `subject` published within the last `hours`, newest first, from every configured
 * source until `deadlineAt`; a source that could not be read adds `news:<host>` or `x` to `missing`.
 */
export async function gatherPosts(
  sources: Pick<Partial<ConfiguredSources>, 'news' | 'x'>,
  subject: Subject,
  hours: number,
  meter: CallMeter,
  deadlineAt: number,
  missing: Set<string>,
): Promise<Gathered> {
  const nowS = Math.floor(Date.now() / 1000)
  const fromS = nowS - hours * 3600
  const [news, social] = await Promise.all([
    sources.news ? sources.news.posts(meter, deadlineAt) : undefined,
    sources.x
      ? beforeDeadline(sources.x.search(xQueryOf(subject), meter), deadlineAt).then(
          (posts) => ({ posts, read: true }),
          () => ({ posts: [] as Post[], read: false }),
        )
      : undefined,
  ])
  const read: { name: string; posts: number; read: boolean }[] = []
  for (const name of news?.failed ?? []) missing.add(`news:${name}`)
  for (const name of sources.news?.names ?? [])
    read.push({
      name,
      posts: news?.posts.filter((post) => post.feed === name).length ?? 0,
      read: !news?.failed.includes(name),
    })
  if (social) {
    if (!social.read) missing.add('x')
    read.push({ name: 'x', posts: social.posts.length, read: social.read })
  }
  const posts = [...(news?.posts ?? []), ...(social?.posts ?? [])]
    .filter((post) => post.at !== null && post.at >= fromS && post.at <= nowS + 300)
    .filter((post) => isAbout(post, subject))
    .sort((a, b) => (b.at ?? 0) - (a.at ?? 0))
  return {
    posts,
    sources: read,
    window: {
      hours,
      from: new Date(fromS * 1000).toISOString(),
      to: new Date(nowS * 1000).toISOString(),
    },
  }
}

/**
 * Tickers to listed mints through the token list (exact symbol; verified, then most liquid, first):
 * null for a ticker no listed token has.
 */
export function tickerResolver(
  jupiter: ConfiguredSources['jupiter'] | undefined,
  meter: CallMeter,
  deadlineAt: number,
) {
  return async (ticker: string): Promise<string | null> => {
    if (!jupiter) return null
    const wanted = ticker.replace(/^\$/, '').toUpperCase()
    const found = await beforeDeadline(jupiter.search(wanted, meter), deadlineAt)
    const best = found
      .filter((token) => token.symbol.toUpperCase() === wanted)
      .map(candidateOf)
      .sort(likelier)[0]
    return best?.mint ?? null
  }
}
