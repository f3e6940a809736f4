import { Type } from '@sinclair/typebox'
import { SchemaVersion } from '../../src/kernel/schemas.ts'
import { DataQuality, NullableNumber } from '../../src/pipeline/schemas.ts'
import { BEHAVIOUR_STYLES, VERDICTS, WORTHINESS_LABELS } from './profile.ts'

const Literals = (values: readonly string[], description: string) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    { description },
  )

export const WalletIntelResult = Type.Object({
  schema_version: SchemaVersion,
  data_quality: DataQuality,
  missing_fields: Type.Array(Type.String(), { description: 'What could not be gathered (docs/data-quality.md)' }),
  wallet_address: Type.String(),
  coverage: Type.Object(
    {
      transactions_read: Type.Integer({ minimum: 0, description: 'Transactions of the wallet read, newest first' }),
      history_complete: Type.Boolean({
        description: 'True when those are all of its transactions (every figure then covers its whole history)',
      }),
      from: Type.Union([Type.String(), Type.Null()], { description: 'Oldest transaction read (ISO 8601)' }),
      to: Type.Union([Type.String(), Type.Null()], { description: 'Newest transaction read (ISO 8601)' }),
      sol_usd: NullableNumber('The SOL price the SOL legs are valued at in USD: today’s, not each trade’s'),
    },
    { description: 'How much history every figure below covers' },
  ),
  total_trades: Type.Integer({ minimum: 0, description: 'Buys and sells of a token against SOL, USDC or USDT' }),
  buys: Type.Integer({ minimum: 0 }),
  sells: Type.Integer({ minimum: 0 }),
  tokens_traded: Type.Integer({ minimum: 0 }),
  closed_positions: Type.Integer({
    minimum: 0,
    description: 'Round trips (bought, then sold down to dust) whose every leg the history shows',
  }),
  open_positions: Type.Integer({ minimum: 0 }),
  win_rate_pct: NullableNumber('Share of closed positions that returned more than they cost; null with none closed'),
  realized_pnl_usd: NullableNumber(
    'Proceeds minus cost of the closed positions, USD (SOL legs at sol_usd; fees and rent included); null without a SOL price',
  ),
  realized_pnl_pct: NullableNumber('realized_pnl_usd over the closed positions’ cost, percent'),
  avg_hold_time_s: NullableNumber('Mean time from first buy to closing sell, seconds; null with none closed'),
  median_hold_time_s: NullableNumber('Median of the same'),
  funding_origin: Type.Object(
    {
      funder: Type.Union([Type.String(), Type.Null()], {
        description: 'Who paid the wallet its first SOL; null when its first transaction was not read',
      }),
      amount_sol: NullableNumber('SOL received then'),
      at: Type.Union([Type.String(), Type.Null()], { description: 'When (ISO 8601)' }),
      exchange: Type.Union([Type.String(), Type.Null()], {
        description: 'The exchange whose known hot wallet paid it (a sourced list: docs/catalogue.md); null otherwise',
      }),
    },
    { description: "The wallet's first funding, from its oldest transaction (read only when the whole history is)" },
  ),
  tokens_created: Type.Integer({ minimum: 0, description: 'Mints it initialised (paid for) in the history read' }),
  rugs: Type.Integer({
    minimum: 0,
    description: 'Tokens it created whose liquidity it pulled (received both sides from the pool), in the history read',
  }),
  behaviour_style: Literals(BEHAVIOUR_STYLES, 'How the wallet trades (rules in docs/catalogue.md)'),
  launches_assessed: Type.Integer({
    minimum: 0,
    description: 'Tokens it bought whose launch was read, for the sniper rule',
  }),
  launches_sniped: Type.Integer({ minimum: 0, description: 'Of those, bought within the first slots of the pool' }),
  copy_trade_worthiness: Type.Object({
    score: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()]),
    label: Literals(WORTHINESS_LABELS, 'HIGH, MEDIUM, LOW, AVOID, or UNKNOWN with too short a record'),
    reasons: Type.Array(Type.String()),
  }),
  verdict: Literals(VERDICTS, 'What the record says, in one word (rules in docs/catalogue.md)'),
  summary: Type.String(),
})
