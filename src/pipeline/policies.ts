/**
 * What each scanner gathers and grades: its name and its facts, core (without them the answer is
 * LIMITED) and optional (docs/data-quality.md). One place, read by the scanners and by the trade risk
 * gate (which runs the quick scan's policy).
 */
import type { ScanPolicy } from './scan.ts'

/** Spec target: the quick scan answers within 5 s; its facts stop half a second earlier to leave room to answer. */
export const QUICK_SCAN_DEADLINE_MS = 4_500

/**
 * Core facts decide the grade; without them the answer is LIMITED (docs/data-quality.md). `lp_locks`
 * (who holds a pool's unburned LP) lets the LP finding say locked, and until when, as the deep dive does.
 */
export const QUICK_SCAN_POLICY: ScanPolicy = {
  scanner: 'quick_scan',
  facts: {
    core: ['mint', 'holders', 'market'],
    optional: ['metadata', 'token_list', 'issuer', 'pools', 'launchpad', 'lp_locks', 'known_assets'],
  },
}

/** The market intel answer's measured fields, in the order `missing_fields` lists the unmeasured ones. */
export const MARKET_INTEL_FIELDS = [
  'current_price_usd',
  'price_change_5m_pct',
  'price_change_15m_pct',
  'price_change_1h_pct',
  'price_change_24h_pct',
  'pct_from_ath',
  'ath_price_usd',
  'volume_1h_usd',
  'volume_24h_usd',
  'liquidity_usd',
  'buy_sell_ratio',
  'buy_pressure',
  'sell_pressure',
  'large_txs_last_hour',
  'volatility',
  'token_health',
] as const

/**
 * Core: the market (price, changes, volume, liquidity, counts), without which there is no signal.
 * Optional: the main pool's trades (15-minute change, all-time high, value-weighted pressure, large
 * trades, last trade) and the pools (the decimals of an uncommon quote token, to value trades in USD).
 * Nothing structural: authorities and holders are the quick scan's (spec §1 rule 5).
 */
export const MARKET_INTEL_POLICY: ScanPolicy = {
  scanner: 'market_intel',
  facts: { core: ['market'], optional: ['trades', 'pools'] },
  // A market listing no pair for the token counts as `market` missing (the data is not there), and the
  // answer's fields the signals could not measure are listed after the facts, lowering FULL to PARTIAL.
  quality: { signalMissing: true, unmeasuredFields: MARKET_INTEL_FIELDS },
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
    optional: [
      'metadata',
      'token_list',
      'issuer',
      'pools',
      'launchpad',
      'funding',
      'trades',
      'lp_locks',
      'known_assets',
    ],
  },
  // A trades fact naming no pool because the pool facts were unavailable is not "no trades"; a lock
  // that could not be dated leaves lock_duration_days at its neutral 0, named in missing_fields.
  quality: { hollowTrades: true, unmeasuredFields: ['lock_duration_days'] },
}
