import type { Static } from '@sinclair/typebox'
import type { ServiceContext } from '../../src/context.ts'
import { EXIT_SIZE_USDC } from '../exit-check/schemas.ts'
import { exitCheck } from '../exit-check/service.ts'
import type { Snapshot } from '../../src/feeds/feed-answer.ts'
import { FILL_WINDOW_S } from '../../src/launchpad-index/curves.ts'
import { momentumOf } from './scoring.ts'
import { USDC_MINT_ADDRESS } from '../../src/onchain/programs.ts'
import { MARKET_INTEL_POLICY } from '../../src/pipeline/policies.ts'
import { withTokenScan } from '../../src/pipeline/scan-token.ts'
import {
  MOMENTUM_LIMIT,
  MOMENTUM_MIN_PROGRESS,
  type MomentumBody,
  type MomentumItem,
  type MomentumResult,
} from './schemas.ts'
import {
  flagsOf,
  focusItem,
  graduationCandidates,
  launchpadFeed,
  type Read,
} from '../../src/launchpad-index/reading.ts'
import { count, num, pct } from '../../src/rendering/format.ts'

type Item = Static<typeof MomentumItem>

/** The last FILL_WINDOW_S of a curve's trades: the share of the SOL volume that bought, and the traders. */
function recentOf(read: Read, nowS: number): { buySharePct: number | null; traders: number } {
  const recent = read.trades.filter((trade) => trade.at > nowS - FILL_WINDOW_S)
  const volume = recent.reduce((sum, trade) => sum + Number(trade.solAmount), 0)
  const bought = recent.filter((trade) => trade.isBuy).reduce((sum, trade) => sum + Number(trade.solAmount), 0)
  return {
    buySharePct: volume > 0 ? Math.round((bought / volume) * 10_000) / 100 : null,
    traders: new Set(recent.map((trade) => trade.user)).size,
  }
}

/** One candidate's enrichments, each bounded by the deadline; a failed one is named missing. */
async function enrich(
  ctx: ServiceContext,
  read: Read,
  nowS: number,
  grade: Snapshot,
  deadlineAt: number,
  rank: number | null,
): Promise<Item> {
  const usdc = ctx.config.SOLANA_PAYMENT_ASSET ?? USDC_MINT_ADDRESS
  // The market scan, the exit check and the developer's history, side by side on one set of facts.
  const [market, exit, developer] = await withTokenScan(ctx, read.curve.mint, deadlineAt, ({ facts, scan }) =>
    Promise.all([
      scan(MARKET_INTEL_POLICY)
        .then((intel) => {
          if (intel.quality.missing_fields.includes('market')) return null
          const number = (name: string) =>
            typeof intel.fields[name] === 'number' ? (intel.fields[name] as number) : null
          return { priceChange5mPct: number('price_change_5m_pct'), priceChange1hPct: number('price_change_1h_pct') }
        })
        .catch(() => null),
      exitCheck(facts, EXIT_SIZE_USDC.default, usdc)
        .then((answer) =>
          answer.sellable === null
            ? null
            : { sellable: answer.sellable, impactPct: answer.exit_price_impact_pct, rating: answer.exit_rating },
        )
        .catch(() => null),
      facts
        .fact('dev_history')
        .then((history) => (history ? { previousRugs: history.previousRugs.length } : null))
        .catch(() => null),
    ]),
  )
  const flags = flagsOf(read.reading, grade)
  const { score, label, factors } = momentumOf({
    reading: read.reading,
    recent: recentOf(read, nowS),
    market,
    exit,
    developer,
    grade: grade?.grade ?? null,
    flags,
  })
  return {
    rank,
    token_address: read.curve.mint,
    symbol: read.curve.symbol,
    name: read.curve.name,
    bonding_progress_pct: read.reading.progressPct,
    fill_rate_pct_per_min: read.reading.fillRatePctPerMin,
    minutes_to_graduation: read.reading.minutesToGraduation,
    momentum_score: score,
    label,
    cited_factors: factors,
    components: {
      market_intel: market ? 'answered' : 'missing',
      exit_check: exit ? 'answered' : 'missing',
      developer_history: developer ? 'answered' : 'missing',
      quick_scan: grade ? 'answered' : 'missing',
    },
    sellable: exit?.sellable ?? null,
    exit_rating: exit?.rating ?? null,
    developer_previous_rugs: developer?.previousRugs ?? null,
    flags,
    quick_scan: grade,
  }
}

/**
 * Graduation momentum: the graduation radar's top candidates (soonest to graduate), each enriched and
 * scored (plugins/graduation-momentum/scoring.ts), highest momentum first.
 */
export function graduationMomentum(
  ctx: ServiceContext,
  request: Static<typeof MomentumBody>,
  deadlineAt: number,
): Promise<Static<typeof MomentumResult>> {
  const minProgress = request.min_progress_pct ?? MOMENTUM_MIN_PROGRESS.default
  const limit = request.limit ?? MOMENTUM_LIMIT.default
  return launchpadFeed(ctx, request.token_address, deadlineAt, {
    solPrice: false,
    select({ reads }) {
      const candidates = graduationCandidates(reads, minProgress, limit)
      return { candidates, mints: candidates.map((read) => read.curve.mint) }
    },
    async answer({ nowS, index, missing }, { candidates }, { grades, focusRead, focusGrade }) {
      // The focus is enriched once: with the candidates when it is one, else after them.
      const extra = focusRead && !candidates.includes(focusRead) ? [{ read: focusRead, grade: focusGrade }] : []
      const all = [...candidates.map((read, i) => ({ read, grade: grades[i] ?? null })), ...extra]
      const enriched = await Promise.all(all.map(({ read, grade }) => enrich(ctx, read, nowS, grade, deadlineAt, null)))
      for (const item of enriched)
        for (const [component, state] of Object.entries(item.components))
          if (state === 'missing' && component !== 'quick_scan') missing.add(component)
      const items = enriched
        .slice(0, candidates.length)
        .sort((a, b) => b.momentum_score - a.momentum_score)
        .map((item, i) => ({ ...item, rank: i + 1 }))
      const focus = focusItem(items, focusRead, () => enriched.at(-1))
      const top = items[0]
      return {
        body: { min_progress_pct: minProgress, index, items, focus },
        summary: () =>
          top
            ? `${count(items.length, 'curve')} at ${pct(minProgress)} or more; the most momentum: ${top.symbol || top.token_address} at ${num(top.momentum_score)}/100 (${top.label}).`
            : `No curve at ${pct(minProgress)} or more is bonding now.`,
      }
    },
  })
}
