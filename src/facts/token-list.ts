import type { TokenContext } from './context.ts'
import type { TokenListFact } from './types.ts'

/** What the aggregator's token list says: listed, verified, tags (stablecoin, ...), logo. */
export async function loadTokenList(ctx: TokenContext): Promise<TokenListFact> {
  const token = await ctx.source('jupiter').token(ctx.mint, ctx.meter)
  if (!token) return { listed: false, verified: false, tags: [], logoUri: null }
  const tags = token.tags ?? []
  return {
    listed: true,
    verified: token.isVerified === true || tags.includes('verified'),
    tags,
    logoUri: token.icon ?? null,
  }
}
