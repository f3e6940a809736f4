import { describe, expect, test } from 'bun:test'
import type { TradeRow } from '../store/launches.ts'
import { smartFlows, walletRecords } from './smart-money.ts'

const trade = (user: string, isBuy: boolean, sol: number, tokens: number, at = 100): TradeRow => ({
  signature: `${user}-${at}-${isBuy}`,
  slot: BigInt(at),
  at,
  user,
  isBuy,
  solAmount: BigInt(Math.round(sol * 1e9)),
  tokenAmount: BigInt(tokens),
  virtualTokenReserves: 0n,
})
/** One coin where `user` bought for `paid` SOL and sold it all for `got`. */
const roundTrip = (user: string, paid: number, got: number) => [
  trade(user, true, paid, 1_000),
  trade(user, false, got, 1_000),
]

describe('smart money from the launchpad index', () => {
  test('proven: three round trips, two thirds won, in profit; a partial sell is no round trip', () => {
    const trades = new Map<string, TradeRow[]>([
      ['A', [...roundTrip('pro', 1, 3), ...roundTrip('loser', 1, 0.5), trade('holder', true, 1, 1_000)]],
      ['B', [...roundTrip('pro', 1, 2), ...roundTrip('loser', 1, 0.4), trade('holder', false, 1, 500)]],
      ['C', [...roundTrip('pro', 1, 0.8), ...roundTrip('loser', 1, 1.2)]],
    ])
    const { records, proven } = walletRecords(trades)
    expect([...proven]).toEqual(['pro'])
    expect(records.get('pro')).toMatchObject({ roundTrips: 3, wins: 2 })
    expect(records.get('pro')!.pnlSol).toBeCloseTo(2.8, 6)
    expect(records.get('loser')).toMatchObject({ roundTrips: 3, wins: 1 })
    expect(records.has('holder')).toBe(false)
  })

  test('flows: proven buying since the window opened, net of their sells, coins with an inflow only', () => {
    const trades = new Map<string, TradeRow[]>([
      ['NEW', [trade('pro', true, 2, 10, 500), trade('other', true, 9, 10, 500)]],
      ['OLD', [trade('pro', true, 2, 10, 100)]],
      ['OUT', [trade('pro', true, 1, 10, 500), trade('pro', false, 3, 10, 600)]],
    ])
    expect(smartFlows(trades, new Set(['pro']), 400)).toEqual([
      { mint: 'NEW', netFlowSol: 2, buys: 1, sells: 0, wallets: ['pro'] },
    ])
  })
})
