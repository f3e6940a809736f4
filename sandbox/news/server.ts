/**
 * The sandbox's news and social stand-in (sandbox/news/posts.ts says what is said):
 * - `GET /feeds/wire.xml`, `/feeds/desk.xml`: two news desks as RSS 2.0, in the shape of the recorded
 *   real feeds (test/fixtures/recorded/news/: channel with ttl 5, items with guid, pubDate, dc:creator,
 *   description);
 * - `GET /2/tweets/search/recent`: X API v2 recent search over the stand-in's posts, in X's answer shape
 *   (recorded answers: test/fixtures/recorded/x/) — a bearer token required (401 without), the query's
 *   cashtags, words and OR groups matched, `-is:retweet` accepted (the stand-in has no retweets), other
 *   operators refused with X's 400, `max_results` 10 to 100, and only the fields asked for answered.
 * Times are counted back from each request, so the talk is always current.
 */
import type { World } from '../world/world.ts'
import { ACCOUNTS, accountCreatedAt, articles, type Mints, type SandboxAccount, socialPosts } from './posts.ts'

/** The sandbox's bearer token for its X stand-in (what `npm start` gives the service as X_BEARER_TOKEN). */
export const SANDBOX_X_TOKEN = 'sandbox-x-bearer-token'
export const SANDBOX_FEEDS = ['wire', 'desk'] as const
/** X's query length limit for recent search on self-serve access. */
const MAX_QUERY = 512

function mintsOf(world: World): Mints {
  const bySymbol = (symbol: string) => [...world.tokens.values()].find((token) => token.symbol === symbol)?.mint
  return { BLUE: bySymbol('BLUE'), LEGIT: bySymbol('LEGIT'), BNDL: bySymbol('BNDL') }
}

const cdata = (text: string) => `<![CDATA[${text.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`

function feed(desk: (typeof SANDBOX_FEEDS)[number], origin: string, nowMs: number): string {
  const title = desk === 'wire' ? 'Sandbox Wire' : 'Sandbox Desk'
  const items = articles()
    .filter((article) => article.desk === desk)
    .map((article) => {
      const at = new Date(nowMs - article.minutesAgo * 60_000).toUTCString()
      return [
        '    <item>',
        `      <title>${cdata(article.title)}</title>`,
        `      <link>${origin}/news/${article.slug}</link>`,
        `      <guid isPermaLink="false">sandbox-${article.slug}</guid>`,
        `      <pubDate>${at}</pubDate>`,
        `      <description>${cdata(article.description)}</description>`,
        `      <dc:creator>${cdata(article.author)}</dc:creator>`,
        '    </item>',
      ].join('\n')
    })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${title} (sandbox stand-in)</title>`,
    `    <link>${origin}</link>`,
    `    <atom:link href="${origin}/feeds/${desk}.xml" rel="self" type="application/rss+xml" />`,
    `    <description>The sandbox's ${desk} news desk: scenario stories, not real news</description>`,
    `    <lastBuildDate>${new Date(nowMs).toUTCString()}</lastBuildDate>`,
    '    <ttl>5</ttl>',
    ...items,
    '  </channel>',
    '</rss>',
  ].join('\n')
}

type Term = { kind: 'cashtag' | 'word' | 'phrase'; value: string }

/**
 * The query as OR groups of terms (every term of a group must match; any group may): the subset of
 * X's syntax the service sends. Undefined (with the reason) for an operator the stand-in does not serve.
 */
function parseQuery(query: string): { groups: Term[][] } | { error: string } {
  const tokens = query.match(/"[^"]*"|\(|\)|[^\s()]+/g) ?? []
  const groups: Term[][] = [[]]
  for (const token of tokens) {
    if (token === '(' || token === ')') continue
    if (token === 'OR') {
      groups.push([])
      continue
    }
    if (token === '-is:retweet') continue
    if (token.includes(':')) return { error: `The stand-in does not serve the operator ${token}` }
    const term: Term = token.startsWith('"')
      ? { kind: 'phrase', value: token.slice(1, -1).toLowerCase() }
      : token.startsWith('$')
        ? { kind: 'cashtag', value: token.slice(1).toLowerCase() }
        : { kind: 'word', value: token.toLowerCase() }
    groups.at(-1)!.push(term)
  }
  return { groups: groups.filter((group) => group.length > 0) }
}

function matches(text: string, groups: Term[][]): boolean {
  const lower = text.toLowerCase()
  const cashtags = new Set([...lower.matchAll(/\$([a-z][a-z0-9]{0,9})\b/g)].map((match) => match[1]))
  const words = new Set(lower.match(/[\p{L}\p{N}]+/gu) ?? [])
  const hit = (term: Term) =>
    term.kind === 'cashtag'
      ? cashtags.has(term.value)
      : term.kind === 'phrase'
        ? lower.includes(term.value)
        : words.has(term.value) || (term.value.length >= 32 && lower.includes(term.value))
  return groups.some((group) => group.every(hit))
}

const invalid = (parameter: string, message: string) =>
  Response.json(
    {
      errors: [{ parameters: { [parameter]: [] }, message }],
      title: 'Invalid Request',
      detail: 'One or more parameters to your request was invalid.',
      type: 'https://api.twitter.com/2/problems/invalid-request',
    },
    { status: 400 },
  )

function userOf(account: SandboxAccount, fields: Set<string>, nowS: number) {
  return {
    id: account.id,
    name: account.name,
    username: account.username,
    ...(fields.has('created_at') ? { created_at: new Date(accountCreatedAt(account, nowS) * 1000).toISOString() } : {}),
    ...(fields.has('verified') ? { verified: account.verified } : {}),
    ...(fields.has('public_metrics')
      ? {
          public_metrics: {
            followers_count: account.followers,
            following_count: Math.round(account.followers / 10) + 50,
            tweet_count: account.ageDays * 3 + 12,
            listed_count: Math.floor(account.followers / 500),
          },
        }
      : {}),
  }
}

function search(world: World, url: URL, nowMs: number): Response {
  const query = url.searchParams.get('query')
  if (!query) return invalid('query', 'The `query` query parameter can not be empty')
  if (query.length > MAX_QUERY) return invalid('query', `The \`query\` query parameter value [${query}] is not valid`)
  const maxResults = Number(url.searchParams.get('max_results') ?? '10')
  if (!Number.isInteger(maxResults) || maxResults < 10 || maxResults > 100)
    return invalid('max_results', `The \`max_results\` query parameter value [${maxResults}] is not between 10 and 100`)
  const parsed = parseQuery(query)
  if ('error' in parsed) return invalid('query', parsed.error)
  const tweetFields = new Set((url.searchParams.get('tweet.fields') ?? '').split(','))
  const userFields = new Set((url.searchParams.get('user.fields') ?? '').split(','))
  const withAuthors = (url.searchParams.get('expansions') ?? '').split(',').includes('author_id')
  const nowS = Math.floor(nowMs / 1000)
  const found = socialPosts(mintsOf(world))
    .filter((post) => matches(post.text, parsed.groups))
    .slice(0, maxResults)
  if (found.length === 0) return Response.json({ meta: { result_count: 0 } })
  const data = found.map((post) => ({
    id: post.id,
    text: post.text,
    edit_history_tweet_ids: [post.id],
    ...(tweetFields.has('author_id') || withAuthors ? { author_id: post.author.id } : {}),
    ...(tweetFields.has('created_at')
      ? { created_at: new Date(nowMs - post.minutesAgo * 60_000).toISOString().replace(/\.\d+Z$/, '.000Z') }
      : {}),
  }))
  const authors = [...new Set(found.map((post) => post.author.id))].map(
    (id) => ACCOUNTS.find((account) => account.id === id)!,
  )
  return Response.json({
    data,
    ...(withAuthors ? { includes: { users: authors.map((author) => userOf(author, userFields, nowS)) } } : {}),
    meta: { newest_id: data[0]!.id, oldest_id: data.at(-1)!.id, result_count: data.length },
  })
}

/** The stand-in over HTTP. */
export function handleNewsRequest(world: World, request: Request): Response {
  const url = new URL(request.url)
  const nowMs = Date.now()
  if (request.method !== 'GET') return new Response('Method Not Allowed', { status: 405 })
  const desk = url.pathname.match(/^\/feeds\/(wire|desk)\.xml$/)?.[1] as (typeof SANDBOX_FEEDS)[number] | undefined
  if (desk)
    return new Response(feed(desk, url.origin, nowMs), {
      headers: { 'content-type': 'application/rss+xml; charset=utf-8' },
    })
  if (url.pathname === '/2/tweets/search/recent') {
    if (request.headers.get('authorization') !== `Bearer ${SANDBOX_X_TOKEN}`)
      return Response.json(
        { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' },
        { status: 401 },
      )
    return search(world, url, nowMs)
  }
  return new Response('Not Found', { status: 404 })
}
