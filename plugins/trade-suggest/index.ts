import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { arrivalOf } from '../../src/http/request.ts'
import { routeOptions } from '../../src/http/route-options.ts'
import { type SuggestRequest, suggestTrade } from './service.ts'
import { manifest } from './manifest.ts'

export { manifest }

/**
 * `POST /trade/suggest`: one trade idea, checked by every scanner. Off without JUPITER_URL
 * (the signal radar and the exit's quotes) or SOLANA_RPC_URL (every scan's facts).
 */
export function tradeSuggestPlugin(ctx: ServiceContext) {
  const name = 'plugin:trade-suggest'
  if (!ctx.sources.jupiter || !ctx.sources.solana) {
    ctx.registry.switchOff(
      manifest,
      `${ctx.sources.jupiter ? 'SOLANA_RPC_URL' : 'JUPITER_URL'} is not set: the suggestion reads the radars and runs every scanner`,
    )
    return new Elysia({ name })
  }
  ctx.registry.register(manifest)
  const { suggest } = manifest.routes
  return new Elysia({ name }).post(
    suggest.path,
    ({ body, request }) => suggestTrade(ctx, body as SuggestRequest, arrivalOf(request)),
    routeOptions(ctx, suggest),
  )
}
