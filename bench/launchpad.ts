/**
 * What a launchpad radar costs to read the day's index (plugins/launch-radar/service.ts, readIndex): an
 * index of `--curves` curves with `--trades` trades each (SQLite), read cold, read again with nothing
 * changed, and read after a tenth of the curves traded once more. Prints milliseconds per read (the
 * event loop is busy for about that long: SQLite answers synchronously).
 *
 *   npm run bench -- launchpad [--curves 1000] [--trades 100]
 */
import { openDatabase } from '../src/runtime/sqlite-driver.ts'
import type { ServiceContext } from '../src/context.ts'
import { readIndex } from '../src/launchpad-index/reading.ts'
import type { TradeEvent } from '../src/onchain/pump-events.ts'
import { type IndexedEvent, sqliteLaunches } from '../src/store/launches.ts'
import { numberOption } from './load.ts'

export async function run(args: string[]): Promise<void> {
  const curves = numberOption(args, 'curves', 1_000)
  const tradesEach = numberOption(args, 'trades', 100)
  const launches = sqliteLaunches(openDatabase(':memory:'))
  const ctx = { store: { launches }, launchpad: undefined } as unknown as ServiceContext
  const now = Math.floor(Date.now() / 1000)
  const address = (prefix: string, n: number) => `${prefix}${n}`.padEnd(44, '_')
  let slot = 1n
  const trade = (c: number, t: number): IndexedEvent => ({
    signature: address(`T${c}x`, t),
    slot: slot++,
    index: 0,
    event: {
      kind: 'trade',
      mint: address('M', c),
      solAmount: 100_000_000n,
      tokenAmount: 3_000_000_000_000n,
      isBuy: t % 3 !== 0,
      user: address('W', t % 40),
      timestamp: now - 2_000 + t,
      virtualSolReserves: 30_000_000_000n + BigInt(t) * 1_000n,
      virtualTokenReserves: 1_073_000_000_000_000n - BigInt(t) * 1_000n,
      realSolReserves: null,
      realTokenReserves: null,
    } satisfies TradeEvent,
  })
  for (let c = 0; c < curves; c++) {
    const events: IndexedEvent[] = [
      {
        signature: address('S', c),
        slot: slot++,
        index: 0,
        event: {
          kind: 'create',
          name: `Coin ${c}`,
          symbol: `C${c}`,
          uri: '',
          mint: address('M', c),
          bondingCurve: address('B', c),
          user: address('U', c),
          creator: address('U', c),
          timestamp: now - 3_000,
          virtualTokenReserves: 1_073_000_000_000_000n,
          virtualSolReserves: 30_000_000_000n,
          realTokenReserves: 793_100_000_000_000n,
          tokenTotalSupply: 1_000_000_000_000_000n,
        },
      },
    ]
    for (let t = 0; t < tradesEach; t++) events.push(trade(c, t))
    await launches.apply(events)
  }
  const timed = async (what: string, nowS: number) => {
    const started = performance.now()
    const { reads } = await readIndex(ctx, nowS)
    return { what, ms: performance.now() - started, curves: reads.length }
  }
  const rows = [
    await timed('cold (every curve read)', now),
    await timed('again, nothing changed, same second', now),
    await timed('again, nothing changed, next second', now + 1),
  ]
  for (let c = 0; c < curves; c += 10) await launches.apply([trade(c, tradesEach)])
  rows.push(await timed('a tenth of the curves traded since', now + 1))
  console.log(`\nlaunchpad index: ${curves} curves × ${tradesEach} trades (SQLite)\n`)
  console.log('| read | curves | ms |')
  console.log('|---|---|---|')
  for (const row of rows) console.log(`| ${row.what} | ${row.curves} | ${row.ms.toFixed(1)} |`)
}
