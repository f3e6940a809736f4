import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseJsonWithBigInts } from '@solana/rpc-spec-types'
import { type ParsedTransaction, parseTransaction, type RpcTransaction } from '../../src/facts/history.ts'
import { USDC_MINT_ADDRESS } from '../../src/onchain/programs.ts'
import { positionsOf, type WalletTrade, walletTrades } from './wallet-trades.ts'

const RECORDED = join(import.meta.dir, '..', '..', 'test', 'fixtures', 'recorded', 'solana-rpc')
const recorded = (name: string) => {
  const fixture = parseJsonWithBigInts(readFileSync(join(RECORDED, name), 'utf8')) as {
    answer: { result: RpcTransaction }
  }
  return parseTransaction('recorded', fixture.answer.result)
}
const USD = new Set<string>([USDC_MINT_ADDRESS])

describe('a wallet’s trades, read from real recorded mainnet transactions', () => {
  test('a pump.fun coin sold for SOL (Gem Wallet’s recording): one sell, the SOL the wallet received', () => {
    const transaction = recorded('getTransaction-swap-pumpfun-coin-to-sol-v0.json')
    const trades = walletTrades(transaction.feePayer, [transaction], USD)
    expect(trades).toHaveLength(1)
    expect(trades[0]).toMatchObject({
      mint: 'BKpSnSdNdANUxKPsn4AQ8mf4b9BoeVs9JD1Q8cVkpump',
      side: 'sell',
      tokenAmount: 393_647_577_456n,
      quote: 'SOL',
      // The wallet's lamports: what the pool paid, less the launchpad's fees and the network fee.
      quoteAmount: 0.140219948,
      launchpad: false,
    })
  })

  test('SOL swapped for USDT (Jupiter, recorded): two quotes, no token traded, no trade', () => {
    const transaction = recorded('getTransaction-jupiter-swap-sol-to-usdt-v0.json')
    expect(walletTrades(transaction.feePayer, [transaction], USD)).toEqual([])
  })

  test('in the same transaction, a fee recipient (wrapped SOL in only) made no trade', () => {
    const transaction = recorded('getTransaction-swap-pumpfun-coin-to-sol-v0.json')
    expect(walletTrades('GGztQqQ6pCPaJQnNpXBgELr5cs3WwDakRbh1iEMzjgSJ', [transaction], USD)).toEqual([])
  })
})

/** A synthetic transaction of `wallet`: its lamport change and token changes. */
function transaction(
  slot: number,
  wallet: string,
  lamports: bigint,
  tokens: [string, bigint][],
  failed = false,
): ParsedTransaction {
  return {
    signature: `s${slot}`,
    slot: BigInt(slot),
    blockTime: 1_700_000_000 + slot * 60,
    failed,
    feePayer: wallet,
    accountKeys: [wallet],
    solDeltas: new Map([[wallet, lamports]]),
    tokenDeltas: tokens.map(([mint, delta]) => ({ account: `${mint}-ata`, owner: wallet, mint, delta })),
    instructions: [],
  }
}

describe('trades and positions (rules)', () => {
  const W = 'wallet'
  test('a transfer in (rent only), a failed buy and a dust SOL move are not trades', () => {
    const trades = walletTrades(
      W,
      [
        transaction(1, W, -2_039_280n, [['TOKEN', 5n]]),
        transaction(2, W, -1_000_000_000n, [['TOKEN', 5n]], true),
        transaction(3, W, 1_000n, [['TOKEN', -5n]]),
      ],
      USD,
    )
    expect(trades).toEqual([])
  })

  test('round trips close at dust, partial sells keep a position open, unmatched sells are not counted', () => {
    const trades: WalletTrade[] = walletTrades(
      W,
      [
        transaction(1, W, -1_000_000_000n, [['A', 1_000n]]),
        transaction(2, W, 600_000_000n, [['A', -500n]]),
        transaction(3, W, 900_000_000n, [['A', -495n]]),
        transaction(4, W, 0n, [
          ['B', 100n],
          [USDC_MINT_ADDRESS, -50_000_000n],
        ]),
        transaction(5, W, 2_000_000_000n, [['C', -10n]]),
      ],
      USD,
    )
    expect(trades.map((trade) => `${trade.side} ${trade.mint} ${trade.quote} ${trade.quoteAmount}`)).toEqual([
      'buy A SOL 1',
      'sell A SOL 0.6',
      'sell A SOL 0.9',
      'buy B USD 50',
      'sell C SOL 2',
    ])
    const positions = positionsOf(trades, 100)
    const a = positions.find((position) => position.mint === 'A')!
    expect(a).toMatchObject({ closed: true, costUsd: 100, proceedsUsd: 150, solOnly: true, unmatched: false })
    expect(positions.find((position) => position.mint === 'B')).toMatchObject({ closed: false, costUsd: 50 })
    expect(positions.find((position) => position.mint === 'C')).toMatchObject({ closed: true, unmatched: true })
  })
})
