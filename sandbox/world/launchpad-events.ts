/**
 * The pump.fun program's events for the curve trades the sandbox makes. The sandbox's venues move
 * vaults as the pool operator (the program cannot run offline), so no program logs would exist: the
 * world adds to each curve trade's transaction the log lines the real program prints for it — a
 * CreateEvent on the coin's first trade (pump.fun's create-and-buy), a TradeEvent with the curve's
 * reserves after it, and a CompleteEvent when the last sellable token is bought — so the RPC's
 * getTransaction and logsSubscribe serve them as mainnet does (layouts: src/onchain/pump-events.ts).
 */
import { encodePumpEventLog, type PumpEvent } from '../../src/onchain/pump-events.ts'
import { PUMP_PROGRAM_ADDRESS } from '../../src/onchain/programs.ts'
import type { Chain } from '../chain/chain.ts'
import type { Pool, PoolBook, Trade } from './pool-book.ts'
import { PUMP_TOTAL_SUPPLY } from './venues.ts'

/** The metadata URI of a sandbox launchpad coin (what its metadata account and its CreateEvent carry). */
export const pumpCoinUri = (mint: string) => `https://sandbox.solsentry.invalid/pump/${mint}.json`

export interface CoinNames {
  name: string
  symbol: string
  uri: string
}

/** Follows `book`'s curve trades and writes their events into their transactions' logs on `chain`. */
export function emitLaunchpadEvents(chain: Chain, book: PoolBook, namesOf: (mint: string) => CoinNames): void {
  const created = new Set<string>()
  const completed = new Set<string>()
  book.onTrade((trade: Trade, pool: Pool) => {
    if (pool.kind !== 'pump-curve') return
    const real = book.realReserves(pool)
    const sellable = real.base > pool.reservedBase ? real.base - pool.reservedBase : 0n
    const events: PumpEvent[] = []
    if (!created.has(pool.address)) {
      created.add(pool.address)
      const before = { base: real.base + (trade.side === 'buy' ? trade.baseAmount : -trade.baseAmount) }
      const names = namesOf(pool.baseMint)
      events.push({
        kind: 'create',
        ...names,
        mint: pool.baseMint,
        bondingCurve: pool.address,
        user: trade.wallet,
        creator: trade.wallet,
        timestamp: trade.unixS,
        virtualTokenReserves: before.base + pool.virtualBase,
        virtualSolReserves: pool.virtualQuote,
        realTokenReserves: before.base - pool.reservedBase,
        tokenTotalSupply: PUMP_TOTAL_SUPPLY,
      })
    }
    events.push({
      kind: 'trade',
      mint: pool.baseMint,
      solAmount: trade.quoteAmount,
      tokenAmount: trade.baseAmount,
      isBuy: trade.side === 'buy',
      user: trade.wallet,
      timestamp: trade.unixS,
      virtualSolReserves: real.quote + pool.virtualQuote,
      virtualTokenReserves: real.base + pool.virtualBase,
      realSolReserves: real.quote,
      realTokenReserves: sellable,
    })
    if (sellable === 0n && !completed.has(pool.address)) {
      completed.add(pool.address)
      events.push({
        kind: 'complete',
        user: trade.wallet,
        mint: pool.baseMint,
        bondingCurve: pool.address,
        timestamp: trade.unixS,
      })
    }
    chain.appendLogs(trade.signature, [
      `Program ${PUMP_PROGRAM_ADDRESS} invoke [1]`,
      `Program log: Instruction: ${trade.side === 'buy' ? 'Buy' : 'Sell'}`,
      ...events.map(encodePumpEventLog),
      `Program ${PUMP_PROGRAM_ADDRESS} success`,
    ])
  })
}
