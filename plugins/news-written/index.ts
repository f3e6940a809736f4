import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { arrivalOf } from '../../src/http/request.ts'
import { routeOptions } from '../../src/http/route-options.ts'
import { deadlinesOf, hasPosts, NEWS_ANSWER_MS, NO_POSTS } from '../../src/news/news-reading.ts'
import { manifest } from './manifest.ts'
import { briefAnswer, pulsePlusAnswer, reportAnswer } from './service.ts'

export { manifest }

/**
 * `POST /news/brief` (0.05), `/news/pulse_plus` (0.10), `/news/report` (0.25): written by the language
 * model. Off without LLM_URL (or without any source of posts).
 */
export function newsWrittenPlugin(ctx: ServiceContext) {
  const name = 'plugin:news-written'
  if (!ctx.sources.llm || !hasPosts(ctx)) {
    ctx.registry.switchOff(
      manifest,
      ctx.sources.llm
        ? NO_POSTS
        : 'LLM_URL is not set: briefs, cohort syntheses and reports are written by a language model',
    )
    return new Elysia({ name })
  }
  ctx.registry.register(manifest)
  const { brief, pulsePlus, report } = manifest.routes
  return new Elysia({ name })
    .post(
      brief.path,
      ({ body, request }) => briefAnswer(ctx, body, deadlinesOf(arrivalOf(request), NEWS_ANSWER_MS.brief)),
      routeOptions(ctx, brief),
    )
    .post(
      pulsePlus.path,
      ({ body, request }) => pulsePlusAnswer(ctx, body, deadlinesOf(arrivalOf(request), NEWS_ANSWER_MS.pulsePlus)),
      routeOptions(ctx, pulsePlus),
    )
    .post(
      report.path,
      ({ body, request }) => reportAnswer(ctx, body, deadlinesOf(arrivalOf(request), NEWS_ANSWER_MS.report)),
      routeOptions(ctx, report),
    )
}
