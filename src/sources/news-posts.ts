/**
 * News posts from RSS 2.0 and Atom feeds (no key): each item normalised to a post — its feed, author,
 * time, title and text (HTML stripped), link, and the cashtags it names — de-duplicated by link (or
 * guid) across feeds. Parsing is fast-xml-parser's (a well-kept parser: the feeds' XML, CDATA and
 * entities are its job, not ours).
 */
import { XMLParser } from 'fast-xml-parser'

/** The account behind a social post, as its network describes it. */
export interface Account {
  handle: string
  followers: number | null
  /** When the account was made (unix seconds), or null when not given. */
  created_at: number | null
  verified: boolean | null
}

export interface Post {
  id: string
  /** Where it was read: a news feed's host (e.g. coindesk.com) or a social network (`x`). */
  feed: string
  /** An article of a news feed, or a post on a social network (then `account` says who). */
  kind: 'article' | 'social'
  author: string | null
  account: Account | null
  /** Unix seconds; null when the item carries no date the parser can read. */
  at: number | null
  title: string
  text: string
  link: string | null
  /** `$TICKER`s named in the title or text, upper case, without the `$`. */
  cashtags: string[]
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  cdataPropName: false,
  processEntities: true,
  htmlEntities: true,
  isArray: (name) => name === 'item' || name === 'entry' || name === 'category',
})

type Node = Record<string, unknown> | string | undefined

/** The text of a node: a string, or the `#text` of an element with attributes. */
function textOf(node: unknown): string {
  if (node === undefined || node === null) return ''
  if (typeof node === 'string' || typeof node === 'number') return String(node)
  if (Array.isArray(node)) return textOf(node[0])
  const value = (node as Record<string, unknown>)['#text']
  return value === undefined ? '' : String(value)
}

/** Visible text of an HTML fragment: tags dropped, whitespace collapsed. */
export function plainText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/gi, ' ')
    .replace(/<style[\s\S]*?<\/style>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

const CASHTAG = /\$([A-Za-z][A-Za-z0-9]{1,9})\b/g

export function cashtagsOf(text: string): string[] {
  return [...new Set([...text.matchAll(CASHTAG)].map((match) => match[1]!.toUpperCase()))]
}

function seconds(date: string): number | null {
  const ms = Date.parse(date)
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null
}

function post(
  feed: string,
  fields: { id: string; author: string; date: string; title: string; html: string; link: string },
): Post {
  const title = plainText(fields.title)
  const text = plainText(fields.html)
  return {
    id: fields.id || fields.link || `${feed}:${title}`,
    feed,
    kind: 'article',
    author: plainText(fields.author) || null,
    account: null,
    at: seconds(fields.date),
    title,
    text,
    link: fields.link || null,
    cashtags: cashtagsOf(`${title} ${text}`),
  }
}

/** The posts of one feed document (RSS 2.0 `rss/channel/item` or Atom `feed/entry`); [] when it is neither. */
export function parseFeed(feed: string, xml: string): Post[] {
  const document = parser.parse(xml) as Record<string, Node>
  const rss = (document.rss as Record<string, Node> | undefined)?.channel as Record<string, unknown> | undefined
  if (rss) {
    const items = (rss.item as Record<string, unknown>[] | undefined) ?? []
    return items.map((item) =>
      post(feed, {
        id: textOf(item.guid),
        author: textOf(item['dc:creator'] ?? item.author),
        date: textOf(item.pubDate ?? item['dc:date']),
        title: textOf(item.title),
        html: textOf(item['content:encoded'] ?? item.description),
        link: textOf(item.link),
      }),
    )
  }
  const atom = document.feed as Record<string, unknown> | undefined
  if (atom) {
    const entries = (atom.entry as Record<string, unknown>[] | undefined) ?? []
    return entries.map((entry) => {
      const links = ([] as unknown[]).concat(entry.link ?? [])
      const alternate = links.find((link) => (link as Record<string, string>)['@rel'] !== 'self') as
        | Record<string, string>
        | undefined
      return post(feed, {
        id: textOf(entry.id),
        author: textOf((entry.author as Record<string, unknown> | undefined)?.name),
        date: textOf(entry.published ?? entry.updated),
        title: textOf(entry.title),
        html: textOf(entry.content ?? entry.summary),
        link: alternate?.['@href'] ?? '',
      })
    })
  }
  return []
}

/** Posts of several feeds, one per link (or id), newest first. */
export function mergePosts(lists: readonly Post[][]): Post[] {
  const seen = new Map<string, Post>()
  for (const list of lists)
    for (const entry of list) if (!seen.has(entry.link ?? entry.id)) seen.set(entry.link ?? entry.id, entry)
  return [...seen.values()].sort((a, b) => (b.at ?? 0) - (a.at ?? 0))
}

/** A post's words as read everywhere (the lexicon, the model): its title and text. */
export const postText = (post: Post) => [post.title, post.text].filter((part) => part !== '').join(' — ')
