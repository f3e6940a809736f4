import type { FeedDeadlines } from '../feeds/feed-answer.ts'
import { Elysia } from 'elysia'
import type { ServiceContext } from '../context.ts'
import type { PluginManifest, RouteSpec } from '../kernel/manifest.ts'
import { arrivalOf } from './request.ts'
import { routeOptions } from './route-options.ts'

/** A catalogue feed over one upstream source: off (not mounted, not advertised) when that source is not configured. */
export interface FeedDefinition<Routes extends Record<string, RouteSpec>, Source> {
  manifest: PluginManifest<Routes>
  route: keyof Routes & string
  /** The source the feed cannot answer without, or undefined when it is not configured. */
  source(ctx: ServiceContext): Source | undefined
  /** Why the route is off when the source is missing: the setting to set. */
  offBecause: string
  /** From the request's arrival to the last read of the feed itself, and to the answer's cut-off, in ms. */
  feedMs: number
  answerMs: number
  answer(ctx: ServiceContext, source: Source, body: never, deadlines: FeedDeadlines): Promise<unknown>
}

/** Builds a feed plugin: registers its manifest and serves its route, or switches it off (logged at start). */
export function defineFeed<Routes extends Record<string, RouteSpec>, Source>(
  definition: FeedDefinition<Routes, Source>,
) {
  const { manifest } = definition
  const spec = manifest.routes[definition.route]!
  return function feedPlugin(ctx: ServiceContext) {
    const name = `plugin:${manifest.name}`
    const source = definition.source(ctx)
    if (source === undefined) {
      ctx.registry.switchOff(manifest, definition.offBecause)
      return new Elysia({ name })
    }
    ctx.registry.register(manifest)
    return new Elysia({ name }).post(
      spec.path,
      ({ body, request }) => {
        const arrival = arrivalOf(request)
        return definition.answer(ctx, source, body as never, {
          feedAt: arrival + definition.feedMs,
          answerAt: arrival + definition.answerMs,
        })
      },
      routeOptions(ctx, spec),
    )
  }
}
