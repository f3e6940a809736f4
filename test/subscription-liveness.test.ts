import { afterAll, describe, expect, test } from 'bun:test'
import pino from 'pino'
import { LogMultiplexer, type LogNotification } from '../plugins/watch/log-multiplexer.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { LaunchIngester } from '../src/launchpad-index/ingester.ts'
import { SolanaSource } from '../src/sources/solana-rpc.ts'
import { openSqliteStore } from '../src/store/sqlite.ts'
import { eventually } from './support/eventually.ts'

// A provider closing a WebSocket cleanly (code 1000) ends it without an error: @solana/kit's
// subscriptions on it neither end nor fail (src/sources/live-subscriptions.ts). The sandbox's RPC closes
// every connection that way (sandbox/faults.ts `closeWebSockets`), then the chain moves: the followers
// must notice, subscribe again and read back what they missed.

const sandbox = await startSandbox(ephemeralSandboxOptions())
afterAll(() => sandbox.stop())
const logger = pino({ level: 'silent' })
const solana = new SolanaSource({ url: sandbox.file.urls.rpc })
const mintOf = (name: string) => sandbox.file.scenarios.find((scenario) => scenario.name === name)!.mint

describe('a WebSocket closed cleanly by the RPC (code 1000)', () => {
  test('the watch engine’s log multiplexer subscribes again and reads back the transaction it missed', async () => {
    const seen: LogNotification[] = []
    const multiplexer = new LogMultiplexer({
      wsUrl: sandbox.file.urls.ws,
      solana,
      logger,
      onLogs: (notification) => void seen.push(notification),
      initialPauseMs: 50,
      maxPauseMs: 200,
      livenessMs: 100,
    })
    try {
      const mint = mintOf('rug-ready')
      await multiplexer.acquire(mint, 'liveness-1')
      expect(sandbox.faults.closeWebSockets()).toBeGreaterThan(0)
      // Landed while nothing is subscribed: only the catch-up after the new subscription can see it.
      const minted = await sandbox.rugs['mint-more'](mint, {})
      const handed = await eventually(
        'the mint after the close handed over',
        () => seen.filter((notification) => notification.signature === minted.signature),
        (found) => found.length > 0,
      )
      expect(handed[0]).toMatchObject({ account: mint })
      expect(multiplexer.counts.reconnects).toBeGreaterThanOrEqual(1)
      // Live again: the next transaction arrives by the new subscription.
      const renamed = await sandbox.rugs.rename(mint, { name: 'Liveness', symbol: 'LIVE' })
      await eventually(
        'the rename after reconnecting handed over',
        () => seen.filter((notification) => notification.signature === renamed.signature),
        (found) => found.length > 0,
      )
    } finally {
      await multiplexer.stop()
    }
  })

  test('the launchpad ingester subscribes again and indexes the trades made meanwhile', async () => {
    const store = openSqliteStore(':memory:')
    const ingester = new LaunchIngester({
      solana,
      wsUrl: sandbox.file.urls.ws,
      index: store.launches,
      logger,
      backfill: 1_000,
      livenessMs: 100,
    }).start()
    try {
      await ingester.ready
      await eventually(
        'the ingester live',
        () => ingester.status.state,
        (state) => state === 'live',
      )
      expect(sandbox.faults.closeWebSockets()).toBeGreaterThan(0)
      for (let step = 0; step < 6; step++) await sandbox.ticker.step(20)
      const coins = sandbox.ticker.coins
      const chainTrades = (pool: string) => sandbox.world.pools.tradesOf(pool).length
      expect(coins.reduce((sum, coin) => sum + chainTrades(coin.pool.address), 0)).toBeGreaterThan(0)
      for (const coin of coins)
        await eventually(
          `${coin.symbol}'s trades indexed`,
          async () => (await store.launches.trades(coin.mint)).length,
          (count) => count === chainTrades(coin.pool.address),
        )
      expect(ingester.status.reconnects).toBeGreaterThanOrEqual(1)
    } finally {
      await ingester.stop()
    }
  })
})
