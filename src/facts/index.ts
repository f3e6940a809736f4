import type { Tape } from '../sources/tape.ts'
import { FactUnavailable, TokenContext, type Sources } from './token-context.ts'
import { loadHolderCount, loadHolders } from './holders.ts'
import { loadLaunchpad } from './launchpad.ts'
import { loadMarket } from './market.ts'
import { loadMetadata } from './metadata.ts'
import { loadMint } from './mint.ts'
import { loadLaunch } from './launch.ts'
import { loadDevHistory } from './dev-history.ts'
import { loadFunding } from './funding.ts'
import { loadTrades } from './trades.ts'
import { loadLpLocks } from './lp-locks.ts'
import { loadPools } from './pools.ts'
import { loadTokenList } from './token-list.ts'
import { loadKnownAssets } from './known-assets.ts'
import type { TokenContextOptions } from './token-context.ts'

/** How each fact is gathered (one loader per fact name). */
export const LOADERS: TokenContextOptions['loaders'] = {
  mint: loadMint,
  metadata: loadMetadata,
  token_list: loadTokenList,
  issuer: async (facts) => {
    if (!facts.sources.issuers) throw new FactUnavailable('no issuer registry is loaded')
    return facts.sources.issuers.get(facts.mint) ?? null
  },
  holders: loadHolders,
  holder_count: loadHolderCount,
  pools: loadPools,
  launchpad: loadLaunchpad,
  market: loadMarket,
  launch: loadLaunch,
  dev_history: loadDevHistory,
  funding: loadFunding,
  trades: loadTrades,
  lp_locks: loadLpLocks,
  known_assets: loadKnownAssets,
}

/** A scan's fact store for `mint`, answering by `deadlineAt` (ms since epoch). */
export function createTokenContext(mint: string, sources: Sources, deadlineAt: number, tape?: Tape): TokenContext {
  return new TokenContext(mint, sources, { deadlineAt, loaders: LOADERS, tape })
}

/** Where a closed context logs its upstream cost (TokenContext.close). */
export type FactsLogger = Parameters<TokenContext['close']>[0]

/**
 * One TokenContext over `address`, open while `use` runs and closed after it, whether `use` answers or
 * throws (the deadline timer released, the calls still waiting dropped, the upstream cost logged).
 * `address` is a mint; a wallet's reads (wallet intel) use it as a read context, its token facts unused.
 * Scans go through scanToken (src/pipeline/scan-token.ts), which opens its facts here.
 */
export async function withFacts<T>(
  address: string,
  sources: Sources,
  deadlineAt: number,
  use: (facts: TokenContext) => Promise<T>,
  options: { logger?: FactsLogger; tape?: Tape } = {},
): Promise<T> {
  const facts = createTokenContext(address, sources, deadlineAt, options.tape)
  try {
    return await use(facts)
  } finally {
    facts.close(options.logger)
  }
}

export { TokenContext, type Sources } from './token-context.ts'
export type * from './types.ts'
