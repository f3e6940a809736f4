import { Type } from '@sinclair/typebox'
import { defineSignal, finding, signalMeta, type Factor } from '../../src/pipeline/signal.ts'
import {
  liquidityUsd,
  priceChange,
  pricingPair,
  round,
  marketPairs,
  tradeCounts,
  volumeUsd,
} from '../../src/pipeline/derive/market-pairs.ts'
import { noMarket, notMeasured, outcomeOf } from '../../src/pipeline/derive/not-measured.ts'
import { covers, tradesSince, marketInputs, type TradeTape } from '../../src/pipeline/derive/trade-tape.ts'
import { count, pct, usd } from '../../src/rendering/format.ts'

const HOUR_S = 60 * 60
/**
 * "Recently" is the market's 6-hour window: a busy day that went silent for the last six hours is
 * winding down (DexScreener's windows are 5 m, 1 h, 6 h and 24 h; 1 h is too short for thin tokens).
 */
const RECENT_WINDOW = 'h6'
const DAY_S = 24 * HOUR_S

/** Spec §2.3 `token_health`, decided by the first rule that matches (docs/scoring/market-intel.md). */
export type TokenHealth = 'ACTIVE' | 'LOW_ACTIVITY' | 'DECLINING' | 'ILLIQUID' | 'DEAD'

const meta = signalMeta({
  id: 'token-health',
  riskGroup: 'market_risk',
  version: '1.1.0',
  title: 'Token health',
  risk: 'A token nobody trades any more (dead), too shallow to sell (illiquid), fading, or traded by a handful of wallets.',
  why: 'A price is only real if someone will buy at it: without trades, liquidity or a crowd of traders, the quoted price cannot be sold at.',
  scanners: ['market_intel'],
  facts: ['market', 'trades', 'token_list'],
  impact: 'high',
  confidence: 'high',
  options: Type.Object({
    deadDays: Type.Number({ minimum: 0 }),
    illiquidUsd: Type.Number({ minimum: 0 }),
    activeTrades24h: Type.Integer({ minimum: 0 }),
    activeVolumeUsd: Type.Number({ minimum: 0 }),
    minTraders24h: Type.Integer({ minimum: 0 }),
    decliningDropPct: Type.Number({ maximum: 0 }),
  }),
  defaults: {
    // A week without a single trade: abandoned, not quiet.
    deadDays: 7,
    // Under $1k any sale crashes the price (the liquidity signal's critical floor).
    illiquidUsd: 1_000,
    // Ten trades and $10k a day: a market someone can enter and leave without being the only trader.
    activeTrades24h: 10,
    activeVolumeUsd: 10_000,
    // Fewer than five wallets making all the trades is a few people trading with themselves.
    minTraders24h: 5,
    // A third of the price gone in a day.
    decliningDropPct: -30,
  },
  findings: {
    NO_MARKET: { severity: 'high', points: -25, when: 'no pair trades the token', why: 'There is nothing to trade' },
    TOKEN_DEAD: {
      severity: 'high',
      points: -25,
      when: 'no trade for `deadDays`',
      why: 'A week without a trade is abandoned, not quiet',
    },
    ILLIQUID: {
      severity: 'high',
      points: -25,
      when: 'liquidity under `illiquidUsd`',
      why: "Any sale crashes the price (the liquidity signal's floor)",
    },
    FEW_TRADERS: {
      severity: 'medium',
      points: -10,
      when: 'at least `activeTrades24h` trades in 24 h made by fewer than `minTraders24h` wallets',
      why: 'A few wallets trading with themselves (wash-traded: 90 trades, 4 wallets)',
    },
    DECLINING: {
      severity: 'medium',
      points: -10,
      when: '24 h change ≤ `decliningDropPct`, or a busy day (≥ `activeTrades24h` trades) with none in 6 h',
      why: 'Trading is winding down',
    },
    LOW_ACTIVITY: {
      severity: 'low',
      points: -5,
      when: 'none of the other bands',
      why: 'Too little trading to enter and leave without moving the price',
    },
    ACTIVE: {
      severity: 'info',
      points: 0,
      when: '≥ `activeTrades24h` trades, ≥ `activeVolumeUsd` volume and enough wallets in 24 h, a trade in 6 h',
    },
  },
})

const NULL_FIELDS = { token_health: null, volume_1h_usd: null, volume_24h_usd: null, liquidity_usd: null }

export default defineSignal({
  meta,
  detect(facts, options, { mint, now }) {
    const { market, tape, missing } = marketInputs(facts, mint)
    if (!market) return outcomeOf(meta, missing, [], NULL_FIELDS)
    const pairs = marketPairs(facts, mint)
    if (pairs.length === 0)
      return noMarket(meta, NULL_FIELDS, [
        finding(
          meta,
          options,
          'NO_MARKET',
          'No market',
          'No pool trades this token: it cannot be bought or sold at any price.',
          {},
        ),
      ])

    const liquidity = liquidityUsd(pairs)
    const volume24h = volumeUsd(pairs, 'h24')
    const volume1h = volumeUsd(pairs, 'h1')
    const day = tradeCounts(pairs, 'h24')
    const recent = tradeCounts(pairs, RECENT_WINDOW)
    const trades24h = day.buys + day.sells
    const tradesRecent = recent.buys + recent.sells
    const change24h = priceChange(pricingPair(pairs), 'h24', facts.get('token_list'))
    // Distinct wallets only when the trades read span the whole day (else the count is partial).
    const wallets24h =
      tape && covers(tape, now - DAY_S)
        ? new Set(tradesSince(tape, now - DAY_S).map((trade) => trade.wallet)).size
        : null
    const lastTradeAge = lastTradeAgeS(
      tape,
      pairs.map((entry) => entry.pair.pairCreatedAt),
      now,
    )

    const evidence = {
      trades_24h: trades24h,
      trades_6h: tradesRecent,
      volume_24h_usd: volume24h,
      liquidity_usd: liquidity,
      wallets_24h: wallets24h,
      last_trade_hours_ago: lastTradeAge === null ? null : round(lastTradeAge / HOUR_S, 1),
      price_change_24h_pct: change24h,
    }
    const found: Factor[] = []
    const unmeasured = [
      ...(liquidity === null ? ['liquidity_usd'] : []),
      ...(volume24h === null ? ['volume_24h_usd'] : []),
      ...(volume1h === null ? ['volume_1h_usd'] : []),
    ]
    if (unmeasured.length > 0)
      found.push(
        notMeasured(
          meta,
          unmeasured,
          "The market reports no USD figure for the token's pairs (their quote has no USD route).",
        ),
      )

    const fewTraders = wallets24h !== null && trades24h >= options.activeTrades24h && wallets24h < options.minTraders24h
    if (fewTraders)
      found.push(
        finding(
          meta,
          options,
          'FEW_TRADERS',
          `${count(trades24h, 'trade')} by ${count(wallets24h, 'wallet')} in 24 h`,
          "Nearly all of the day's trading came from a handful of wallets: the volume does not show real demand.",
          evidence,
        ),
      )

    let health: TokenHealth
    if (lastTradeAge !== null && lastTradeAge >= options.deadDays * DAY_S) {
      health = 'DEAD'
      found.push(
        finding(
          meta,
          options,
          'TOKEN_DEAD',
          `No trade for ${count(round(lastTradeAge / DAY_S, 1), 'day')}`,
          `Nobody has traded this token for over ${count(options.deadDays, 'day')}: its price is stale and there is no one to sell to.`,
          evidence,
        ),
      )
    } else if (liquidity !== null && liquidity < options.illiquidUsd) {
      health = 'ILLIQUID'
      found.push(
        finding(
          meta,
          options,
          'ILLIQUID',
          `Liquidity ${usd(liquidity)}`,
          `Under ${usd(options.illiquidUsd)} of liquidity: any sale crashes the price.`,
          evidence,
        ),
      )
    } else if (
      (change24h !== null && change24h <= options.decliningDropPct) ||
      (trades24h >= options.activeTrades24h && tradesRecent === 0)
    ) {
      health = 'DECLINING'
      const why =
        change24h !== null && change24h <= options.decliningDropPct
          ? `The price fell ${pct(change24h)} in 24 h.`
          : `${count(trades24h, 'trade')} in 24 h but none in the last 6 h: trading has stopped.`
      found.push(finding(meta, options, 'DECLINING', 'Declining', why, evidence))
    } else if (
      trades24h >= options.activeTrades24h &&
      (volume24h ?? 0) >= options.activeVolumeUsd &&
      tradesRecent > 0 &&
      !fewTraders
    ) {
      health = 'ACTIVE'
      found.push(
        finding(
          meta,
          options,
          'ACTIVE',
          `${count(trades24h, 'trade')}, ${usd(volume24h)} in 24 h`,
          'Traded steadily, recently and by many wallets.',
          evidence,
        ),
      )
    } else {
      health = 'LOW_ACTIVITY'
      found.push(
        finding(
          meta,
          options,
          'LOW_ACTIVITY',
          `${count(trades24h, 'trade')}, ${usd(volume24h ?? 0)} in 24 h`,
          'Thinly traded: entries and exits depend on a few counterparties.',
          evidence,
        ),
      )
    }
    return outcomeOf(meta, missing, found, {
      token_health: health,
      volume_1h_usd: volume1h,
      volume_24h_usd: volume24h,
      liquidity_usd: liquidity,
    })
  },
})

/**
 * Seconds since the token last traded, or a lower bound of it; null when unknown. From the trades:
 * the newest one; with none read, since the oldest time covered (the last trade is older), or since
 * the oldest pool opened when its whole history was read (it never traded).
 */
function lastTradeAgeS(
  tape: TradeTape | undefined,
  created: readonly (number | null | undefined)[],
  now: number,
): number | null {
  if (!tape) return null
  const newest = tape.trades[0]
  if (newest) return now - newest.at
  if (tape.coveredSince !== null) return now - tape.coveredSince
  const opened = created.filter((value): value is number => typeof value === 'number')
  return opened.length === 0 ? null : now - Math.min(...opened) / 1000
}
