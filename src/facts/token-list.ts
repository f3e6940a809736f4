import type { JupiterToken } from '../sources/jupiter.ts'
import type { TokenContext } from './token-context.ts'
import type { TokenListFact } from './types.ts'

/** What the aggregator's token list says of a token nobody listed. */
const UNLISTED: TokenListFact = {
  listed: false,
  verified: false,
  tags: [],
  logoUri: null,
  holderCount: null,
  topHoldersPct: null,
  organicScore: null,
  organicScoreLabel: null,
  suspicious: false,
  priceChangePct: { m5: null, h1: null, h6: null, h24: null },
  cexes: [],
}

/** What the aggregator's token list says: listed, verified, tags, logo, and its audit figures. */
export async function loadTokenList(facts: TokenContext): Promise<TokenListFact> {
  return tokenListFact(await facts.source('jupiter').token(facts.mint, facts.meter))
}

/** The fact from a tokens v2 entry (null: not listed). */
export function tokenListFact(token: JupiterToken | null): TokenListFact {
  if (!token) return UNLISTED
  const tags = token.tags ?? []
  const finite = (value: number | null | undefined) =>
    typeof value === 'number' && Number.isFinite(value) ? value : null
  return {
    listed: true,
    verified: token.isVerified === true || tags.includes('verified'),
    tags,
    logoUri: token.icon ?? null,
    holderCount: finite(token.holderCount),
    topHoldersPct: finite(token.audit?.topHoldersPercentage),
    organicScore: finite(token.organicScore),
    organicScoreLabel: token.organicScoreLabel ?? null,
    // The flag is only present when set: its presence is the signal (Jupiter's OpenAPI).
    suspicious: token.audit != null && 'isSus' in token.audit,
    priceChangePct: {
      m5: finite(token.stats5m?.priceChange),
      h1: finite(token.stats1h?.priceChange),
      h6: finite(token.stats6h?.priceChange),
      h24: finite(token.stats24h?.priceChange),
    },
    cexes: token.cexes ?? [],
  }
}
