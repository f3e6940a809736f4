import { afterAll, expect, test } from 'bun:test'
import pino from 'pino'
import { createApp } from '../src/app.ts'
import { createContext } from '../src/context.ts'
import { loadConfig } from '../src/settings.ts'
import { startLaunchIngester } from '../src/launchpad-index/index.ts'
import type { LeasedIngester } from '../src/launchpad-index/lease.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { eventually } from './support/eventually.ts'
import { WAIVED_PAYMENTS } from './support/payments.ts'
import { describeWithRedis, redisForFile } from './support/redis.ts'
import { scanRequest } from './support/service.ts'

// Two instances on one Redis (a real redis-server): exactly one holds the lease and ingests the
// sandbox's live launchpad into the shared index, both answer the same radar, and killing the ingesting
// instance hands the lease to the other, which goes on ingesting.
const redis = redisForFile()
const sandbox = await startSandbox(ephemeralSandboxOptions())
afterAll(() => sandbox.stop())
/** A short lease, so a takeover happens within the test. */
const LEASE_MS = 1_500

function instance() {
  const ctx = createContext(
    loadConfig({
      DATA_DIR: ':memory:',
      ...sandbox.serviceSettings,
      REDIS_URL: redis.url,
      RATE_LIMIT_SCANNER_BURST: '100000',
    }),
    { logger: pino({ level: 'silent' }), payments: WAIVED_PAYMENTS },
  )
  const app = createApp(ctx)
  const follower = startLaunchIngester(ctx, { leaseMs: LEASE_MS }) as LeasedIngester
  const radar = async () => {
    const response = await app.handle(
      scanRequest('/launch/radar', { stage: 'new_creation', new_within_minutes: 1_440 }),
    )
    return (await response.json()) as { items: { token_address: string; trades: number }[]; index: { state: string } }
  }
  return { ctx, follower, radar }
}

describeWithRedis('the launchpad index shared through Redis', () => {
  test('one instance ingests, both answer the same feed; killing the ingester hands the lease over', async () => {
    const a = instance()
    const b = instance()
    try {
      await eventually(
        'one leader',
        () => [a.follower.leader, b.follower.leader],
        (leaders) => leaders.filter(Boolean).length === 1,
      )
      const [leader, standby] = a.follower.leader ? [a, b] : [b, a]
      // Caught up with the chain's past before the ticker moves on.
      await leader.follower.ready
      for (let i = 0; i < 8; i++) await sandbox.ticker.step(20)
      const created = sandbox.ticker.coins.map((coin) => coin.mint)
      const sameFeed = (view: Awaited<ReturnType<typeof a.radar>>) =>
        created.every((mint) => view.items.some((item) => item.token_address === mint))
      await eventually('the leader indexed every coin', () => leader.radar(), sameFeed)
      // Every trade the chain made on them, so the two reads see one settled index.
      for (const coin of sandbox.ticker.coins)
        await eventually(
          `${coin.symbol}'s trades indexed`,
          async () => (await leader.ctx.store.launches.trades(coin.mint)).length,
          (count) => count === sandbox.world.pools.tradesOf(coin.pool.address).length,
        )
      const [fromLeader, fromStandby] = [await leader.radar(), await standby.radar()]
      expect(fromStandby.items).toEqual(fromLeader.items)
      // Still exactly one ingester.
      expect([a.follower.leader, b.follower.leader].filter(Boolean)).toHaveLength(1)
      await eventually(
        'the standby reads the leader live',
        () => standby.radar(),
        (view) => view.index.state === 'live',
      )

      // The leader dies without giving the lease up: the standby takes it once it expires, and ingests.
      await leader.follower.kill()
      await eventually(
        'the standby took the lease',
        () => standby.follower.leader,
        (leader) => leader,
        { timeoutMs: 10_000 },
      )
      for (let i = 0; i < 8; i++) await sandbox.ticker.step(20)
      const newest = sandbox.ticker.coins.at(-1)!.mint
      await eventually(
        'the new leader indexed the newest coin',
        () => standby.radar(),
        (view) => view.items.some((item) => item.token_address === newest),
      )
    } finally {
      await a.follower.stop()
      await b.follower.stop()
      await a.ctx.store.close()
      await b.ctx.store.close()
    }
  }, 60_000)
})
