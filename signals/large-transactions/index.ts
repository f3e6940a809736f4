import { Type } from '@sinclair/typebox'
import type { FactName } from '../../src/facts/types.ts'
import { defineSignal, finding, signalMeta, type Factor } from '../../src/pipeline/signal.ts'
import { marketPairs, round } from '../../src/pipeline/derive/market-pairs.ts'
import { noMarket, notMeasured, outcomeOf } from '../../src/pipeline/derive/not-measured.ts'
import { covers, isCommonQuote, tradesSince, tradeTape } from '../../src/pipeline/derive/trade-tape.ts'
import { count, usd } from '../../src/rendering/format.ts'

const HOUR_S = 60 * 60

const meta = signalMeta({
  id: 'large-transactions',
  riskGroup: 'market_risk',
  version: '1.0.0',
  title: 'Large transactions',
  risk: 'Large trades in the last hour, and whether they were sells.',
  why: 'Whales move thin markets: a burst of large sells is someone big leaving, large buys someone big arriving — either moves the price more than the crowd.',
  scanners: ['market_intel'],
  facts: ['trades', 'market', 'pools'],
  impact: 'low',
  confidence: 'high',
  options: Type.Object({ largeUsd: Type.Number({ minimum: 0 }) }),
  // $1,000 is about a tenth of a thin ($10k) pool's depth: one such trade alone moves its price ~10%.
  defaults: { largeUsd: 1_000 },
  findings: {
    LARGE_SELLS: {
      severity: 'medium',
      points: -5,
      when: 'more large (≥ `largeUsd` USD) sells than buys in the last hour',
      why: 'Someone big is leaving a thin market',
    },
    LARGE_BUYS: { severity: 'info', points: 0, when: 'large buys and no more large sells than buys in the last hour' },
  },
})

export default defineSignal({
  meta,
  detect(facts, options, { mint, now }) {
    const market = facts.get('market')
    const tape = tradeTape(facts, mint)
    if (market && marketPairs(facts, mint).length === 0) return noMarket(meta, { large_txs_last_hour: null })
    // The pools are read only for a quote token whose decimals are not fixed (not SOL, USDC or USDT).
    const needsPools = tape?.quoteMint != null && !isCommonQuote(tape.quoteMint)
    const missing: FactName[] = [
      ...(tape ? [] : ['trades' as const]),
      ...(market ? [] : ['market' as const]),
      ...(needsPools && !facts.get('pools') ? ['pools' as const] : []),
    ]
    if (!tape) return outcomeOf(meta, missing, [], { large_txs_last_hour: null })
    const hour = tradesSince(tape, now - HOUR_S)
    if (hour.length > 0 && tape.unpricedReason !== null)
      return outcomeOf(
        meta,
        missing,
        missing.length > 0
          ? []
          : [notMeasured(meta, ['large_txs_last_hour'], `Trades could not be valued in USD: ${tape.unpricedReason}.`)],
        { large_txs_last_hour: null },
      )

    const large = hour.filter((trade) => trade.usd !== null && trade.usd >= options.largeUsd)
    const buys = large.filter((trade) => trade.side === 'buy').length
    const sells = large.length - buys
    const evidence = {
      threshold_usd: options.largeUsd,
      large_buys: buys,
      large_sells: sells,
      largest_usd: large.length > 0 ? round(Math.max(...large.map((trade) => trade.usd!)), 2) : null,
      trades_last_hour: hour.length,
    }
    const found: Factor[] = []
    if (!covers(tape, now - HOUR_S))
      found.push(
        notMeasured(
          meta,
          ['large_txs_last_hour'],
          "The trades read (the main pool's latest transactions) do not span the whole hour: the count is a lower bound.",
        ),
      )
    if (sells > buys)
      found.push(
        finding(
          meta,
          options,
          'LARGE_SELLS',
          `${count(sells, 'large sell')} in the last hour`,
          `More trades of ${usd(options.largeUsd)} or more were sells than buys: a large holder is leaving.`,
          evidence,
        ),
      )
    else if (buys > 0)
      found.push(
        finding(
          meta,
          options,
          'LARGE_BUYS',
          `${count(buys, 'large buy')} in the last hour`,
          `Trades of ${usd(options.largeUsd)} or more were mostly buys.`,
          evidence,
        ),
      )
    return outcomeOf(meta, missing, found, { large_txs_last_hour: large.length })
  },
})
