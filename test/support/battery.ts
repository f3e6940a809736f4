import type { Battery } from '../../plugins/trade-suggest/rules.ts'

/** A clean, liquid, well-graded token: every part of a suggestion's battery answered (plugins/trade-suggest/rules.ts). */
export const CLEAN_BATTERY: Battery = {
  quick: { grade: 'A', score: 95 },
  market: { signal: 'BULLISH', token_health: 'ACTIVE', volatility: 'LOW', liquidity_usd: 1_000_000 },
  deep: {
    grade: 'A',
    score: 95,
    data_quality: 'FULL',
    recommendation: 'CONSIDER',
    is_honeypot: false,
    previous_rugs: false,
  },
  exit: { size_usdc: 50, sellable: true, expected_return_usdc: 49.5, exit_price_impact_pct: 0.4, exit_rating: 'CLEAN' },
}
