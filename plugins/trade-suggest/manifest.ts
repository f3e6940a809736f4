import { Type } from '@sinclair/typebox'
import { defineManifest } from '../../src/kernel/manifest.ts'
import { SchemaVersion } from '../../src/kernel/schemas.ts'
import { ExitCheckResult } from '../exit-check/schemas.ts'
import { DataQuality, Grade, Nullable, NullableNumber } from '../../src/pipeline/schemas.ts'
import { ACTIONS, GATES, RISK_APPETITES } from './rules.ts'
import { Literals, SUGGEST_SOURCES, SuggestBody } from './schemas.ts'

const QuoteRequest = Type.Object(
  {
    input_mint: Type.String({ description: 'USDC (what the size is paid in)' }),
    output_mint: Type.String({ description: 'The suggested token' }),
    amount_in: Type.String({
      description: 'suggested_size_usd in USDC atomic units (6 decimals), as a decimal string',
    }),
    slippage_bps: Type.Integer(),
  },
  {
    description:
      'The body of POST /trade/quote for this plan: add user_public_key (the wallet that will sign) and send it as is',
  },
)

export const SuggestResult = Type.Object(
  {
    schema_version: SchemaVersion,
    data_quality: DataQuality,
    missing_fields: Type.Array(Type.String(), {
      description:
        'What could not be read: signal_radar, launch_radar, quick_scan, market_intel, deep_dive, exit_check',
    }),
    generated_at: Type.String(),
    risk_appetite: Literals(RISK_APPETITES),
    source: Literals(SUGGEST_SOURCES),
    budget_usd: Type.Number(),
    recommendation: Type.Object({
      action: Literals(
        ACTIONS,
        'BUY, SMALL_BUY (half size), WATCH, AVOID, or NO_CANDIDATE when nothing passes the filters',
      ),
      conviction: Type.Integer({
        minimum: 0,
        maximum: 100,
        description: '50 moved by the cited factors’ points; 0 under a hard gate',
      }),
      suggested_size_usd: Type.Number({ minimum: 0, description: 'What to put in, USD (0 unless BUY or SMALL_BUY)' }),
      reason: Type.String(),
      hard_gates: Type.Array(Literals(GATES), {
        description: 'Gates that force AVOID whatever the momentum (docs/catalogue.md, "The suggestion rules")',
      }),
      cited_factors: Type.Array(Type.Object({ factor: Type.String(), points: Type.Integer(), detail: Type.String() }), {
        description: 'Every point that moved the conviction, and why',
      }),
      trade_plan: Nullable(
        Type.Object({
          slippage_bps: Type.Integer({
            description: '1.5× the measured exit impact, 50 bps at least, the appetite’s ceiling at most',
          }),
          max_price_impact_pct: Type.Number({ description: 'Walk away from a quote that moves the price more' }),
          round_trip_exit_cost_pct: NullableNumber('What buying then selling the checked size costs now, percent'),
          stop_loss_hint: Type.String(),
          quote_request: QuoteRequest,
        }),
        { description: 'How to trade it; null unless the action is BUY or SMALL_BUY' },
      ),
    }),
    selection: Type.Object({
      candidate: Nullable(
        Type.Object({
          token_address: Type.String(),
          symbol: Type.String(),
          name: Type.String(),
          source: Literals(['signal', 'launch']),
          radar_rank: Type.Integer(),
          radar_score: Type.Integer({
            description: 'Convergence score (signal radar) or bonding progress (launch radar), 0–100',
          }),
          quick_grade: Nullable(Grade),
        }),
      ),
      why_selected: Type.String(),
      considered: Type.Integer({ minimum: 0, description: 'Radar entries read' }),
      filtered_out: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
        description: 'Entries left out by the appetite’s filters, by reason (grade, liquidity, launchpad_flags)',
      }),
      shortlist: Type.Array(
        Type.Object({
          token_address: Type.String(),
          symbol: Type.String(),
          source: Literals(['signal', 'launch']),
          radar_score: Type.Integer(),
          quick_grade: Nullable(Grade),
          outcome: Literals(['SELECTED', 'GATED', 'NOT_CHECKED']),
          gates: Type.Array(Literals(GATES)),
        }),
        { description: 'The strongest candidates that passed the filters (at most 5), in the order tried' },
      ),
    }),
    battery: Nullable(
      Type.Object({
        quick_scan: Nullable(Type.Object({ grade: Grade, score: Type.Integer() })),
        market_intel: Nullable(
          Type.Object({
            signal: Type.String(),
            token_health: Type.String(),
            volatility: Type.String(),
            liquidity_usd: Type.Number(),
          }),
        ),
        deep_dive: Nullable(
          Type.Object({
            grade: Grade,
            score: Type.Integer(),
            data_quality: DataQuality,
            recommendation: Type.String(),
            is_honeypot: Nullable(Type.Boolean()),
            previous_rugs: Nullable(Type.Boolean()),
            flags: Type.Array(Type.String()),
            key_risks: Type.Array(Type.Object({ code: Type.String(), title: Type.String(), severity: Type.String() })),
          }),
        ),
        exit_check: Nullable(
          Type.Object({
            size_usdc: Type.Number(),
            sellable: Nullable(Type.Boolean()),
            expected_return_usdc: NullableNumber('USDC the sale of that size returns now'),
            exit_price_impact_pct: NullableNumber('Price impact of that sale, percent'),
            exit_rating: ExitCheckResult.properties.exit_rating,
          }),
        ),
        checked_size_usdc: Type.Number({ description: 'The size the exit was checked at (the appetite’s cap)' }),
      }),
      {
        description:
          'The full battery on the selected candidate (null without one); a part that did not finish is null',
      },
    ),
    summary: Type.String(),
  },
  { description: 'One trade idea from the radars, checked by every scanner, with a plan /trade/quote accepts' },
)

export const manifest = defineManifest({
  name: 'trade-suggest',
  dependsOn: ['market-intel', 'deep-dive', 'exit-check', 'signal-radar', 'launch-radar'],
  routes: {
    suggest: {
      method: 'POST',
      path: '/trade/suggest',
      summary: 'One trade idea from the radars, run through every scanner, with a ready trade plan',
      description:
        'Picks one candidate from the signal radar and the launch radar (`source`: signal, launch or both) for a ' +
        '`risk_appetite` (conservative, balanced, aggressive), runs the full battery on it — quick scan, market intel, ' +
        'deep dive, exit check — and answers `recommendation {action, conviction 0–100, suggested_size_usd (a share of ' +
        '`budget_usd`), hard_gates, cited_factors, trade_plan}` and `selection {candidate, why_selected, shortlist}`. ' +
        'Rule-based and documented (docs/catalogue.md); hard gates (grade D/F, not sellable, a PUNITIVE exit, honeypot, serial rugger, ' +
        'a deep dive that says AVOID) force AVOID whatever the momentum. `trade_plan.quote_request` plus your ' +
        '`user_public_key` is a POST /trade/quote body. Not financial advice. Answers within 45 s.',
      price: { usd: '0.60' },
      body: SuggestBody,
      response: SuggestResult,
      rateLimit: 'scanner',
      tags: ['catalogue'],
      // Answers within 45 s: the radars are read by 8 s.
      deadlineMs: { radarsAt: 8_000, answerAt: 44_500 },
      requires: [
        { source: 'jupiter', why: 'JUPITER_URL is not set: the suggestion reads the radars and runs every scanner' },
        { source: 'solana', why: 'SOLANA_RPC_URL is not set: the suggestion reads the radars and runs every scanner' },
      ],
    },
  },
})
