import { Type } from '@sinclair/typebox'
import { SchemaVersion } from '../kernel/schemas.ts'
import { COHORTS } from './cohorts.ts'
import { DataQuality, Nullable, NullableNumber } from '../pipeline/schemas.ts'

export const WINDOW_HOURS = { default: 24, max: 168 } as const

/** Every /news route reads its subject and posts within 6 s of the request's arrival (each manifest's `readAt`). */
export const NEWS_READ_MS = 6_000

/** What the /news routes cannot answer without: a source of posts, the feeds or X. */
export const NEEDS_POSTS = {
  source: ['news', 'x'],
  why: 'neither NEWS_FEEDS nor X_API_URL with X_BEARER_TOKEN is set: the /news routes read posts from them',
} as const

export const Signal = Type.Union(
  ['BULLISH', 'BEARISH', 'NEUTRAL', 'MIXED'].map((value) => Type.Literal(value)),
  { description: 'How the posts lean (docs/catalogue.md, "News: the pulse")' },
)
export const Count = (description: string) => Type.Integer({ minimum: 0, description })

export const NewsRequest = Type.Object({
  symbol: Type.Optional(
    Type.String({
      pattern: '^(|\\$?[A-Za-z0-9]{1,10}|[1-9A-HJ-NP-Za-km-z]{32,44})$',
      default: '',
      description:
        'A ticker (BONK or $BONK) or a Solana mint; empty or absent = the market as a whole. A ticker is resolved to its mint through the token list',
    }),
  ),
  window_hours: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: WINDOW_HOURS.max,
      default: WINDOW_HOURS.default,
      description: `How far back posts count, hours (1 to ${WINDOW_HOURS.max}, default ${WINDOW_HOURS.default})`,
    }),
  ),
})

export const Subject = Type.Object(
  {
    query: Type.String({ description: 'What was asked (empty for the market)' }),
    scope: Type.Union([Type.Literal('market'), Type.Literal('token')]),
    symbol: Nullable(Type.String()),
    name: Nullable(Type.String()),
    mint: Nullable(Type.String(), { description: 'The mint the ticker resolved to; null when no listed token has it' }),
    ambiguous: Type.Boolean({ description: 'True when several listed tokens share the ticker (see candidates)' }),
    candidates: Type.Array(
      Type.Object({
        mint: Type.String(),
        symbol: Type.String(),
        name: Type.String(),
        verified: Type.Boolean(),
        liquidity_usd: NullableNumber('USD in its pools, per the token list'),
      }),
      { description: 'Every listed token of the ticker, most likely first (verified, then most liquid; at most 5)' },
    ),
  },
  { description: 'What the answer is about' },
)

export const Tally = {
  signal: Signal,
  posts: Count('Posts read about the subject in the window'),
  bull: Count('Posts leaning bullish'),
  bear: Count('Posts leaning bearish'),
  neutral: Count('Posts leaning neither way'),
}
export const TopTerms = Type.Array(Type.Object({ term: Type.String(), count: Type.Integer({ minimum: 1 }) }), {
  description: 'The lexicon terms that leaned the posts, most used first (at most 10)',
})

export const Envelope = {
  schema_version: SchemaVersion,
  data_quality: DataQuality,
  missing_fields: Type.Array(Type.String(), {
    description: 'Sources that could not be read (news:<feed>, x), token_list, quick_scan, deep_dive',
  }),
  generated_at: Type.String({ description: 'When the answer was put together (ISO 8601)' }),
  subject: Subject,
  window: Type.Object({
    hours: Type.Integer(),
    from: Type.String({ description: 'ISO 8601' }),
    to: Type.String({ description: 'ISO 8601' }),
  }),
  sources: Type.Array(
    Type.Object({
      name: Type.String({ description: 'A news feed (its host) or x' }),
      posts: Count('Posts it gave before the subject and window were applied'),
      read: Type.Boolean(),
    }),
  ),
}

export const PulseResult = Type.Object(
  {
    ...Envelope,
    ...Tally,
    top_terms: TopTerms,
    method: Type.Literal('lexicon', { description: 'Scored by a documented lexicon, without a language model' }),
    summary: Type.String(),
  },
  { description: 'How the crowd leans on a token or the market now' },
)

export const Refs = Type.Array(Type.String(), { description: 'Refs of the posts (in `posts`) this rests on' })
export const Claim = Type.Object({ text: Type.String(), post_refs: Refs })
export const Posts = Type.Array(
  Type.Object({
    ref: Type.String({ description: 'p1, p2, … as cited' }),
    id: Type.String({ description: "The post's id at its source" }),
    source: Type.String(),
    kind: Type.Union([Type.Literal('article'), Type.Literal('social')]),
    cohort: Type.Union(COHORTS.map((cohort) => Type.Literal(cohort))),
    author: Nullable(Type.String()),
    fresh_account: Nullable(Type.Boolean(), {
      description: 'A social account made within 30 days of the post; null when its age is not given',
    }),
    lean: Type.Union([Type.Literal('bull'), Type.Literal('bear'), Type.Literal('neutral')]),
    at: Nullable(Type.String()),
    text: Type.String({ description: 'Title and text as the model read them (at most 400 characters)' }),
    link: Nullable(Type.String()),
  }),
  { description: 'The posts the model was given, newest first' },
)
export const Model = Type.Object(
  {
    name: Type.String({ description: 'The model that wrote the text, as its API names itself' }),
    prompt_tokens: Nullable(Type.Integer()),
    completion_tokens: Nullable(Type.Integer()),
    max_tokens: Type.Integer({ description: "The route's completion budget" }),
    reused: Type.Boolean({
      description:
        'True when the same question (same posts, same task) was answered within the last minute and that text reused: no tokens spent',
    }),
  },
  { description: 'Who wrote the text, and what it cost in tokens' },
)
export const PostChecks = Type.Object(
  {
    withheld_posts: Type.Array(Type.String(), {
      description: 'Ids of posts that read as a prompt injection: counted in the pulse, never shown to the model',
    }),
    dropped_uncited: Count('Entries the model wrote without citing a post it was given: dropped'),
    unknown_refs: Type.Array(Type.String(), { description: 'Refs the model cited that name no post: removed' }),
    unresolved_tickers: Type.Array(Type.String(), {
      description: 'Tickers the model wrote that resolve to no listed token: redacted in text, dropped from lists',
    }),
  },
  { description: "The checks the model's text passed before it was shown (docs/catalogue.md)" },
)
export const Written = { posts: Posts, model: Model, post_checks: PostChecks }
export const PulseTally = Type.Object({ ...Tally, top_terms: TopTerms })
export const CohortTally = Type.Object(Tally)
export const Cohorts = Type.Object(
  { ecosystem: CohortTally, analysts: CohortTally, degens: CohortTally },
  {
    description:
      'The pulse of each cohort: the ecosystem’s own accounts, analysts (news desks, established accounts), degens',
  },
)
export const Coordination = Type.Object(
  {
    coordinated: Type.Boolean({
      description: 'Near-identical posts pushed by several accounts, mostly fresh, or a large share of the talk',
    }),
    pushes: Type.Array(
      Type.Object({
        post_ids: Type.Array(Type.String()),
        accounts: Count('Distinct accounts that posted it'),
        fresh_accounts: Count('Of them, accounts made within 30 days'),
        sample: Type.String({ description: 'What was pushed' }),
      }),
    ),
    push_post_share: Type.Number({ description: 'Share of the social posts that belong to a push (0–1)' }),
    fresh_account_share: NullableNumber(
      'Share of the posting accounts made within 30 days (0–1); null when no ages are given',
    ),
    fresh_accounts: Count('Posting accounts made within 30 days'),
  },
  { description: 'Whether the talk looks organised (docs/catalogue.md, "News: cohorts and coordination")' },
)

/** What every /news route's description says of its posts. */
export const NEWS_SOURCES =
  'Posts come from public news feeds (RSS/Atom) and, when configured, X recent search (the last week), merged one per link.'
