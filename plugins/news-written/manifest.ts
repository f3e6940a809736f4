import { defineManifest } from '../../src/kernel/manifest.ts'
import { NEEDS_POSTS, NEWS_READ_MS, NEWS_SOURCES, NewsRequest } from '../../src/news/schemas.ts'
import { BriefResult, PulsePlusResult, ReportResult } from './schemas.ts'

const WRITTEN =
  'Written by a language model (named in `model`) from the posts given as quoted data; every claim cites its posts, every ticker resolves to a listed mint (`post_checks`). 503 UPSTREAM_UNAVAILABLE (not charged) when the model cannot answer.'

/** What the written routes cannot answer without: the language model, then a source of posts. */
const REQUIRES = [
  { source: 'llm', why: 'LLM_URL is not set: briefs, cohort syntheses and reports are written by a language model' },
  NEEDS_POSTS,
] as const

export const manifest = defineManifest({
  name: 'news-written',
  dependsOn: ['deep-dive'],
  routes: {
    brief: {
      method: 'POST',
      path: '/news/brief',
      summary: 'A short written brief of what is being said, with the quick scan beside it',
      description: `The pulse of \`symbol\` (or the market), a headline, a 2–4 sentence brief and cited claims, and the token's quick-scan grade. ${NEWS_SOURCES} ${WRITTEN} Answers within 20 s.`,
      price: { usd: '0.05' },
      accounts: { symbol: 'token_mint' },
      body: NewsRequest,
      response: BriefResult,
      rateLimit: 'scanner',
      errors: ['UPSTREAM_UNAVAILABLE'],
      tags: ['catalogue'],
      // Answers within 20 s.
      deadlineMs: { readAt: NEWS_READ_MS, answerAt: 19_500 },
      requires: REQUIRES,
    },
    pulsePlus: {
      method: 'POST',
      path: '/news/pulse_plus',
      summary: 'The pulse split by cohort (ecosystem, analysts, degens), coordination, and a synthesis',
      description: `The pulse of each cohort — the ecosystem's own accounts, analysts (news desks, established accounts), degens — whether they disagree, whether the talk looks coordinated (near-identical posts from many, mostly fresh, accounts), and a written synthesis. ${NEWS_SOURCES} ${WRITTEN} Answers within 25 s.`,
      price: { usd: '0.10' },
      accounts: { symbol: 'token_mint' },
      body: NewsRequest,
      response: PulsePlusResult,
      rateLimit: 'scanner',
      errors: ['UPSTREAM_UNAVAILABLE'],
      tags: ['catalogue'],
      // Answers within 25 s.
      deadlineMs: { readAt: NEWS_READ_MS, answerAt: 24_500 },
      requires: REQUIRES,
    },
    report: {
      method: 'POST',
      path: '/news/report',
      summary: 'A full report: distinct takes, synthesis, risks raised, a watch list, and the deep dive',
      description: `The distinct takes with their stance, a synthesis, the risks the posts raise, a watch list of other tickers discussed (each resolved to a listed mint; invented or unlisted ones are dropped), the cohorts and coordination, and the token's deep dive (grade, recommendation, key risks, flags). ${NEWS_SOURCES} ${WRITTEN} Answers within 40 s.`,
      price: { usd: '0.25' },
      accounts: { symbol: 'token_mint' },
      body: NewsRequest,
      response: ReportResult,
      rateLimit: 'scanner',
      errors: ['UPSTREAM_UNAVAILABLE'],
      tags: ['catalogue'],
      // Answers within 40 s.
      deadlineMs: { readAt: NEWS_READ_MS, answerAt: 39_500 },
      requires: REQUIRES,
    },
  },
})
