/**
 * Jupiter's token rankings as the feeds read them (tokens v2 categories): which stats window an interval
 * reads, and which entries a feed leaves out by default (docs/catalogue.md §Feeds).
 */
import type { IssuerRegistry } from '../onchain/issuers.ts'
import { WRAPPED_SOL_MINT_ADDRESS } from '../onchain/programs.ts'
import type { JupiterInterval, JupiterSwapStats, JupiterToken } from '../sources/jupiter.ts'

/** Why an entry is left out unless asked for. */
export const EXCLUSIONS = ['stablecoin', 'liquid_staking', 'wrapped_sol'] as const
export type Exclusion = (typeof EXCLUSIONS)[number]

const STATS = { '5m': 'stats5m', '1h': 'stats1h', '6h': 'stats6h', '24h': 'stats24h' } as const

/** The entry's swap stats over `interval`, or null when Jupiter gives none. */
export function statsOf(entry: JupiterToken, interval: JupiterInterval): JupiterSwapStats | null {
  return entry[STATS[interval]] ?? null
}

/**
 * Why a ranking entry is left out by default: a registered stablecoin, a liquid-staking token (by the
 * issuer registry or Jupiter's `lst` tag) or wrapped SOL — Jupiter's rankings list them (its docs say
 * they are filtered; its recorded answers show SOL and USDC first). Undefined when it stays.
 */
export function exclusionOf(entry: JupiterToken, issuers: IssuerRegistry | undefined): Exclusion | undefined {
  if (entry.id === WRAPPED_SOL_MINT_ADDRESS) return 'wrapped_sol'
  const kind = issuers?.get(entry.id)?.kind
  if (kind === 'fiat_stablecoin' || kind === 'synthetic_stablecoin') return 'stablecoin'
  if (kind === 'lst' || entry.tags?.includes('lst')) return 'liquid_staking'
  return undefined
}
