import { beforeDeadline } from '../kernel/deadline.ts'
import { mergePosts, parseFeed, type Post } from './news-posts.ts'
import type { SharedCache } from '../store/shared-cache.ts'
import { HttpJsonSource } from './http-json.ts'
import type { CallMeter } from './upstream.ts'

/**
 * Feeds are read at most every five minutes: the recorded feeds declare `<ttl>5</ttl>` or publish a
 * few items an hour (test/fixtures/recorded/news/), so every caller in that window shares one read.
 */
export const FEED_TTL_MS = 5 * 60_000

/**
 * Each feed's short name — its host without `www.`, or host and path when several feeds share a host —
 * as posts carry it (`feed`) and as a missing field names it (`news:<name>`).
 */
export function feedNames(urls: readonly string[]): string[] {
  const hosts = urls.map((url) => new URL(url).host.replace(/^www\./, ''))
  return urls.map((url, index) =>
    hosts.filter((host) => host === hosts[index]).length > 1
      ? `${hosts[index]}${new URL(url).pathname}`
      : hosts[index]!,
  )
}

/**
 * Public RSS/Atom news feeds (no key; NEWS_FEEDS), each its own upstream (breaker, retries, counts)
 * so one slow site does not hold the others. Sites such as Cointelegraph refuse a request without a
 * User-Agent: every request names the service.
 */
export class NewsFeedsSource {
  readonly #feeds: { name: string; path: string; http: HttpJsonSource }[]

  constructor(urls: readonly string[], options: { userAgent: string; cache?: SharedCache }) {
    const names = feedNames(urls)
    this.#feeds = urls.map((url, index) => {
      const parsed = new URL(url)
      const name = names[index]!
      return {
        name,
        path: `${parsed.pathname}${parsed.search}`,
        http: new HttpJsonSource({
          name: `news:${name}`,
          baseUrl: parsed.origin,
          headers: { 'user-agent': options.userAgent },
          cache: options.cache,
        }),
      }
    })
  }

  get upstreams() {
    return this.#feeds.map((feed) => feed.http.upstream)
  }

  get names(): string[] {
    return this.#feeds.map((feed) => feed.name)
  }

  /** One feed read uncached and parsed: the health probe's call for `news:<name>`; the number of posts it holds. */
  async probe(name: string, meter: CallMeter): Promise<number> {
    const feed = this.#feeds.find((candidate) => candidate.name === name)
    if (!feed) throw new Error(`no news feed named ${name}`)
    return parseFeed(feed.name, await feed.http.getText(feed.path, FEED_ACCEPT, meter, 0)).length
  }

  /**
   * Every feed's posts, merged one per link and newest first, read until `deadlineAt`; each feed that
   * could not be read (or parsed) is named in `failed`.
   */
  async posts(meter: CallMeter, deadlineAt: number): Promise<{ posts: Post[]; failed: string[] }> {
    const failed: string[] = []
    const lists = await Promise.all(
      this.#feeds.map(async (feed) => {
        try {
          const xml = await beforeDeadline(feed.http.getText(feed.path, FEED_ACCEPT, meter, FEED_TTL_MS), deadlineAt)
          return parseFeed(feed.name, xml)
        } catch {
          failed.push(feed.name)
          return []
        }
      }),
    )
    return { posts: mergePosts(lists), failed }
  }
}

const FEED_ACCEPT = 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.8'
