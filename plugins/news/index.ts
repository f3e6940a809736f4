import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { arrivalOf } from '../../src/core/request.ts'
import { routeOptions } from '../../src/core/route-options.ts'
import {
  briefAnswer,
  type NewsDeadlines,
  type NewsRequest,
  pulseAnswer,
  pulsePlusAnswer,
  reportAnswer,
} from './news.ts'
import { pulseManifest, writtenManifest } from './manifest.ts'

export { pulseManifest, writtenManifest }

/** Every /news route reads its subject and posts within 6 s of the request's arrival. */
export const NEWS_READ_MS = 6_000
/** And answers within (ms from arrival): the pulse 8 s, the brief 20 s, the cohorts 25 s, the report 40 s. */
export const NEWS_ANSWER_MS = { pulse: 7_500, brief: 19_500, pulsePlus: 24_500, report: 39_500 } as const

const deadlinesOf = (request: Request, answerMs: number): NewsDeadlines => {
  const arrival = arrivalOf(request)
  return { readAt: arrival + NEWS_READ_MS, answerAt: arrival + answerMs }
}

/** The sources the /news routes read; none configured = the routes are off. */
const hasPosts = (ctx: ServiceContext) => ctx.sources.news !== undefined || ctx.sources.x !== undefined
const NO_POSTS = 'neither NEWS_FEEDS nor X_API_URL with X_BEARER_TOKEN is set: the /news routes read posts from them'

/** `POST /news/pulse` (0.01 USD): the crowd's lean, scored without a language model. */
export function newsPulsePlugin(ctx: ServiceContext) {
  if (!hasPosts(ctx)) {
    ctx.registry.switchOff(pulseManifest, NO_POSTS)
    return new Elysia({ name: 'plugin:news-pulse' })
  }
  ctx.registry.register(pulseManifest)
  const { pulse } = pulseManifest.routes
  return new Elysia({ name: 'plugin:news-pulse' }).post(
    pulse.path,
    ({ body, request }) => pulseAnswer(ctx, body as NewsRequest, deadlinesOf(request, NEWS_ANSWER_MS.pulse)),
    routeOptions(ctx, pulse),
  )
}

/**
 * `POST /news/brief` (0.05), `/news/pulse_plus` (0.10), `/news/report` (0.25): written by the language
 * model. Off without LLM_URL (or without any source of posts).
 */
export function newsWrittenPlugin(ctx: ServiceContext) {
  const name = 'plugin:news-written'
  if (!ctx.sources.llm || !hasPosts(ctx)) {
    ctx.registry.switchOff(
      writtenManifest,
      ctx.sources.llm
        ? NO_POSTS
        : 'LLM_URL is not set: briefs, cohort syntheses and reports are written by a language model',
    )
    return new Elysia({ name })
  }
  ctx.registry.register(writtenManifest)
  const { brief, pulsePlus, report } = writtenManifest.routes
  return new Elysia({ name })
    .post(
      brief.path,
      ({ body, request }) => briefAnswer(ctx, body as NewsRequest, deadlinesOf(request, NEWS_ANSWER_MS.brief)),
      routeOptions(ctx, brief),
    )
    .post(
      pulsePlus.path,
      ({ body, request }) => pulsePlusAnswer(ctx, body as NewsRequest, deadlinesOf(request, NEWS_ANSWER_MS.pulsePlus)),
      routeOptions(ctx, pulsePlus),
    )
    .post(
      report.path,
      ({ body, request }) => reportAnswer(ctx, body as NewsRequest, deadlinesOf(request, NEWS_ANSWER_MS.report)),
      routeOptions(ctx, report),
    )
}
