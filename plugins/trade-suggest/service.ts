/**
 * POST /trade/suggest: candidates from the radars (the signal radar's convergence, the launch radar's
 * curves near completion), filtered by the risk appetite into a shortlist; the full battery — quick
 * scan, market intel, deep dive on one shared set of facts, and an exit check at the provisional size —
 * on the best; a hard gate moves on to the next while time allows. The rules are plugins/trade-suggest/rules.ts.
 */
import type { ServiceContext } from '../../src/context.ts'
import { exitCheck } from '../exit-check/service.ts'
import { SCHEMA_VERSION } from '../../src/kernel/version.ts'
import { launchRadar } from '../launch-radar/service.ts'
import { signalRadar } from '../signal-radar/service.ts'
import { USDC_MINT_ADDRESS } from '../../src/onchain/programs.ts'
import { DEEP_DIVE_POLICY, MARKET_INTEL_POLICY, QUICK_SCAN_POLICY } from '../../src/pipeline/policies.ts'
import { withTokenScan } from '../../src/pipeline/scan-token.ts'
import type { DataQuality } from '../../src/kernel/vocabulary.ts'
import type { JupiterInterval } from '../../src/sources/jupiter.ts'
import { BUDGET_USD, type SuggestBody, type SuggestSource } from './schemas.ts'
import type { Static } from '@sinclair/typebox'
import { deepDiveAnswer } from '../deep-dive/service.ts'
import { marketIntelAnswer } from '../market-intel/service.ts'
import {
  APPETITES,
  type Battery,
  citedFactors,
  decide,
  type Gate,
  gatesOf,
  type RiskAppetite,
  sizeCapUsd,
  tradePlan,
} from './rules.ts'
import { howMany, pct, usd } from '../../src/rendering/format.ts'

/** A battery gets at most 25 s. */
const BATTERY_MS = 25_000
/** Another candidate is tried after a gated one only with this much time left. */
const RETRY_LEFT_MS = 12_000
/** A launchpad coin (a bonding curve, no pool to size against) gets this share of the appetite's size. */
export const LAUNCHPAD_SIZE_SHARE = 0.5
/** At most this many candidates get the battery; the shortlist shows at most SHORTLIST. */
const MAX_BATTERIES = 3
const SHORTLIST = 5

interface Candidate {
  token_address: string
  symbol: string
  name: string
  source: 'signal' | 'launch'
  radar_rank: number
  /** 0–100: the signal radar's convergence score, or a curve's bonding progress. */
  radar_score: number
  quick_grade: string | null
  liquidity_usd: number | null
}

type Outcome = 'SELECTED' | 'GATED' | 'NOT_CHECKED'

/** The radars' items as candidates, each radar read once, within the appetite's filters. */
async function candidatesOf(
  ctx: ServiceContext,
  source: SuggestSource,
  interval: JupiterInterval,
  riskAppetite: RiskAppetite,
  radarsAt: number,
  missing: Set<string>,
): Promise<{ shortlist: Candidate[]; considered: number; filtered: Record<string, number> }> {
  const appetite = APPETITES[riskAppetite]
  const deadlines = { feedAt: radarsAt - 1_500, answerAt: radarsAt }
  const jupiter = ctx.sources.jupiter
  const wantSignal = source !== 'launch'
  const wantLaunch = source !== 'signal' && appetite.launchpad
  const [signals, launches] = await Promise.all([
    wantSignal && jupiter ? signalRadar(ctx, jupiter, { interval, limit: 15 }, deadlines) : null,
    wantLaunch && ctx.sources.solana
      ? launchRadar(
          ctx,
          { stage: 'near_completion', new_within_minutes: 1, preset: 'none', limit: 15 },
          deadlines.answerAt,
        )
      : null,
  ])
  if (wantSignal && (!signals || signals.data_quality === 'LIMITED')) missing.add('signal_radar')
  if (wantLaunch && (!launches || launches.data_quality === 'LIMITED')) missing.add('launch_radar')
  const all: Candidate[] = [
    ...(signals?.items ?? []).map((item) => ({
      token_address: item.token_address,
      symbol: item.symbol,
      name: item.name,
      source: 'signal' as const,
      radar_rank: item.rank ?? 0,
      radar_score: item.convergence_score,
      quick_grade: item.quick_scan?.grade ?? null,
      liquidity_usd: item.liquidity_usd,
    })),
    ...(launches?.items ?? []).map((item) => ({
      token_address: item.token_address,
      symbol: item.symbol,
      name: item.name,
      source: 'launch' as const,
      radar_rank: item.rank ?? 0,
      radar_score: item.flags.length > 0 ? 0 : item.bonding_progress_pct,
      quick_grade: item.quick_scan?.grade ?? null,
      liquidity_usd: null,
    })),
  ]
  const filtered: Record<string, number> = { grade: 0, liquidity: 0, launchpad_flags: 0 }
  const kept = all.filter((candidate) => {
    if (candidate.quick_grade === null || !appetite.grades.includes(candidate.quick_grade)) {
      filtered.grade = filtered.grade! + 1
      return false
    }
    if (candidate.source === 'signal' && (candidate.liquidity_usd ?? 0) < appetite.minLiquidityUsd) {
      filtered.liquidity = filtered.liquidity! + 1
      return false
    }
    if (candidate.source === 'launch' && candidate.radar_score === 0) {
      filtered.launchpad_flags = filtered.launchpad_flags! + 1
      return false
    }
    return true
  })
  kept.sort((a, b) => b.radar_score - a.radar_score || a.radar_rank - b.radar_rank)
  return { shortlist: kept.slice(0, SHORTLIST), considered: all.length, filtered }
}

interface Checked {
  battery: Battery
  missing: string[]
  flags: string[]
  keyRisks: { code: string; title: string; severity: string }[]
}

/** The full battery on one candidate, on one set of facts, by `deadlineAt`. */
async function batteryOf(
  ctx: ServiceContext,
  candidate: Candidate,
  exitSizeUsd: number,
  deadlineAt: number,
): Promise<Checked> {
  const missing: string[] = []
  const usdc = ctx.config.SOLANA_PAYMENT_ASSET ?? USDC_MINT_ADDRESS
  const settle = <T>(name: string, work: Promise<T>) =>
    work.catch(() => {
      missing.push(name)
      return null
    })
  const [quick, market, deep, exit] = await withTokenScan(ctx, candidate.token_address, deadlineAt, ({ facts, scan }) =>
    Promise.all([
      settle('quick_scan', scan(QUICK_SCAN_POLICY)),
      settle('market_intel', scan(MARKET_INTEL_POLICY)),
      settle('deep_dive', scan(DEEP_DIVE_POLICY)),
      settle('exit_check', exitCheck(facts, exitSizeUsd, usdc)),
    ]),
  )
  const intel = market ? marketIntelAnswer(market, candidate.token_address) : null
  const dive = deep ? deepDiveAnswer(candidate.token_address, deep) : null
  // Findings that hold the grade at C or below, in either scan (a hard fail caps at F).
  const capped = [quick, deep].flatMap((scan) =>
    (scan?.factors ?? [])
      .filter((entry) => entry.hard_fail || ['C', 'D', 'F'].includes(entry.grade_ceiling ?? ''))
      .map((entry) => entry.code),
  )
  return {
    battery: {
      capped: [...new Set(capped)],
      quick: quick ? { grade: quick.grade, score: quick.score } : null,
      market: intel
        ? {
            signal: intel.signal,
            token_health: intel.token_health,
            volatility: intel.volatility,
            liquidity_usd: intel.liquidity_usd,
          }
        : null,
      deep: dive
        ? {
            grade: dive.risk_grade,
            score: deep!.score,
            data_quality: dive.data_quality,
            recommendation: dive.recommendation.action,
            is_honeypot: dive.is_honeypot ?? null,
            previous_rugs: dive.dev_wallet_analysis?.previous_rugs ?? null,
          }
        : null,
      exit: exit
        ? {
            size_usdc: exit.size_usdc,
            sellable: exit.sellable,
            expected_return_usdc: exit.expected_return_usdc,
            exit_price_impact_pct: exit.exit_price_impact_pct,
            exit_rating: exit.exit_rating,
          }
        : null,
    },
    missing,
    flags: dive?.historical_flags ?? [],
    keyRisks: (dive?.key_drivers ?? []).map((driver) => ({
      code: driver.code,
      title: driver.title,
      severity: driver.severity,
    })),
  }
}

const quality = (missing: ReadonlySet<string>, none: boolean): DataQuality =>
  none ? 'LIMITED' : missing.size === 0 ? 'FULL' : 'PARTIAL'

/** The suggestion: the radars read by `radarsAt`, the answer by `answerAt` (epoch ms, from its manifest). */
export async function suggestTrade(
  ctx: ServiceContext,
  request: Static<typeof SuggestBody>,
  { radarsAt, answerAt }: { radarsAt: number; answerAt: number },
) {
  const riskAppetite = request.risk_appetite ?? 'balanced'
  const source = request.source ?? 'both'
  const budget = request.budget_usd ?? BUDGET_USD.default
  const appetite = APPETITES[riskAppetite]
  const missing = new Set<string>()
  const { shortlist, considered, filtered } = await candidatesOf(
    ctx,
    source,
    request.interval ?? '1h',
    riskAppetite,
    radarsAt,
    missing,
  )
  const budgetFor = (candidate: Candidate) => (candidate.source === 'launch' ? budget * LAUNCHPAD_SIZE_SHARE : budget)
  const outcomes = new Map<string, { outcome: Outcome; gates: Gate[] }>()
  let chosen: { candidate: Candidate; checked: Checked; size: number } | undefined
  let firstGated: typeof chosen
  for (const candidate of shortlist.slice(0, MAX_BATTERIES)) {
    if (chosen || (firstGated && answerAt - Date.now() < RETRY_LEFT_MS)) break
    const size = Math.max(
      1,
      Math.round(sizeCapUsd(appetite, budgetFor(candidate), candidate.liquidity_usd) * 100) / 100,
    )
    const checked = await batteryOf(ctx, candidate, size, Math.min(Date.now() + BATTERY_MS, answerAt - 500))
    const gates = gatesOf(checked.battery)
    if (gates.length > 0) {
      outcomes.set(candidate.token_address, { outcome: 'GATED', gates })
      firstGated ??= { candidate, checked, size }
      continue
    }
    outcomes.set(candidate.token_address, { outcome: 'SELECTED', gates: [] })
    chosen = { candidate, checked, size }
  }
  const picked = chosen ?? firstGated
  if (picked && !chosen)
    outcomes.set(picked.candidate.token_address, {
      outcome: 'SELECTED',
      gates: outcomes.get(picked.candidate.token_address)!.gates,
    })
  const shortlistOut = shortlist.map((candidate) => ({
    token_address: candidate.token_address,
    symbol: candidate.symbol,
    source: candidate.source,
    radar_score: Math.round(candidate.radar_score),
    quick_grade: candidate.quick_grade,
    outcome: outcomes.get(candidate.token_address)?.outcome ?? ('NOT_CHECKED' as Outcome),
    gates: outcomes.get(candidate.token_address)?.gates ?? [],
  }))
  const envelope = (extra: Set<string>) => {
    const all = new Set([...missing, ...extra])
    return {
      schema_version: SCHEMA_VERSION,
      data_quality: quality(all, picked === undefined && missing.size > 0),
      missing_fields: [...all],
      generated_at: new Date().toISOString(),
      risk_appetite: riskAppetite,
      source,
      budget_usd: budget,
    }
  }
  if (!picked) {
    return {
      ...envelope(new Set()),
      recommendation: {
        action: 'NO_CANDIDATE' as const,
        conviction: 0,
        suggested_size_usd: 0,
        reason: `Nothing on the radars passes the ${riskAppetite} filters now`,
        hard_gates: [],
        cited_factors: [],
        trade_plan: null,
      },
      selection: {
        candidate: null,
        why_selected: 'No candidate passed the filters',
        considered,
        filtered_out: filtered,
        shortlist: shortlistOut,
      },
      battery: null,
      summary: `No suggestion: ${howMany(considered, 'radar entry', 'radar entries')}${considered === 0 ? '' : ', none'} passing the ${riskAppetite} filters (grade ${appetite.grades.join('/')}${source !== 'launch' ? `, liquidity ≥ ${usd(appetite.minLiquidityUsd)}` : ''}).`,
    }
  }
  const { candidate, checked, size } = picked
  const factors = citedFactors(checked.battery, candidate.radar_score)
  const decision = decide(checked.battery, factors, appetite, budgetFor(candidate), candidate.liquidity_usd)
  const buying = decision.action === 'BUY' || decision.action === 'SMALL_BUY'
  const usdc = ctx.config.SOLANA_PAYMENT_ASSET ?? USDC_MINT_ADDRESS
  const plan = tradePlan(checked.battery, appetite, riskAppetite)
  const why =
    chosen === undefined
      ? `Every candidate checked tripped a hard gate; the strongest (${candidate.symbol}) is shown with why`
      : `${candidate.symbol || candidate.token_address} is the strongest ${candidate.source === 'signal' ? `signal-radar entry (convergence ${Math.round(candidate.radar_score)})` : `curve near completion (${pct(candidate.radar_score)} bonded)`} that passes the ${riskAppetite} filters and the hard gates`
  return {
    ...envelope(new Set(checked.missing)),
    recommendation: {
      action: decision.action,
      conviction: decision.conviction,
      suggested_size_usd: decision.suggested_size_usd,
      reason: decision.reason,
      hard_gates: decision.gates,
      cited_factors: factors,
      trade_plan: buying
        ? {
            ...plan,
            quote_request: {
              input_mint: usdc,
              output_mint: candidate.token_address,
              amount_in: String(Math.round(decision.suggested_size_usd * 1_000_000)),
              slippage_bps: plan.slippage_bps,
            },
          }
        : null,
    },
    selection: {
      candidate: {
        token_address: candidate.token_address,
        symbol: candidate.symbol,
        name: candidate.name,
        source: candidate.source,
        radar_rank: candidate.radar_rank,
        radar_score: Math.round(candidate.radar_score),
        quick_grade: candidate.quick_grade,
      },
      why_selected: why,
      considered,
      filtered_out: filtered,
      shortlist: shortlistOut,
    },
    battery: {
      quick_scan: checked.battery.quick,
      market_intel: checked.battery.market,
      deep_dive: checked.battery.deep
        ? { ...checked.battery.deep, flags: checked.flags, key_risks: checked.keyRisks }
        : null,
      exit_check: checked.battery.exit,
      checked_size_usdc: size,
    },
    summary: `${decision.action}${buying ? ` ${candidate.symbol} for ${usd(decision.suggested_size_usd)}` : ` ${candidate.symbol}`} — conviction ${decision.conviction}/100 (${riskAppetite}). ${decision.reason}.`,
  }
}
