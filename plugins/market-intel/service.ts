import type { Static } from '@sinclair/typebox'
import type { ScanResult } from '../../src/pipeline/scan.ts'
import { SCHEMA_VERSION } from '../../src/kernel/version.ts'
import { type MemberOf, measuredOr, NOT_MEASURED_TEXT, unmeasured } from '../../src/rendering/answer-prose.ts'
import { count, pct, usd } from '../../src/rendering/format.ts'
import type { MarketIntelResult } from './schemas.ts'
import { SIGNAL_SUBTYPES, subtypeOf } from './subtypes.ts'

type Answer = Static<typeof MarketIntelResult>

/** Answer fields in wire order: unmeasured ones are listed in `missing_fields` in this order. */

/**
 * Maps a market-intel run to the spec §2.3 answer. Required numbers a signal could not measure are 0
 * and required enums take their documented fallback; either way the cause is in `missing_fields`:
 * the missing fact, or the field's own name when the facts were read but did not hold it.
 */
export function marketIntelAnswer(scan: ScanResult, mint: string): Answer {
  // biome-ignore lint/suspicious/noExplicitAny: signals type their own fields; the answer builder reads the ones it names
  const fields = scan.fields as Record<string, any>
  const { quality } = scan
  const number = (name: string): number => (typeof fields[name] === 'number' ? fields[name] : 0)
  const nullable = (name: string): number | null => (typeof fields[name] === 'number' ? fields[name] : null)
  const codes = new Set(scan.factors.map((entry) => entry.code))
  const answer = {
    schema_version: SCHEMA_VERSION,
    current_price_usd: number('current_price_usd'),
    price_change_5m_pct: nullable('price_change_5m_pct'),
    price_change_15m_pct: nullable('price_change_15m_pct'),
    price_change_1h_pct: number('price_change_1h_pct'),
    price_change_24h_pct: number('price_change_24h_pct'),
    pct_from_ath: nullable('pct_from_ath'),
    ath_price_usd: nullable('ath_price_usd'),
    volume_1h_usd: number('volume_1h_usd'),
    volume_24h_usd: number('volume_24h_usd'),
    liquidity_usd: number('liquidity_usd'),
    buy_sell_ratio: number('buy_sell_ratio'),
    // No flow read is no pressure seen.
    buy_pressure: fields.buy_pressure ?? 'LOW',
    sell_pressure: fields.sell_pressure ?? 'LOW',
    large_txs_last_hour: number('large_txs_last_hour'),
    // Not measured is not shown calm, nor shown liquid: the conservative answers (as the quick scan
    // reports an unreadable authority as not revoked).
    volatility: fields.volatility ?? 'HIGH',
    token_health: fields.token_health ?? 'ILLIQUID',
    signal: 'NEUTRAL' as Answer['signal'],
    signal_subtype: '',
    factors: scan.factors,
    confidence: { ...scan.confidence, data_completeness: quality.completeness },
    data_confidence: quality.data_confidence,
    data_quality: quality.data_quality,
    missing_fields: quality.missing_fields as string[],
    market_summary: '',
  } satisfies Answer
  const subtype = subtypeOf({
    priceKnown: nullable('current_price_usd') !== null,
    tokenHealth: answer.token_health,
    buyPressure: answer.buy_pressure,
    sellPressure: answer.sell_pressure,
    priceChange24hPct: nullable('price_change_24h_pct'),
    codes,
  })
  answer.signal = SIGNAL_SUBTYPES[subtype].signal
  answer.signal_subtype = subtype
  answer.market_summary = summarise(answer, symbolOf(scan, mint))
  return answer
}

function symbolOf(scan: ScanResult, mint: string): string | null {
  for (const pair of scan.facts.get('market')?.pairs ?? []) {
    if (pair.baseToken.address === mint) return pair.baseToken.symbol || null
    if (pair.quoteToken.address === mint) return pair.quoteToken.symbol || null
  }
  return null
}

function summarise(answer: Answer, symbol: string | null): string {
  const name = symbol ?? 'The token'
  const known = (member: MemberOf<'market_intel'>, text: () => string) =>
    measuredOr(answer, 'market_intel', member, text)
  const signed = (member: MemberOf<'market_intel'>) =>
    known(member, () => {
      const value = answer[member as keyof Answer] as number | null
      return pct(value, { signed: true })
    })
  const dollars = (member: MemberOf<'market_intel'>) =>
    known(member, () => usd(answer[member as keyof Answer] as number))
  const parts: string[] = []
  if (answer.factors.some((entry) => entry.code === 'NO_MARKET'))
    // What a trader must read first: nothing trades it (the zeros below are placeholders).
    parts.push(`${name}: NO_MARKET — no pool trades this token, so it has no price, volume or liquidity to read.`)
  else if (answer.signal_subtype === 'INSUFFICIENT_DATA')
    parts.push(`${name}: no USD price could be read, so no market figure is reported (the zeros are placeholders).`)
  else {
    const large = known('large_txs_last_hour', () => `${answer.large_txs_last_hour}`)
    const ratio = unmeasured(answer, 'market_intel', 'buy_sell_ratio')
      ? `buys per sell ${NOT_MEASURED_TEXT}`
      : `${count(answer.buy_sell_ratio, 'buy')} per sell`
    parts.push(
      `${name} at ${known('current_price_usd', () => usd(answer.current_price_usd))} (${signed('price_change_1h_pct')} 1 h, ${signed('price_change_24h_pct')} 24 h` +
        `${answer.pct_from_ath === null ? '' : `, ${signed('pct_from_ath')} from its high`}).`,
      `Volume ${dollars('volume_24h_usd')} in 24 h (${dollars('volume_1h_usd')} in the last hour), liquidity ${dollars('liquidity_usd')}; ` +
        `${ratio}, buy pressure ${known('buy_pressure', () => answer.buy_pressure)}, sell pressure ${known('sell_pressure', () => answer.sell_pressure)}; ` +
        `large trades in the last hour: ${large}; volatility ${known('volatility', () => answer.volatility)}.`,
    )
  }
  parts.push(
    `Health ${known('token_health', () => answer.token_health)}. Signal ${answer.signal} (${answer.signal_subtype}): ${SIGNAL_SUBTYPES[answer.signal_subtype as keyof typeof SIGNAL_SUBTYPES].meaning}`,
  )
  if (answer.missing_fields.length > 0) parts.push(`Missing or not measured: ${answer.missing_fields.join(', ')}.`)
  return parts.join(' ')
}
