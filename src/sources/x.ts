import { Type, type Static } from '@sinclair/typebox'
import { cashtagsOf, type Post } from './news-posts.ts'
import type { SharedCache } from '../store/shared-cache.ts'
import { HttpJsonSource } from './http-json.ts'
import type { CallMeter } from './upstream.ts'

/**
 * The members of X API v2 `GET /2/tweets/search/recent` we read, asked with `expansions=author_id` and
 * `user.fields=created_at,public_metrics,verified` (recorded answers: test/fixtures/recorded/x/).
 * `data` is absent when nothing matched. Other members are allowed and ignored.
 */
export const XSearchSchema = Type.Object({
  data: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.String(),
        text: Type.String(),
        author_id: Type.Optional(Type.String()),
        created_at: Type.Optional(Type.String()),
      }),
    ),
  ),
  includes: Type.Optional(
    Type.Object({
      users: Type.Optional(
        Type.Array(
          Type.Object({
            id: Type.String(),
            username: Type.String(),
            name: Type.Optional(Type.String()),
            created_at: Type.Optional(Type.String()),
            verified: Type.Optional(Type.Boolean()),
            public_metrics: Type.Optional(Type.Object({ followers_count: Type.Optional(Type.Number()) })),
          }),
        ),
      ),
    }),
  ),
  meta: Type.Optional(Type.Object({ result_count: Type.Optional(Type.Number()) })),
})
export type XSearch = Static<typeof XSearchSchema>

/** Recent search answers at most 100 posts a page (docs.x.com: max_results 10 to 100). */
export const X_MAX_RESULTS = 100
/**
 * An answer is reused for two minutes, so a busy symbol costs at most one search per window of
 * callers. Calls to api.x.com are paced to the app's plan, X_SEARCHES_PER_15_MIN: self-serve access
 * allows 60 recent searches per 15 minutes per app (docs.x.com, "Comparing X API's Search Posts
 * endpoints"), pay-per-use 450.
 */
export const X_SEARCH_TTL_MS = 2 * 60_000

const seconds = (date: string | undefined) => {
  const ms = date === undefined ? Number.NaN : Date.parse(date)
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null
}

/** A recent-search answer as posts, each with its author's account (handle, followers, age, verified). */
export function postsOfSearch(answer: XSearch): Post[] {
  const users = new Map((answer.includes?.users ?? []).map((user) => [user.id, user]))
  return (answer.data ?? []).map((tweet) => {
    const user = tweet.author_id === undefined ? undefined : users.get(tweet.author_id)
    return {
      id: `x:${tweet.id}`,
      feed: 'x',
      kind: 'social' as const,
      author: user ? `@${user.username}` : null,
      account: user
        ? {
            handle: user.username,
            followers: user.public_metrics?.followers_count ?? null,
            created_at: seconds(user.created_at),
            verified: user.verified ?? null,
          }
        : null,
      at: seconds(tweet.created_at),
      title: '',
      text: tweet.text,
      link: user ? `https://x.com/${user.username}/status/${tweet.id}` : `https://x.com/i/web/status/${tweet.id}`,
      cashtags: cashtagsOf(tweet.text),
    }
  })
}

/** X (Twitter) API v2 recent search behind an app's bearer token (X_BEARER_TOKEN). */
export class XSource {
  readonly #http: HttpJsonSource

  constructor(options: {
    baseUrl: string
    bearerToken: string
    cache?: SharedCache
    limit?: { requests: number; windowMs: number }
  }) {
    this.#http = new HttpJsonSource({
      name: 'x',
      baseUrl: options.baseUrl,
      headers: { authorization: `Bearer ${options.bearerToken}` },
      cache: options.cache,
      limit: options.limit,
    })
  }

  get upstream() {
    return this.#http.upstream
  }

  /** The last week's posts matching `query` (X's search syntax), newest first, up to 100. */
  async search(query: string, meter: CallMeter): Promise<Post[]> {
    const parameters = new URLSearchParams({
      query,
      max_results: String(X_MAX_RESULTS),
      'tweet.fields': 'created_at,author_id',
      expansions: 'author_id',
      'user.fields': 'created_at,public_metrics,verified',
    })
    const answer = await this.#http.get(`/2/tweets/search/recent?${parameters}`, XSearchSchema, meter, X_SEARCH_TTL_MS)
    return postsOfSearch(answer)
  }
}
