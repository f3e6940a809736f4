import { Elysia, type AnyElysia } from 'elysia'
import { deepDive, manifest as deepDiveManifest } from '../plugins/deep-dive/index.ts'
import { discovery, manifest as discoveryManifest } from '../plugins/discovery/index.ts'
import { exitCheckPlugin, manifest as exitCheckManifest } from '../plugins/exit-check/index.ts'
import { exitCrossCheckPlugin, manifest as crossCheckManifest } from '../plugins/exit-cross-check/index.ts'
import { launchRadarPlugin, manifest as launchRadarManifest } from '../plugins/launch-radar/index.ts'
import { graduationRadarPlugin, manifest as graduationRadarManifest } from '../plugins/graduation-radar/index.ts'
import { graduationMomentumPlugin, manifest as momentumManifest } from '../plugins/graduation-momentum/index.ts'
import { smartMoneyPlugin, manifest as smartMoneyManifest } from '../plugins/smart-money/index.ts'
import { marketIntel, manifest as marketIntelManifest } from '../plugins/market-intel/index.ts'
import { mcp, manifest as mcpManifest } from '../plugins/mcp/index.ts'
import { quickScan, manifest as quickScanManifest } from '../plugins/quick-scan/index.ts'
import { signalRadarPlugin, manifest as signalRadarManifest } from '../plugins/signal-radar/index.ts'
import { trade, manifest as tradeManifest } from '../plugins/trade/index.ts'
import { trendingPlugin, manifest as trendingManifest } from '../plugins/trending/index.ts'
import { walletIntelPlugin, manifest as walletIntelManifest } from '../plugins/wallet-intel/index.ts'
import { web, manifest as webManifest } from '../plugins/web/index.ts'
import { metricsPlugin, manifest as metricsManifest } from '../plugins/metrics/index.ts'
import { tradeSuggestPlugin, manifest as tradeSuggestManifest } from '../plugins/trade-suggest/index.ts'
import { newsPulsePlugin, manifest as pulseManifest } from '../plugins/news-pulse/index.ts'
import { newsWrittenPlugin, manifest as writtenManifest } from '../plugins/news-written/index.ts'
import type { ServiceContext } from './context.ts'
import { core } from './http/core-plugin.ts'
import { frontDoor, type Service } from './http/front-door.ts'
import { ManifestError, type Registry } from './kernel/manifest.ts'

/**
 * The manifests of the plugins below, as one list: the client SDK derives every route's input and output
 * types from it (a new route of these plugins is typed without hand work); a test checks it names
 * exactly the plugins `createApp` mounts.
 */
export const SERVICE_MANIFESTS = [
  discoveryManifest,
  quickScanManifest,
  marketIntelManifest,
  deepDiveManifest,
  tradeManifest,
  exitCheckManifest,
  crossCheckManifest,
  trendingManifest,
  signalRadarManifest,
  walletIntelManifest,
  launchRadarManifest,
  graduationRadarManifest,
  momentumManifest,
  smartMoneyManifest,
  pulseManifest,
  writtenManifest,
  tradeSuggestManifest,
  metricsManifest,
  mcpManifest,
  webManifest,
] as const

export interface AppOptions {
  /** Further plugins mounted after the built-in ones (test fixtures, embedders). */
  plugins?: AnyElysia[]
}

/**
 * The service: its front door (src/http/front-door.ts), then the framework app — the core, then every
 * feature plugin in a literal `.use()` chain (static imports, so `bun build --compile` embeds them and
 * types flow). Each plugin registers its manifest when it is constructed; a duplicate route or skill id
 * throws ManifestError here, before anything listens.
 */
export function createApp(ctx: ServiceContext, options: AppOptions = {}): Service {
  // The MCP plugin answers a tool call as its route's HTTP call, through the front door built below.
  let service: Service | undefined
  const app = new Elysia({ name: 'solsentry' })
    .use(core(ctx))
    .use(discovery(ctx))
    .use(quickScan(ctx))
    .use(marketIntel(ctx))
    .use(deepDive(ctx))
    .use(trade(ctx))
    .use(exitCheckPlugin(ctx))
    .use(exitCrossCheckPlugin(ctx))
    .use(trendingPlugin(ctx))
    .use(signalRadarPlugin(ctx))
    .use(walletIntelPlugin(ctx))
    .use(launchRadarPlugin(ctx))
    .use(graduationRadarPlugin(ctx))
    .use(graduationMomentumPlugin(ctx))
    .use(smartMoneyPlugin(ctx))
    .use(newsPulsePlugin(ctx))
    .use(newsWrittenPlugin(ctx))
    .use(tradeSuggestPlugin(ctx))
    .use(metricsPlugin(ctx))
    .use(mcp(ctx, (request, server) => service!.handle(request, server)))
    .use(web(ctx))
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
