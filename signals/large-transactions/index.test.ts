import { describe, expect, test } from 'bun:test'
import {
  codesOf,
  market,
  NOW,
  pair,
  poolFact,
  run,
  swap,
  trades,
  unmeasuredOf,
} from '../../test/support/facts/index.ts'
import type { SwapRecord } from '../../src/facts/types.ts'
import largeTransactions from './index.ts'

const MIN = 60
const HOUR = 3_600

// SOL at $150 (the fixture pair): $1,000 is 6.67 SOL.
const hour = [swap(30 * MIN, 'buy', 10), swap(10 * MIN, 'sell', 7), swap(5 * MIN, 'buy', 1), swap(2 * HOUR, 'buy', 10)]

describe('large-transactions: trades of $1,000 or more in the last hour, from the trades themselves', () => {
  test('counts each trade over the threshold in the hour, not older ones, not small ones', () => {
    const outcome = run(largeTransactions, { market: market(pair()), trades: trades(hour) })
    expect(outcome.status).toBe('ok')
    expect(outcome.fields.large_txs_last_hour).toBe(2)
    expect(outcome.factors[0]!.evidence).toMatchObject({
      threshold_usd: 1_000,
      large_buys: 1,
      large_sells: 1,
      largest_usd: 1_500,
      trades_last_hour: 3,
    })
  })

  test('just under the threshold is not large', () => {
    expect(
      run(largeTransactions, { market: market(pair()), trades: trades([swap(MIN, 'buy', 6.6)]) }).fields
        .large_txs_last_hour,
    ).toBe(0)
  })

  test('more large sells than buys is a finding', () => {
    const outcome = run(largeTransactions, {
      market: market(pair()),
      trades: trades([swap(MIN, 'sell', 8), swap(2 * MIN, 'sell', 9), swap(3 * MIN, 'buy', 8)]),
    })
    expect(codesOf(outcome)).toContain('LARGE_SELLS')
  })

  test('the hour not fully read: the count is a lower bound, listed', () => {
    // Read back to 20 minutes ago only: the 10-SOL buy 30 minutes ago is beyond what was read.
    const outcome = run(largeTransactions, { market: market(pair()), trades: trades(hour.slice(1, 3), NOW - 20 * MIN) })
    expect(outcome.fields.large_txs_last_hour).toBe(1)
    expect(unmeasuredOf(outcome)).toEqual(['large_txs_last_hour'])
  })

  test('no trades fact: null, `trades` missing', () => {
    expect(run(largeTransactions, { market: market(pair()) })).toMatchObject({
      status: 'unknown',
      missing: ['trades'],
      fields: { large_txs_last_hour: null },
    })
  })

  test('a quote without a USD price: not measured when there was a trade to value', () => {
    const outcome = run(largeTransactions, { market: market(pair({ priceUsd: null })), trades: trades(hour) })
    expect(outcome.fields.large_txs_last_hour).toBeNull()
    expect(unmeasuredOf(outcome)).toEqual(['large_txs_last_hour'])
    expect(
      run(largeTransactions, { market: market(pair({ priceUsd: null })), trades: trades([swap(3 * HOUR, 'buy', 50)]) })
        .fields.large_txs_last_hour,
    ).toBe(0)
  })
})

describe('large-transactions: an uncommon quote token is valued through its pool', () => {
  const QUOTE = 'Quo11111111111111111111111111111111111111111'
  /** The token against QUOTE (6 decimals, $2 each): the pair says 50,000 QUOTE in the pool, the vault holds 50,000 × 10^6. */
  const quoted = pair({
    quoteToken: { address: QUOTE, name: 'Quote', symbol: 'QUO' },
    priceNative: '0.001',
    priceUsd: '0.002',
    liquidity: { usd: 200_000, base: 50_000_000, quote: 50_000 },
  })
  const inQuote = (swapped: SwapRecord, amount: bigint): SwapRecord => ({
    ...swapped,
    quoteMint: QUOTE,
    quoteAmount: amount,
  })
  const swaps = [inQuote(swap(10 * MIN, 'buy', 1), 600_000_000n), inQuote(swap(20 * MIN, 'buy', 1), 400_000_000n)] // $1,200 and $800

  test("decimals read from the vault against the market's amount", () => {
    const pools = { pools: [poolFact({ quoteMint: QUOTE, quoteReserve: 50_000_000_000n })] }
    const outcome = run(largeTransactions, { market: market(quoted), trades: trades(swaps), pools })
    expect(outcome.status).toBe('ok')
    expect(outcome.fields.large_txs_last_hour).toBe(1)
  })

  test('without the pools, not measured and `pools` missing', () => {
    expect(run(largeTransactions, { market: market(quoted), trades: trades(swaps) })).toMatchObject({
      status: 'unknown',
      missing: ['pools'],
      fields: { large_txs_last_hour: null },
    })
  })

  test('a vault that does not match the market by a power of ten is refused', () => {
    const pools = { pools: [poolFact({ quoteMint: QUOTE, quoteReserve: 150_000_000_000n })] }
    expect(
      run(largeTransactions, { market: market(quoted), trades: trades(swaps), pools }).fields.large_txs_last_hour,
    ).toBeNull()
  })
})
