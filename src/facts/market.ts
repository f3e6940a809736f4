import type { TokenContext } from './token-context.ts'
import type { MarketFact } from './types.ts'

/** DexScreener pairs of the token on Solana, the deepest first. */
export async function loadMarket(facts: TokenContext): Promise<MarketFact> {
  const pairs = (await facts.source('dexscreener').pairsOfToken(facts.mint, facts.meter)).filter(
    (pair) => pair.chainId === 'solana',
  )
  pairs.sort((a, b) => (b.liquidity?.usd ?? 0) - (a.liquidity?.usd ?? 0))
  return { pairs }
}
