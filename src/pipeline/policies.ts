/**
 * What each scanner gathers and grades: its name and its facts, core (without them the answer is
 * LIMITED) and optional (docs/data-quality.md). One place, read by the scanners and by the trade risk
 * gate (which runs the quick scan's policy).
 */
import type { ScanPolicy } from './scan.ts'

/** Core facts decide the grade; without them the answer is LIMITED (docs/data-quality.md). */
export const QUICK_SCAN_POLICY: ScanPolicy = {
  scanner: 'quick_scan',
  facts: { core: ['mint', 'holders', 'market'], optional: ['metadata', 'token_list', 'pools', 'launchpad'] },
}

/**
 * Core: the market (price, changes, volume, liquidity, counts), without which there is no signal.
 * Optional: the main pool's trades (15-minute change, all-time high, value-weighted pressure, large
 * trades, last trade) and the pools (the decimals of an uncommon quote token, to value trades in USD).
 * Nothing structural: authorities and holders are the quick scan's (spec §1 rule 5).
 */
export const MARKET_INTEL_POLICY: ScanPolicy = {
  scanner: 'market_intel',
  facts: { core: ['market'], optional: ['trades', 'pools'] },
}

/**
 * Core facts: without them the deep dive cannot answer its own question (what the token is, who holds
 * it, where it trades, who made it and what that wallet did before) and the answer is LIMITED.
 * Optional facts refine it; without them the fields they feed are left out (docs/scoring/deep-dive.md).
 */
export const DEEP_DIVE_POLICY: ScanPolicy = {
  scanner: 'deep_dive',
  facts: {
    core: ['mint', 'holders', 'market', 'launch', 'dev_history'],
    optional: ['metadata', 'token_list', 'pools', 'launchpad', 'funding', 'trades', 'lp_locks'],
  },
}
