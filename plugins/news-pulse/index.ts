import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { arrivalOf } from '../../src/http/request.ts'
import { routeOptions } from '../../src/http/route-options.ts'
import { deadlinesOf, hasPosts, NEWS_ANSWER_MS, NO_POSTS } from '../../src/news/news-reading.ts'
import { manifest } from './manifest.ts'
import { pulseAnswer } from './service.ts'

export { manifest }

/** `POST /news/pulse` (0.01 USD): the crowd's lean, scored without a language model. */
export function newsPulsePlugin(ctx: ServiceContext) {
  if (!hasPosts(ctx)) {
    ctx.registry.switchOff(manifest, NO_POSTS)
    return new Elysia({ name: 'plugin:news-pulse' })
  }
  ctx.registry.register(manifest)
  const { pulse } = manifest.routes
  return new Elysia({ name: 'plugin:news-pulse' }).post(
    pulse.path,
    ({ body, request }) => pulseAnswer(ctx, body, deadlinesOf(arrivalOf(request), NEWS_ANSWER_MS.pulse)),
    routeOptions(ctx, pulse),
  )
}
