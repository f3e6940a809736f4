import { Type, type Static } from '@sinclair/typebox'
import { ERROR_CATALOGUE } from '../../src/kernel/errors.ts'
import { SchemaVersion } from '../../src/kernel/schemas.ts'
import { SolanaAddress } from '../../src/onchain/address.ts'
import { EXIT_RATINGS } from '../../src/kernel/vocabulary.ts'
import { NullableEnum } from '../../src/pipeline/schemas.ts'

/** Every status a job can hold (docs/trade.md: the state machine, and spec §3's spelling B). */
export const REJECTED_STATUSES = [
  'REJECTED_VALIDATION',
  'REJECTED_RISK_GATE',
  'REJECTED_INSUFFICIENT_BALANCE',
  'REJECTED_NO_ROUTE',
  'REJECTED_PRICE_IMPACT',
  'REJECTED_SLIPPAGE_OUT_OF_RANGE',
  'REJECTED_SAME_MINT',
  'REJECTED_INTERNAL',
] as const
export const TRADE_STATUSES = ['QUOTED', 'EXECUTING', 'CONFIRMED', 'FAILED', 'EXPIRED', ...REJECTED_STATUSES] as const
export type TradeStatus = (typeof TRADE_STATUSES)[number]
export type RejectedStatus = (typeof REJECTED_STATUSES)[number]
const Status = Type.Union(
  TRADE_STATUSES.map((status) => Type.Literal(status)),
  { description: "The job's status (docs/trade.md)" },
)

/** Slippage the quote accepts, in basis points, and its default. */
export const SLIPPAGE_BPS = { min: 1, max: 1_000, default: 50 } as const

export const JobId = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,64}$',
  description: 'Job id: 1 to 64 letters, digits, _ or -',
})

export const QuoteRequest = Type.Object(
  {
    job_id: Type.Optional(JobId),
    input_mint: SolanaAddress('Mint being sold (wrapped SOL So11111111111111111111111111111111111111112 for SOL)'),
    output_mint: SolanaAddress('Mint being bought'),
    amount_in: Type.String({
      pattern: '^[0-9]{1,20}$',
      description:
        'Amount of input_mint to sell, in its atomic units (lamports for SOL; 1 USDC = "1000000"), as a decimal string; 1 to 18446744073709551615',
    }),
    slippage_bps: Type.Optional(
      Type.Integer({
        description: `Slippage tolerance in basis points, ${SLIPPAGE_BPS.min} to ${SLIPPAGE_BPS.max} (default ${SLIPPAGE_BPS.default}); outside → REJECTED_SLIPPAGE_OUT_OF_RANGE`,
      }),
    ),
    user_public_key: SolanaAddress(
      'The wallet that will sign and pay for the swap (the transaction is built for it). Not in spec §4.2, which cannot build a transaction without it',
    ),
  },
  { additionalProperties: false },
)
export type QuoteRequest = Static<typeof QuoteRequest>

export const Rejection = Type.Object(
  {
    code: Type.String({ description: 'Machine code of the rejection (docs/trade.md lists them)' }),
    reason: Type.String({ description: 'What happened and what to do about it' }),
    refundable: Type.Boolean({
      description: "True when nothing of the caller's was spent: no fee charged and no transaction landed on chain",
    }),
  },
  { description: 'Why the trade was not executed' },
)
export type Rejection = Static<typeof Rejection>

export const RouteLeg = Type.Object({
  venue: Type.String({ description: 'The venue (AMM) label' }),
  pool: Type.String({ description: 'The pool (AMM key)' }),
  input_mint: Type.String(),
  output_mint: Type.String(),
  percent: Type.Number({ description: 'Share of the amount routed through this leg' }),
})

export const QuoteDetails = Type.Object({
  input_mint: Type.String(),
  output_mint: Type.String(),
  in_amount: Type.String({ description: 'Atomic units of input_mint sold' }),
  out_amount: Type.String({ description: 'Atomic units of output_mint expected' }),
  min_out_amount: Type.String({
    description: 'The least output the transaction accepts (out_amount less the slippage)',
  }),
  slippage_bps: Type.Integer(),
  price_impact_pct: Type.Union([Type.Number(), Type.Null()], {
    description:
      'Price impact of this size, in percent; null when the aggregator did not report it (the risk gate then carries PRICE_IMPACT_UNKNOWN)',
  }),
  route: Type.Array(RouteLeg),
  last_valid_block_height: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'The transaction is valid until the chain passes this block height; null when no transaction was built (a rejected quote)',
  }),
  expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description:
      'Estimated wall time of that block height (~0.4 s a block); null when there is none or the current height could not be read',
  }),
})
export type QuoteDetails = Static<typeof QuoteDetails>

export const RiskGate = Type.Object({
  verdict: Type.Union([Type.Literal('PASS'), Type.Literal('WARN'), Type.Literal('BLOCK')], {
    description: 'BLOCK stops the quote (REJECTED_RISK_GATE); WARN lets it through with reasons',
  }),
  token: Type.String({ description: 'The mint checked: the one being bought' }),
  grade: Type.Union([Type.String(), Type.Null()], { description: 'Its quick-scan structural grade (A to F)' }),
  data_quality: Type.String({ description: 'FULL, PARTIAL or LIMITED: how much of the scan could be read' }),
  reasons: Type.Array(Type.Object({ code: Type.String(), severity: Type.String(), detail: Type.String() })),
})
export type RiskGate = Static<typeof RiskGate>

export const Execution = Type.Object({
  tx_signature: Type.String({ description: "The swap transaction's signature" }),
  slot: Type.Union([Type.Integer(), Type.Null()], { description: 'Slot it was confirmed in; null while unknown' }),
})

export const QuoteResult = Type.Object({
  schema_version: SchemaVersion,
  job_id: Type.String(),
  status: Type.Literal('QUOTED'),
  quote: QuoteDetails,
  risk_gate: RiskGate,
  unsigned_transaction_b64: Type.String({
    description: "Base64 v0 transaction: sign it with user_public_key's key, leave every byte of the message as it is",
  }),
  rejection: Type.Null(),
})

export const ExecuteRequest = Type.Object(
  {
    job_id: JobId,
    signed_transaction_b64: Type.String({
      minLength: 1,
      maxLength: 2_000,
      description: 'The quoted transaction, signed by user_public_key, base64',
    }),
  },
  { additionalProperties: false },
)

export const ExecuteResult = Type.Object({
  schema_version: SchemaVersion,
  job_id: Type.String(),
  status: Type.Literal('CONFIRMED'),
  execution: Execution,
  rejection: Type.Null(),
})

/** The 422 of quote and execute: the service's error body with the job's outcome. */
export const TradeRejectedBody = Type.Object(
  {
    schema_version: SchemaVersion,
    error: Type.Literal(true),
    code: Type.Literal('TRADE_REJECTED'),
    message: Type.String(),
    request_id: Type.String(),
    job_id: Type.String(),
    status: Status,
    execution: Type.Union([Execution, Type.Null()]),
    rejection: Rejection,
    quote: Type.Optional(QuoteDetails),
    risk_gate: Type.Optional(RiskGate),
  },
  { additionalProperties: true, description: `TRADE_REJECTED: ${ERROR_CATALOGUE.TRADE_REJECTED.message}` },
)

export const StatusParams = Type.Object({ job_id: JobId })

export const JobView = Type.Object({
  schema_version: SchemaVersion,
  job_id: Type.String(),
  status: Status,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  request: Type.Object({
    input_mint: Type.String(),
    output_mint: Type.String(),
    amount_in: Type.String(),
    slippage_bps: Type.Integer(),
    user_public_key: Type.String(),
  }),
  quote: Type.Union([QuoteDetails, Type.Null()]),
  risk_gate: Type.Union([RiskGate, Type.Null()]),
  execution: Type.Union([Execution, Type.Null()]),
  rejection: Type.Union([Rejection, Type.Null()]),
  fee: Type.Union(
    [
      Type.Object({
        status: Type.Union(
          [Type.Literal('settled'), Type.Literal('pending'), Type.Literal('cancelled'), Type.Literal('not_settled')],
          {
            description:
              'settled: charged (transaction names the settlement); pending: its settlement was sent when the service stopped and its outcome is being read from the chain; cancelled / not_settled: nothing was charged',
          },
        ),
        amount: Type.String({ description: 'USDC atomic units' }),
        network: Type.Union([Type.String(), Type.Null()]),
        transaction: Type.Union([Type.String(), Type.Null()]),
        note: Type.Union([Type.String(), Type.Null()]),
      }),
      Type.Null(),
    ],
    {
      description:
        'The execute fee once known, as it stands on chain: settled on CONFIRMED, cancelled otherwise (docs/trade.md, "Fees")',
    },
  ),
  last_attempt: Type.Union(
    [Type.Object({ at: Type.String({ format: 'date-time' }), rejection: Rejection }), Type.Null()],
    {
      description:
        'The last execute attempt refused without consuming the job (e.g. a transaction that is not the quoted one)',
    },
  ),
  history: Type.Array(
    Type.Object({
      status: Status,
      at: Type.String({ format: 'date-time' }),
      note: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
})
export type JobView = Static<typeof JobView>

export const PairsResult = Type.Object({
  schema_version: SchemaVersion,
  count: Type.Integer(),
  pairs: Type.Array(
    Type.Object({ mint: Type.String(), symbol: Type.String(), name: Type.String(), decimals: Type.Integer() }),
  ),
})

export const CurrenciesResult = Type.Object({
  schema_version: SchemaVersion,
  currencies: Type.Array(
    Type.Object({
      currency: Type.Literal('USDC'),
      decimals: Type.Literal(6),
      chain: Type.String({ description: 'base or solana' }),
      network: Type.String({ description: 'CAIP-2 id' }),
      asset: Type.String(),
      pay_to: Type.String({ description: 'the address paid on this chain' }),
      accepted: Type.Boolean({ description: 'Offered now: settled by the facilitator' }),
    }),
    {
      description:
        'One entry per payment rail the operator configured (a payee set): both, or only the one a seller on one chain takes',
    },
  ),
  prices: Type.Array(
    Type.Object({
      route: Type.String(),
      skill: Type.Union([Type.String(), Type.Null()]),
      usd: Type.String({ description: 'The price; of one unit for a price per unit (`per_unit`)' }),
      amount: Type.String({ description: 'USDC atomic units (of one unit for a price per unit)' }),
      per_unit: Type.Optional(
        Type.Object(
          { unit: Type.String(), max_units: Type.Integer() },
          { description: 'A price per unit of the request: a call costs usd × its units, 1 to max_units' },
        ),
      ),
    }),
  ),
})

/** What stopped an exit from being built (plugins/trade/service.ts, `exitFor`). */
export const EXIT_NOT_BUILT = ['NOTHING_HELD', 'FROZEN', 'BLOCKED', 'NO_ROUTE', 'UNAVAILABLE'] as const

const ExitRatingOrNull = NullableEnum(
  EXIT_RATINGS,
  "The exit check's rating of this exit (POST /exit/check, sized at the holding's value in USDC when it sells to USDC); null when it could not say",
)

/**
 * An exit ready to sign, as a watch's high or critical alert carries it (issue 34 §4): the holder's
 * whole holding sold back to USDC (or SOL), unsigned, executed through POST /trade/execute under
 * `job_id` like any quote — or why none could be built. docs/trade.md, "An exit ready to sign".
 */
export const AlertExit = Type.Union([
  Type.Object({
    status: Type.Literal('READY'),
    job_id: Type.String({ description: 'The trade job to execute it under (POST /trade/execute)' }),
    transaction: Type.String({
      description: "Base64 v0 transaction, unsigned: sign it with the holder's key, leave every byte of the message",
    }),
    quote: Type.Object({
      input_mint: Type.String(),
      output_mint: Type.String(),
      in_amount: Type.String({ description: 'Atomic units sold: the whole sellable holding' }),
      out_amount: Type.String({ description: 'Atomic units of output_mint expected' }),
      min_out_amount: Type.String({ description: 'The least the transaction accepts (the slippage taken off)' }),
      slippage_bps: Type.Integer(),
      price_impact_pct: Type.Union([Type.Number(), Type.Null()], {
        description: 'Price impact of the sale, percent; null when the aggregator did not report it',
      }),
      route: Type.Array(RouteLeg),
    }),
    valid_until: Type.Object({
      last_valid_block_height: Type.Integer({ description: "The blockhash's last valid block height" }),
      estimated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
        description: 'Estimated wall time of that height (~0.4 s a block); null when the height could not be read',
      }),
    }),
    exit_rating: ExitRatingOrNull,
  }),
  Type.Object({
    status: Type.Union(
      EXIT_NOT_BUILT.map((status) => Type.Literal(status)),
      {
        description:
          'NOTHING_HELD: the wallet holds none of the token; FROZEN: all of it sits in frozen accounts; BLOCKED: the mint lets nothing move (paused, non-transferable; code says which); NO_ROUTE: nothing buys it now (a honeypot); UNAVAILABLE: not built for another reason, which code names — the chain or the aggregator out of reach (build it again), or terms the quote refuses (SLIPPAGE_OUT_OF_RANGE, SAME_MINT)',
      },
    ),
    code: Type.String({
      description:
        'NOTHING_HELD, FROZEN, the blocker (PAUSED, NON_TRANSFERABLE), or the trade rejection code (docs/trade.md)',
    }),
    reason: Type.String(),
    job_id: Type.Union([Type.String(), Type.Null()], { description: 'The rejected trade job, when a quote was tried' }),
    exit_rating: ExitRatingOrNull,
  }),
])
export type AlertExit = Static<typeof AlertExit>
