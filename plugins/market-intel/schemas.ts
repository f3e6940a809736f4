import { Type } from '@sinclair/typebox'
import { Enum, envelope, FactorItem, Nullable } from '../../src/pipeline/schemas.ts'
import { LEVELS, MARKET_SIGNALS } from '../../src/kernel/vocabulary.ts'
import { MARKET_INTEL_POLICY } from '../../src/pipeline/policies.ts'
import { policyOption } from '../../src/pipeline/scan.ts'
import { BUILTIN_SIGNALS } from '../../signals/index.ts'
import { SIGNAL_SUBTYPES } from './subtypes.ts'

/**
 * A threshold of a market intel signal, as the market intel scan runs it (the signal's default, or the
 * policy's override), from the signal registry's built-ins: quoted, never restated.
 */
const thresholds = (signalId: string) => (option: string) =>
  policyOption(
    BUILTIN_SIGNALS.find((signal) => signal.meta.id === signalId),
    MARKET_INTEL_POLICY,
    option,
  )
const pressure = thresholds('buy-sell-pressure')
const large = thresholds('large-transactions')
const health = thresholds('token-health')
const swing = thresholds('volatility')
const pct = (share: number) => `${Math.round(share * 100)}%`
const usd = (value: number) => `$${value.toLocaleString('en-US')}`

const Level = (what: string) => Enum(LEVELS, what)

/**
 * The rule for the spec's required numbers (they cannot be null): a value that could not be measured
 * is 0, and then the fact it comes from (or, when the facts were read but did not contain it, the
 * field's own name) is in `missing_fields` and `data_quality` is below FULL.
 */
const UNMEASURED_IS_ZERO =
  "0 when it could not be measured: then its fact (or this field's name) is listed in missing_fields and data_quality is PARTIAL or LIMITED."
const UNMEASURED_IS_NULL =
  "null when it could not be measured: then its fact (or this field's name) is listed in missing_fields."

const Required = (description: string) => Type.Number({ description: `${description} ${UNMEASURED_IS_ZERO}` })
const Optional = (description: string) => Nullable(Type.Number({ description: `${description} ${UNMEASURED_IS_NULL}` }))

/** Spec §2.3, every field, with the envelope. Rules and thresholds: docs/scoring/market-intel.md. */
export const MarketIntelResult = Type.Object({
  ...envelope,
  current_price_usd: Required('USD per whole token, from its deepest pair with a USD price.'),
  price_change_5m_pct: Optional('Percent change of the USD price over 5 minutes (market data).'),
  price_change_15m_pct: Optional(
    "Percent change over 15 minutes, computed from the main pool's trades: the newest trade's price against the last trade at or before 15 minutes ago, in the pool's quote token (0 when nothing traded since).",
  ),
  price_change_1h_pct: Required('Percent change of the USD price over 1 hour (market data).'),
  price_change_24h_pct: Required('Percent change of the USD price over 24 hours (market data).'),
  pct_from_ath: Optional(
    "Percent below the all-time high (0 at the high, negative below it). Only when the trades read cover the token's whole trading life.",
  ),
  ath_price_usd: Optional(
    "All-time high in USD: the highest trade price of the token's whole trading life, at the quote's current USD price; at least the current price.",
  ),
  volume_1h_usd: Required('USD traded over the last hour, every pair.'),
  volume_24h_usd: Required('USD traded over the last 24 hours, every pair.'),
  liquidity_usd: Required('USD liquidity of every pair.'),
  buy_sell_ratio: Required(
    'Buys per sell over 24 hours (transaction counts, every pair): buys ÷ max(sells, 1); 0 when nothing was bought.',
  ),
  buy_pressure: Level(
    `Buy share of the value traded on the main pool in 24 h (of the transaction count without those trades): HIGH ≥ ${pct(pressure('highShare'))}, MEDIUM ≥ ${pct(pressure('mediumShare'))}, LOW below, or under ${pressure('minTrades')} trades.`,
  ),
  sell_pressure: Level('Sell share, with the same bands as buy_pressure.'),
  large_txs_last_hour: Type.Number({
    minimum: 0,
    description: `Trades of ${usd(large('largeUsd'))} or more (quote amount × the quote's USD price) on the main pool in the last hour, counted from the trades themselves. ${UNMEASURED_IS_ZERO}`,
  }),
  volatility: Enum(
    ['LOW', 'MEDIUM', 'HIGH'] as const,
    `Widest of the 1 h, 6 h and 24 h changes and the 24 h spread of trade prices: LOW < ${swing('mediumPct')}%, MEDIUM < ${swing('highPct')}%, HIGH ≥ ${swing('highPct')}% (HIGH when not measurable: not shown calm).`,
  ),
  signal: Enum(MARKET_SIGNALS, 'Direction read from price action, flow and health (docs/scoring/market-intel.md).'),
  signal_subtype: Type.String({
    description: `Why the signal: ${Object.entries(SIGNAL_SUBTYPES)
      .map(([name, entry]) => `${name} (${entry.signal})`)
      .join(', ')}.`,
    examples: Object.keys(SIGNAL_SUBTYPES),
  }),
  token_health: Enum(
    ['ACTIVE', 'LOW_ACTIVITY', 'DECLINING', 'ILLIQUID', 'DEAD'] as const,
    `First match: DEAD, no trade for ${health('deadDays')} days; ILLIQUID, liquidity under ${usd(health('illiquidUsd'))}, no pool, or not measurable (not shown liquid); DECLINING, ${health('decliningDropPct')}% or worse in 24 h, or ${health('activeTrades24h')}+ trades in 24 h and none in the last 6 h; ACTIVE, ≥ ${health('activeTrades24h')} trades, ≥ ${usd(health('activeVolumeUsd'))} and ≥ ${health('minTraders24h')} wallets in 24 h with trades in the last 6 h; LOW_ACTIVITY otherwise.`,
  ),
  factors: Type.Array(FactorItem),
  market_summary: Type.String(),
})
