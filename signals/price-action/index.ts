import { Type } from '@sinclair/typebox'
import { defineSignal, finding, signalMeta, type Factor } from '../../src/pipeline/signal.ts'
import { marketPairs, priceChange, pricingPair, round, type TokenPair } from '../../src/pipeline/derive/market-pairs.ts'
import { noMarket, notMeasured, outcomeOf } from '../../src/pipeline/derive/not-measured.ts'
import { covers, marketInputs, type TradeTape } from '../../src/pipeline/derive/trade-tape.ts'
import { pct } from '../../src/rendering/format.ts'

/** The window DexScreener lacks, measured from trades. */
const WINDOW_15M_S = 15 * 60

/** The answer field of each window's change. */
const CHANGE_FIELDS = { m5: 'price_change_5m_pct', h1: 'price_change_1h_pct', h24: 'price_change_24h_pct' } as const

const meta = signalMeta({
  id: 'price-action',
  riskGroup: 'market_risk',
  version: '1.1.0',
  title: 'Price action',
  risk: 'A price falling hard (a crash over 24 h or 1 h) or far below its all-time high; a price surging.',
  why: "Direction and distance from the high say who is in control: a buyer into a crash is catching sellers' exits, a buyer into a surge is late to someone else's entry.",
  scanners: ['market_intel'],
  facts: ['market', 'trades', 'token_list'],
  impact: 'medium',
  confidence: 'high',
  options: Type.Object({
    crash24hPct: Type.Number({ maximum: 0 }),
    crash1hPct: Type.Number({ maximum: 0 }),
    surge24hPct: Type.Number({ minimum: 0 }),
    surge1hPct: Type.Number({ minimum: 0 }),
    farBelowAthPct: Type.Number({ maximum: 0 }),
  }),
  // A third off in a day, or a sixth in an hour, is a crash on any chart; the mirror moves are a
  // surge. Four fifths below the high: nearly every holder is at a loss and waiting to sell.
  defaults: { crash24hPct: -30, crash1hPct: -15, surge24hPct: 30, surge1hPct: 15, farBelowAthPct: -80 },
  findings: {
    PRICE_CRASH: {
      severity: 'high',
      points: -15,
      when: '24 h change ≤ `crash24hPct` or 1 h change ≤ `crash1hPct`',
      why: "A buyer into a crash is catching sellers' exits",
    },
    PRICE_SURGE: {
      severity: 'info',
      points: 0,
      when: '24 h change ≥ `surge24hPct` or 1 h change ≥ `surge1hPct`',
    },
    FAR_BELOW_ATH: {
      severity: 'medium',
      points: -5,
      when: 'the price is `farBelowAthPct` or more below the all-time high',
      why: 'Nearly every holder is at a loss and waiting to sell',
    },
  },
})

const NULL_FIELDS = {
  current_price_usd: null,
  price_change_5m_pct: null,
  price_change_15m_pct: null,
  price_change_1h_pct: null,
  price_change_24h_pct: null,
  ath_price_usd: null,
  pct_from_ath: null,
}

export default defineSignal({
  meta,
  detect(facts, options, { mint, now }) {
    const { market, tape, missing } = marketInputs(facts, mint)
    const found: Factor[] = []

    const change15m = changeFromTrades(tape, now, WINDOW_15M_S)
    if (tape && change15m.value === null) found.push(notMeasured(meta, ['price_change_15m_pct'], change15m.reason))
    if (!market) return outcomeOf(meta, missing, found, { ...NULL_FIELDS, price_change_15m_pct: change15m.value })

    const pairs = marketPairs(facts, mint)
    if (pairs.length === 0) return noMarket(meta, NULL_FIELDS)
    const pricing = pricingPair(pairs)
    const price = pricing?.priceUsd ?? null
    if (price === null)
      found.push(
        notMeasured(
          meta,
          ['current_price_usd', 'price_change_5m_pct', 'price_change_1h_pct', 'price_change_24h_pct'],
          'No pair of the token has a USD price (its quote token has no USD route).',
        ),
      )
    // A token only ever quoted: the market reports the other side's changes; the token list its own.
    const list = facts.get('token_list')
    const change = {
      m5: priceChange(pricing, 'm5', list),
      h1: priceChange(pricing, 'h1', list),
      h24: priceChange(pricing, 'h24', list),
    }
    const unmeasured = (['m5', 'h1', 'h24'] as const).filter((window) => change[window] === null)
    if (price !== null && !pricing!.tokenIsBase && unmeasured.length > 0)
      found.push(
        notMeasured(
          meta,
          unmeasured.map((window) => CHANGE_FIELDS[window]),
          'The token is only ever the quote of its pairs: the market reports the changes of the other side, and the token list publishes none of its own.',
        ),
      )
    if (pricing?.tokenIsBase && change.m5 === null)
      found.push(notMeasured(meta, ['price_change_5m_pct'], 'The market reports no 5-minute change for the pair.'))

    const ath = tape ? allTimeHigh(tape, pairs) : undefined
    if (ath && 'reason' in ath) found.push(notMeasured(meta, ['pct_from_ath', 'ath_price_usd'], ath.reason))
    const highRatio = ath && 'ratio' in ath ? ath.ratio : null
    const pctFromAth = highRatio === null ? null : round((1 / highRatio - 1) * 100, 2)
    // Without a USD price the high is known relative to the price (pct_from_ath), not in USD.
    if (highRatio !== null && price === null)
      found.push(notMeasured(meta, ['ath_price_usd'], 'No USD price to express the all-time high in.'))

    if (
      (change.h24 !== null && change.h24 <= options.crash24hPct) ||
      (change.h1 !== null && change.h1 <= options.crash1hPct)
    )
      found.push(
        finding(
          meta,
          options,
          'PRICE_CRASH',
          `Price ${describe(change)}`,
          `The price fell ${pct(-options.crash24hPct)} or more in a day, or ${pct(-options.crash1hPct)} or more in an hour: sellers are in control.`,
          { ...change },
        ),
      )
    else if (
      (change.h24 !== null && change.h24 >= options.surge24hPct) ||
      (change.h1 !== null && change.h1 >= options.surge1hPct)
    )
      found.push(
        finding(
          meta,
          options,
          'PRICE_SURGE',
          `Price ${describe(change)}`,
          `The price rose ${pct(options.surge24hPct)} or more in a day, or ${pct(options.surge1hPct)} or more in an hour.`,
          { ...change },
        ),
      )
    if (pctFromAth !== null && pctFromAth <= options.farBelowAthPct)
      found.push(
        finding(
          meta,
          options,
          'FAR_BELOW_ATH',
          `${pct(pctFromAth, { signed: true })} from the all-time high`,
          `The price is ${pct(pctFromAth)} below its high: nearly every buyer holds a loss.`,
          { pct_from_ath: pctFromAth },
        ),
      )

    return outcomeOf(meta, missing, found, {
      current_price_usd: price,
      price_change_5m_pct: change.m5,
      price_change_15m_pct: change15m.value,
      price_change_1h_pct: change.h1,
      price_change_24h_pct: change.h24,
      ath_price_usd: highRatio === null || price === null ? null : price * highRatio,
      pct_from_ath: pctFromAth,
    })
  },
})

function describe(change: { h1: number | null; h24: number | null }): string {
  const sign = (value: number) => pct(value, { signed: true })
  return [
    change.h1 === null ? null : `${sign(change.h1)} in 1 h`,
    change.h24 === null ? null : `${sign(change.h24)} in 24 h`,
  ]
    .filter(Boolean)
    .join(', ')
}

/**
 * The change over the last `windowS` seconds from trades: the newest trade's price against the last
 * trade at or before the window's start (both in the pool's quote token, so the quote's own USD move
 * is not in it). Without a trade in the window the two are the same trade: 0%.
 */
export function changeFromTrades(
  tape: TradeTape | undefined,
  now: number,
  windowS: number,
): { value: number | null; reason: string } {
  if (!tape) return { value: null, reason: 'The trades could not be read.' }
  const latest = tape.trades[0]
  if (!latest) return { value: null, reason: 'No trade of the main pool was read.' }
  const start = now - windowS
  if (!covers(tape, start))
    return {
      value: null,
      reason: "The trades read (the main pool's latest transactions) do not reach back to the window's start.",
    }
  const anchor = tape.trades.find((trade) => trade.at <= start)
  if (!anchor) return { value: null, reason: "No trade before the window's start: the pool had not traded yet." }
  return { value: round((latest.unitPrice / anchor.unitPrice - 1) * 100, 2), reason: '' }
}

/**
 * The all-time high against the newest trade (highest trade price ÷ newest trade price, ≥ 1), when the
 * trades read are the token's whole trading life: the main pool's entire history was read and no
 * other pair of the token is older. Measured in the pool's quote token; the answer expresses it in
 * USD through the current price, so the high is never below the current price.
 */
function allTimeHigh(tape: TradeTape, pairs: readonly TokenPair[]): { ratio: number } | { reason: string } {
  if (tape.coveredSince !== null)
    return { reason: 'The main pool has more history than is read (its latest transactions): its high may be earlier.' }
  if (!tape.pair) return { reason: 'The market does not list the main pool, so its age is unknown.' }
  const own = tape.pair.pair.pairCreatedAt
  if (
    typeof own !== 'number' ||
    pairs.some(({ pair }) => typeof pair.pairCreatedAt !== 'number' || pair.pairCreatedAt < own)
  )
    return {
      reason:
        "The token traded in another pool before its main pool opened (or a pool's age is unknown): its high may be there.",
    }
  const latest = tape.trades[0]
  if (!latest) return { reason: 'The main pool has never traded.' }
  return { ratio: Math.max(...tape.trades.map((trade) => trade.unitPrice)) / latest.unitPrice }
}
