import type { TokenContext } from './context.ts'
import type { MarketFact } from './types.ts'

/** DexScreener pairs of the token on Solana, the deepest first. */
export async function loadMarket(ctx: TokenContext): Promise<MarketFact> {
  const pairs = (await ctx.source('dexscreener').pairsOfToken(ctx.mint, ctx.meter)).filter(
    (pair) => pair.chainId === 'solana',
  )
  pairs.sort((a, b) => (b.liquidity?.usd ?? 0) - (a.liquidity?.usd ?? 0))
  return { pairs }
}
