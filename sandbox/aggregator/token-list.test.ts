import { beforeAll, describe, expect, test } from 'bun:test'
import { SOL_USD, tradedMarketWorld, type TradedMarketWorld } from '../market/test-world.ts'
import type { Trade } from '../world/pool-book.ts'
import { handleAggregatorRequest } from './server.ts'
import type { TokenInfo } from './token-list.ts'

/**
 * The tokens v2 category endpoint of the stand-in, over the market world's six scripted TST/SOL trades
 * (t1 25 h ago, t2 20 h, t3 3 h, t4 exactly 1 h, t5 30 min, t6 2 min; see test-world.ts).
 */
let market: TradedMarketWorld

beforeAll(async () => {
  market = await tradedMarketWorld()
})

const usd = (...trades: Trade[]) => trades.reduce((sum, trade) => sum + (Number(trade.quoteAmount) / 1e9) * SOL_USD, 0)

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const response = await handleAggregatorRequest(market.world, new Request(`http://stand-in${path}`))
  return { status: response.status, body: await response.json() }
}

describe('tokens v2 categories on the stand-in', () => {
  test('toptraded/24h lists the traded tokens, its stats counted from the trades', async () => {
    const [t1, t2, t3, t4, t5, t6] = market.trades.map((entry) => entry.trade)
    const { status, body } = await get('/tokens/v2/toptraded/24h')
    expect(status).toBe(200)
    const tokens = body as TokenInfo[]
    // SOL is traded too (the quote of every TST/SOL trade), and listed: Jupiter's recorded answers list it.
    expect(tokens.map((token) => token.symbol).sort()).toEqual(['SOL', 'TST'])
    const tst = tokens.find((token) => token.symbol === 'TST')!
    const day = tst.stats24h!
    expect(day).toMatchObject({ numBuys: 3, numSells: 2, numTraders: 4 })
    expect(day.buyVolume).toBeCloseTo(usd(t2!, t4!, t6!), 4)
    expect(day.sellVolume).toBeCloseTo(usd(t3!, t5!), 4)
    // The window before (48 h to 24 h ago) holds t1 alone.
    expect(day.volumeChange!).toBeCloseTo((usd(t2!, t3!, t4!, t5!, t6!) / usd(t1!) - 1) * 100, 3)
    // t4 fell exactly an hour ago: outside the hour, as DexScreener's windows count it.
    expect(tst.stats1h).toMatchObject({ numBuys: 1, numSells: 1, numTraders: 2 })
    // ... and inside the hour before it, which the change compares with.
    expect(tst.stats1h!.volumeChange!).toBeCloseTo((usd(t5!, t6!) / usd(t4!) - 1) * 100, 3)
    // No trade in the 5 minutes before the last 5: no change to report.
    expect(tst.stats5m).toMatchObject({ numBuys: 1, numSells: 0, volumeChange: null })
    expect(tst.liquidity).toBeGreaterThan(0)
    expect(tst.mcap).toBe(tst.fdv)
  })

  test('limit bounds the list; a token with no trade in the window is left out', async () => {
    const ranked = async (path: string) => ((await get(path)).body as TokenInfo[]).map((token) => token.symbol)
    expect(await ranked('/tokens/v2/toptrending/5m?limit=1')).toHaveLength(1)
    // USDC has no trade at all: never listed.
    expect(await ranked('/tokens/v2/toptrending/24h')).not.toContain('USDC')
  })

  test('refusals: unknown category or interval, a limit out of 1..100, and the organic score it does not have', async () => {
    for (const path of [
      '/tokens/v2/toprising/1h',
      '/tokens/v2/toptrending/2h',
      '/tokens/v2/toptrending/1h?limit=0',
      '/tokens/v2/toptrending/1h?limit=101',
      '/tokens/v2/toporganicscore/1h',
    ]) {
      const { status, body } = await get(path)
      expect({ path, status }).toEqual({ path, status: 400 })
      expect(typeof (body as { error: unknown }).error).toBe('string')
    }
  })
})
