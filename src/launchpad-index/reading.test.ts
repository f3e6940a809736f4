import { expect, test } from 'bun:test'
import { createEvent } from '../../test/support/launch-events.ts'
import { openDatabase } from '../runtime/sqlite-driver.ts'
import type { ServiceContext } from '../context.ts'
import { sqliteLaunches } from '../store/launches.ts'
import { readIndex } from './reading.ts'

const MINT = 'Gd6iFzpzAwVCDDDJyxZnnHXTT27nL9PSkUKMJejSuJnp'
const NOW = 2_000_000_000
const create = createEvent(MINT, NOW - 600)
const buy = (signature: string, slot: number, user: string, reserves: bigint) => ({
  signature,
  slot: BigInt(slot),
  index: 0,
  event: {
    kind: 'trade' as const,
    mint: MINT,
    solAmount: 1_000_000_000n,
    tokenAmount: 30_000_000_000_000n,
    isBuy: true,
    user,
    timestamp: NOW - 500 + slot,
    virtualSolReserves: 31_000_000_000n + BigInt(slot),
    virtualTokenReserves: reserves,
    realSolReserves: null,
    realTokenReserves: null,
  },
})

test('the index is read again only where it changed: unchanged trades are kept, a new one (even a late one) is read', async () => {
  const launches = sqliteLaunches(openDatabase(':memory:'))
  const ctx = { store: { launches }, launchpad: undefined } as unknown as ServiceContext
  await launches.apply([
    { signature: 'c', slot: 10n, index: 0, event: create },
    buy('t1', 11, 'a', 1_040_000_000_000_000n),
    buy('t2', 12, 'b', 1_000_000_000_000_000n),
  ])
  const first = await readIndex(ctx, NOW)
  expect(first.reads).toHaveLength(1)
  expect(first.reads[0]!.trades).toHaveLength(2)
  expect(first.reads[0]!.reading.uniqueTraders).toBe(2)

  // Nothing changed: the same trades and, within the second, the same reading.
  const again = await readIndex(ctx, NOW)
  expect(again.reads[0]!.trades).toBe(first.reads[0]!.trades)
  expect(again.reads[0]!.reading).toBe(first.reads[0]!.reading)
  // A second later, the reading is computed again (ages move), from the same trades.
  const later = await readIndex(ctx, NOW + 1)
  expect(later.reads[0]!.trades).toBe(first.reads[0]!.trades)
  expect(later.reads[0]!.reading).not.toBe(first.reads[0]!.reading)

  // A trade read late (an older slot: the curve's row does not move) is still seen, at once.
  await launches.apply([buy('t0', 9, 'c', 1_060_000_000_000_000n)])
  const after = await readIndex(ctx, NOW + 1)
  expect(after.reads[0]!.trades).toHaveLength(3)
  expect(after.reads[0]!.reading.uniqueTraders).toBe(3)
})
