/**
 * Who is talking (POST /news/pulse_plus): every post falls in one cohort — the ecosystem's own
 * accounts, analysts (news desks, and established accounts with a following), or degens (everyone
 * else) — and a social post from an account made within FRESH_ACCOUNT_DAYS is fresh. A coordinated
 * push shows as many accounts posting near-identical text within hours, mostly fresh ones.
 * Thresholds are documented in docs/catalogue.md ("News: cohorts and coordination").
 */
import type { EcosystemAccounts } from '../onchain/ecosystem.ts'
import type { Post } from '../sources/news-posts.ts'

export const COHORTS = ['ecosystem', 'analysts', 'degens'] as const
export type Cohort = (typeof COHORTS)[number]

/** An account made this recently (days before its post) is fresh. */
export const FRESH_ACCOUNT_DAYS = 30
/** An account this old (days) with this many followers reads as an analyst. */
export const ANALYST_MIN_AGE_DAYS = 365
export const ANALYST_MIN_FOLLOWERS = 10_000
/** Posts whose word sets overlap this much (Jaccard) are near-identical. */
export const NEAR_DUPLICATE = 0.7
/** Near-identical posts this close in time (seconds) belong to one push. */
export const PUSH_WINDOW_S = 6 * 3600
/** A push needs this many distinct accounts. */
export const PUSH_MIN_ACCOUNTS = 3
/** Coordinated: a push with at least this share of its accounts fresh, or this share of all posts in pushes. */
export const PUSH_FRESH_SHARE = 0.5
export const PUSH_POST_SHARE = 0.3

const DAY = 86_400

/** Whether a social post's account was made within FRESH_ACCOUNT_DAYS of the post (null: unknown). */
export function isFresh(post: Post): boolean | null {
  const made = post.account?.created_at
  if (post.kind !== 'social' || made === null || made === undefined) return post.kind === 'social' ? null : false
  return (post.at ?? made) - made < FRESH_ACCOUNT_DAYS * DAY
}

/** A post's cohort: news desks and established accounts are analysts; listed accounts the ecosystem. */
export function cohortOf(post: Post, ecosystem: EcosystemAccounts): Cohort {
  if (post.kind === 'article') return 'analysts'
  const account = post.account
  if (account && ecosystem.projectOf(account.handle) !== null) return 'ecosystem'
  if (
    account &&
    (account.followers ?? 0) >= ANALYST_MIN_FOLLOWERS &&
    account.created_at !== null &&
    (post.at ?? account.created_at) - account.created_at >= ANALYST_MIN_AGE_DAYS * DAY
  )
    return 'analysts'
  return 'degens'
}

const wordSet = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .replace(/https?:\/\/\S+/g, ' ')
      .replace(/@\w+/g, ' ')
      .match(/[\p{L}$][\p{L}\p{N}$]*/gu) ?? [],
  )

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0
  let shared = 0
  for (const word of a) if (b.has(word)) shared++
  return shared / (a.size + b.size - shared)
}

export interface Push {
  /** The posts' ids, and how many distinct accounts posted them. */
  post_ids: string[]
  accounts: number
  fresh_accounts: number
  /** The first post's text (what was pushed). */
  sample: string
}

export interface Coordination {
  coordinated: boolean
  pushes: Push[]
  /** Share of the social posts that belong to a push. */
  push_post_share: number
  /** Share of the posting accounts that are fresh (of those whose age is known). */
  fresh_account_share: number | null
  fresh_accounts: number
}

/**
 * Near-identical social posts by several accounts within hours (a push), and whether the talk reads as
 * coordinated: a push mostly by fresh accounts, or pushes making up a large share of the posts.
 */
export function coordinationOf(posts: readonly Post[]): Coordination {
  const social = posts.filter((post) => post.kind === 'social' && post.account !== null)
  const sets = social.map((post) => wordSet(post.text))
  const taken = new Set<number>()
  const pushes: Push[] = []
  for (let i = 0; i < social.length; i++) {
    if (taken.has(i)) continue
    const group = [i]
    for (let k = i + 1; k < social.length; k++) {
      if (taken.has(k)) continue
      const apart = Math.abs((social[i]!.at ?? 0) - (social[k]!.at ?? 0))
      if (apart <= PUSH_WINDOW_S && jaccard(sets[i]!, sets[k]!) >= NEAR_DUPLICATE) group.push(k)
    }
    const handles = new Set(group.map((index) => social[index]!.account!.handle.toLowerCase()))
    if (handles.size < PUSH_MIN_ACCOUNTS) continue
    for (const index of group) taken.add(index)
    const freshHandles = new Set(
      group.filter((index) => isFresh(social[index]!) === true).map((index) => social[index]!.account!.handle),
    )
    pushes.push({
      post_ids: group.map((index) => social[index]!.id),
      accounts: handles.size,
      fresh_accounts: freshHandles.size,
      sample: social[i]!.text.slice(0, 280),
    })
  }
  const accounts = new Map<string, boolean | null>()
  for (const post of social) accounts.set(post.account!.handle.toLowerCase(), isFresh(post))
  const known = [...accounts.values()].filter((fresh) => fresh !== null)
  const fresh = known.filter(Boolean).length
  const pushShare = social.length === 0 ? 0 : taken.size / social.length
  return {
    coordinated:
      pushes.some((push) => push.fresh_accounts / push.accounts >= PUSH_FRESH_SHARE) || pushShare >= PUSH_POST_SHARE,
    pushes,
    push_post_share: Math.round(pushShare * 100) / 100,
    fresh_account_share: known.length === 0 ? null : Math.round((fresh / known.length) * 100) / 100,
    fresh_accounts: fresh,
  }
}
