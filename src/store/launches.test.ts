import { describe, expect, test } from 'bun:test'
import { createEvent } from '../../test/support/launch-events.ts'
import { openBunSqlite, openNodeSqlite } from '../runtime/sqlite-driver.ts'
import type { PumpEvent, TradeEvent } from '../onchain/pump-events.ts'
import { describeWithRedis, startRedis } from '../../test/support/redis.ts'
import { type IndexedEvent, type LaunchIndex, sqliteLaunches } from './launches.ts'
import { redisLaunches } from './launches-redis.ts'
import { redisClient } from './redis.ts'

const MINT = 'Gd6iFzpzAwVCDDDJyxZnnHXTT27nL9PSkUKMJejSuJnp'
const create = createEvent(MINT, 1_000)
const trade = (at: number, user: string, virtualTokenReserves: bigint, isBuy = true): TradeEvent => ({
  kind: 'trade',
  mint: MINT,
  solAmount: 1_000_000_000n,
  tokenAmount: 30_000_000_000_000n,
  isBuy,
  user,
  timestamp: at,
  virtualSolReserves: 31_000_000_000n,
  virtualTokenReserves,
  realSolReserves: 1_000_000_000n,
  realTokenReserves: virtualTokenReserves - 279_900_000_000_000n,
})
const at = (signature: string, slot: number, index: number, event: PumpEvent): IndexedEvent => ({
  signature,
  slot: BigInt(slot),
  index,
  event,
})

/** Bun's driver and Deno's (which Bun has too): the same index on each (src/runtime/sqlite-driver.ts). */
const DRIVERS = [
  ['bun:sqlite', openBunSqlite],
  ['node:sqlite', openNodeSqlite],
] as const

for (const [driver, open] of DRIVERS)
  describe(`the launchpad index (SQLite, ${driver})`, () => {
    test('a create and its trades; applying them again counts nothing twice', async () => {
      const index = sqliteLaunches(open(':memory:'))
      const events = [
        at('a', 10, 0, create),
        at('a', 10, 1, trade(1_000, 'dev', 1_040_000_000_000_000n)),
        at('b', 12, 0, trade(1_060, 'x', 1_000_000_000_000_000n)),
      ]
      expect(await index.apply(events)).toBe(3)
      expect(await index.apply(events)).toBe(0)
      expect(await index.trades(MINT)).toHaveLength(2)
      expect(await index.curve(MINT)).toMatchObject({
        symbol: 'CURVY',
        creator: 'dev',
        createdAt: 1_000,
        createdSlot: 10n,
        virtualTokenReserves: 1_000_000_000_000_000n,
        complete: false,
        lastTradeAt: 1_060,
      })
    })

    test('an older trade read late does not move the reserves back; a completion marks the curve', async () => {
      const index = sqliteLaunches(open(':memory:'))
      await index.apply([at('late', 20, 0, trade(2_000, 'y', 900_000_000_000_000n))])
      await index.apply([at('early', 15, 0, trade(1_900, 'z', 1_010_000_000_000_000n))])
      expect((await index.curve(MINT))!.virtualTokenReserves).toBe(900_000_000_000_000n)
      // Joined mid-life: no create seen, names unknown, the creation unknown.
      expect(await index.curve(MINT)).toMatchObject({ symbol: '', createdAt: null })
      await index.apply([
        at('c', 21, 0, { kind: 'complete', user: 'y', mint: MINT, bondingCurve: 'b', timestamp: 2_001 }),
      ])
      expect(await index.curve(MINT)).toMatchObject({ complete: true, completedAt: 2_001 })
      expect((await index.curves({ since: 0, limit: 10 })).map((curve) => curve.mint)).toEqual([MINT])
      expect(await index.curves({ since: 3_000, limit: 10 })).toEqual([])
    })

    test('the cursor: where a restart resumes', async () => {
      const index = sqliteLaunches(open(':memory:'))
      expect(await index.cursor()).toBeNull()
      await index.setCursor({ slot: 5n, signature: 's5' })
      await index.setCursor({ slot: 9n, signature: 's9' })
      expect(await index.cursor()).toEqual({ slot: 9n, signature: 's9' })
    })

    test('trade counts: a curve without trades is absent; re-applied events count once, a late one counts', () =>
      countsTrades(sqliteLaunches(open(':memory:'))))
  })

/** Trade counts: what readers compare to know whether a curve's trades changed (plugins/launch-radar/service.ts). */
async function countsTrades(index: LaunchIndex) {
  const other = 'So11111111111111111111111111111111111111112'
  expect(await index.tradeCounts([MINT, other])).toEqual(new Map())
  const events = [at('a', 10, 0, create), at('a', 10, 1, trade(1_000, 'dev', 1_040_000_000_000_000n))]
  await index.apply(events)
  expect(await index.tradeCounts([MINT, other])).toEqual(new Map([[MINT, 1]]))
  // The same events again change nothing; a new trade, even an older one read late, counts.
  await index.apply(events)
  await index.apply([at('early', 9, 0, trade(990, 'z', 1_050_000_000_000_000n))])
  expect(await index.tradeCounts([MINT])).toEqual(new Map([[MINT, 2]]))
  expect(await index.trades(MINT)).toHaveLength(2)
}

describeWithRedis('the launchpad index (Redis)', () => {
  test('trade counts: a curve without trades is absent; re-applied events count once, a late one counts', async () => {
    const redis = await startRedis()
    const client = redisClient(redis.url)
    try {
      await countsTrades(redisLaunches(client))
    } finally {
      client.close()
      await redis.stop()
    }
  })
})
