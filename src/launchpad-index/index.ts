import type { ServiceContext } from '../context.ts'
import { urlForLogs } from '../kernel/logger.ts'
import { redisClient } from '../store/redis.ts'
import { LaunchIngester } from './ingester.ts'
import type { LaunchFollower } from '../store/launches.ts'
import { LeasedIngester } from './lease.ts'

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

/** How long the ingesting instance's lease lasts without renewal (Redis) by default: LAUNCHPAD_LEASE_MS. */
export const LEASE_MS = 15_000

/**
 * Starts following the launchpad when the RPC is configured and LAUNCHPAD_INGEST allows; sets
 * ctx.launchpad. Alone (no REDIS_URL) this instance ingests; sharing a Redis, the instance holding the
 * lease ingests into the shared index and the others stand by (src/launchpad-index/lease.ts).
 */
export function startLaunchIngester(
  ctx: ServiceContext,
  options: { leaseMs?: number } = {},
): LaunchFollower | undefined {
  const solana = ctx.sources.solana
  if (!solana || !ctx.config.SOLANA_RPC_URL || !ctx.config.LAUNCHPAD_INGEST) return undefined
  const wsUrl = webSocketOf(ctx.config.SOLANA_RPC_URL, ctx.config.SOLANA_WS_URL)
  const ingester = () =>
    new LaunchIngester({
      solana,
      wsUrl,
      index: ctx.store.launches,
      logger: ctx.logger,
      backfill: BACKFILL[solana.provider.name],
    }).start()
  const follower: LaunchFollower = ctx.config.REDIS_URL
    ? new LeasedIngester({
        client: redisClient(ctx.config.REDIS_URL),
        instanceId: ctx.instanceId,
        index: ctx.store.launches,
        logger: ctx.logger,
        leaseMs: options.leaseMs ?? ctx.config.LAUNCHPAD_LEASE_MS ?? LEASE_MS,
        ingester,
      }).start()
    : ingester()
  ctx.launchpad = follower
  ctx.logger.info({ ws: urlForLogs(wsUrl), shared: ctx.config.REDIS_URL !== undefined }, 'launchpad ingester started')
  return follower
}
