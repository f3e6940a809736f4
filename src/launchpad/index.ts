import type { ServiceContext } from '../context.ts'
import { LaunchIngester } from './ingester.ts'

/** Transactions the ingester reads back when it starts or reconnects, by provider (their limits bound it). */
const BACKFILL = { public: 30, keyed: 100, unlimited: 1_000 } as const

/**
 * The WebSocket of an RPC URL: SOLANA_WS_URL, else the same host over ws(s) — a local validator's
 * http://host:port answers subscriptions on port + 1, hosted providers on the same host and port.
 */
export function webSocketOf(rpcUrl: string, configured?: string): string {
  if (configured) return configured
  const url = new URL(rpcUrl)
  const local = url.protocol === 'http:' && url.port !== ''
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
  if (local) url.port = String(Number(url.port) + 1)
  return url.toString()
}

/** Starts the launchpad ingester when the RPC is configured and LAUNCHPAD_INGEST allows; sets ctx.launchpad. */
export function startLaunchIngester(ctx: ServiceContext): LaunchIngester | undefined {
  const solana = ctx.sources.solana
  if (!solana || !ctx.config.SOLANA_RPC_URL || !ctx.config.LAUNCHPAD_INGEST) return undefined
  const wsUrl = webSocketOf(ctx.config.SOLANA_RPC_URL, ctx.config.SOLANA_WS_URL)
  const ingester = new LaunchIngester({
    solana,
    wsUrl,
    index: ctx.store.launches,
    logger: ctx.logger,
    backfill: BACKFILL[solana.provider.name],
  }).start()
  ctx.launchpad = ingester
  ctx.logger.info({ ws: wsUrl }, 'launchpad ingester started')
  return ingester
}
