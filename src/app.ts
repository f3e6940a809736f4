import { Elysia, type AnyElysia } from 'elysia'
import { a2aPlugin } from '../plugins/a2a/index.ts'
import { deepDivePlugin } from '../plugins/deep-dive/index.ts'
import { discoveryPlugin } from '../plugins/discovery/index.ts'
import { exitCheckPlugin } from '../plugins/exit-check/index.ts'
import { exitCrossCheckPlugin } from '../plugins/exit-cross-check/index.ts'
import { launchRadarPlugin } from '../plugins/launch-radar/index.ts'
import { graduationRadarPlugin } from '../plugins/graduation-radar/index.ts'
import { graduationMomentumPlugin } from '../plugins/graduation-momentum/index.ts'
import { smartMoneyPlugin } from '../plugins/smart-money/index.ts'
import { marketIntelPlugin } from '../plugins/market-intel/index.ts'
import { type Dispatch, mcpPlugin } from '../plugins/mcp/index.ts'
import { quickScanPlugin } from '../plugins/quick-scan/index.ts'
import { quickScanBatchPlugin } from '../plugins/quick-scan-batch/index.ts'
import { signalRadarPlugin } from '../plugins/signal-radar/index.ts'
import { tradePlugin } from '../plugins/trade/index.ts'
import { trendingPlugin } from '../plugins/trending/index.ts'
import { walletIntelPlugin } from '../plugins/wallet-intel/index.ts'
import { watchPlugin } from '../plugins/watch/index.ts'
import { webPlugin } from '../plugins/web/index.ts'
import { metricsPlugin } from '../plugins/metrics/index.ts'
import { tradeSuggestPlugin } from '../plugins/trade-suggest/index.ts'
import { newsPulsePlugin } from '../plugins/news-pulse/index.ts'
import { newsWrittenPlugin } from '../plugins/news-written/index.ts'
import type { ServiceContext } from './context.ts'
import { core } from './http/core-plugin.ts'
import { frontDoor, type Service } from './http/front-door.ts'
import { ManifestError, type Registry } from './kernel/manifest.ts'

/**
 * The plugin list: every feature plugin, one line each, in the order they mount (the order of
 * /openapi.json's paths). Static imports, so `bun build --compile` embeds them and types flow. Each
 * plugin carries its manifest and registers it when it is constructed.
 */
const PLUGINS = [
  discoveryPlugin,
  quickScanPlugin,
  quickScanBatchPlugin,
  marketIntelPlugin,
  deepDivePlugin,
  tradePlugin,
  exitCheckPlugin,
  exitCrossCheckPlugin,
  trendingPlugin,
  signalRadarPlugin,
  walletIntelPlugin,
  launchRadarPlugin,
  graduationRadarPlugin,
  graduationMomentumPlugin,
  smartMoneyPlugin,
  newsPulsePlugin,
  newsWrittenPlugin,
  tradeSuggestPlugin,
  watchPlugin,
  metricsPlugin,
  mcpPlugin,
  a2aPlugin,
  webPlugin,
] as const

/**
 * The manifests of the plugins above, as one list: the client SDK derives every route's input and output
 * types from it (a new route of these plugins is typed without hand work).
 */
export const SERVICE_MANIFESTS = PLUGINS.map((plugin) => plugin.manifest)

export interface AppOptions {
  /** Further plugins mounted after the built-in ones (test fixtures, embedders). */
  plugins?: AnyElysia[]
}

/**
 * The service: its front door (src/http/front-door.ts), then the framework app — the core, then every
 * plugin of the plugin list, in its order. Each plugin registers its manifest when it is constructed; a
 * duplicate route or skill id throws ManifestError here, before anything listens.
 */
export function createApp(ctx: ServiceContext, options: AppOptions = {}): Service {
  // The MCP plugin answers a tool call as its route's HTTP call, through the front door built below.
  let service: Service | undefined
  const app = new Elysia({ name: 'solsentry' }).use(core(ctx))
  const dispatch: Dispatch = (request, server) => service!.handle(request, server)
  for (const plugin of PLUGINS) app.use(plugin(ctx, dispatch))
  for (const plugin of options.plugins ?? []) app.use(plugin)
  checkRoutesMatchManifests(app, ctx.registry)
  ctx.registry.checkPaymentsMounted()
  ctx.registry.checkDependencies()
  service = frontDoor(ctx, app)
  return service
}

/**
 * Discovery advertises what the manifests declare, so every declared route must be served and every
 * served route declared (CORS preflight aside).
 */
function checkRoutesMatchManifests(app: AnyElysia, registry: Registry): void {
  const served = new Set(
    app.routes.filter((route) => route.method !== 'OPTIONS').map((route) => `${route.method} ${route.path}`),
  )
  for (const route of registry.routes())
    if (!served.has(route.key))
      throw new ManifestError(`plugin:${route.plugin} declares ${route.key} but does not serve it`)
  for (const key of served)
    if (!registry.routes().some((route) => route.key === key))
      throw new ManifestError(`${key} is served but declared in no plugin manifest`)
}
