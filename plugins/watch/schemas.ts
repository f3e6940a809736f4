import { type Static, Type } from '@sinclair/typebox'
import { SolanaAddress } from '../../src/onchain/address.ts'
import { AlertExitSchema } from '../trade/service.ts'
import { SLIPPAGE_BPS } from '../trade/schemas.ts'
import { DETECTED_KINDS, SEVERITIES } from './watch-events.ts'

/** The most hours one watch buys: a week, paid up front (a longer watch is a new one). */
export const MAX_WATCH_HOURS = 168
/**
 * The price of one watched token for one hour, in USD (docs/watch.md, "Price"): half a quick scan, so a
 * day of watching costs 12 scans' price — what a holder checking by hand would spend in a morning.
 */
export const WATCH_HOUR_USD = '0.01'

/** POST /watch: what to watch, for how long, told where. */
export const WatchRequest = Type.Object({
  token_address: SolanaAddress('The mint of the token to watch (base58)'),
  events: Type.Optional(
    Type.Array(Type.String(), {
      minItems: 1,
      maxItems: DETECTED_KINDS.length,
      description: 'The event kinds to be told of (default: all detected)',
    }),
  ),
  webhook_url: Type.Optional(
    Type.String({
      maxLength: 2_048,
      description: 'Signed alerts are POSTed here: https, a public address',
    }),
  ),
  hours: Type.Integer({
    minimum: 1,
    maximum: MAX_WATCH_HOURS,
    description: `Hours to watch from now, 1 to ${MAX_WATCH_HOURS}, paid up front`,
  }),
  thresholds: Type.Optional(
    Type.Record(Type.String(), Type.Number(), {
      description: 'Threshold overrides, within bounds (docs/watch.md, Thresholds)',
    }),
  ),
  exit: Type.Optional(
    Type.Object(
      {
        user_public_key: SolanaAddress('The holder’s wallet, for whom an exit swap would be built'),
        slippage_bps: Type.Integer({
          minimum: SLIPPAGE_BPS.min,
          maximum: SLIPPAGE_BPS.max,
          description: 'Slippage the exit accepts, basis points (the trade quote’s bounds)',
        }),
      },
      {
        description:
          'The holder to build an exit for: each high or critical alert carries their whole holding sold to USDC, unsigned, executable by POST /trade/execute (or why none was built)',
      },
    ),
  ),
})
export type WatchRequest = Static<typeof WatchRequest>

const Period = Type.Object({
  from: Type.String({ description: 'ISO 8601: when watching began' }),
  until: Type.String({ description: 'ISO 8601: when the paid period ends; nothing is detected after it' }),
})

const Subject = Type.Object({ kind: Type.Literal('token'), address: Type.String() })

/** POST /watch's answer. */
export const WatchCreated = Type.Object({
  watch_id: Type.String(),
  subject: Subject,
  events: Type.Array(Type.String(), { description: 'The event kinds watched' }),
  thresholds: Type.Record(Type.String(), Type.Number(), { description: 'Every threshold in force' }),
  period: Period,
  webhook_url: Type.Union([Type.String(), Type.Null()]),
  stream_url: Type.String({ description: 'The Server-Sent Events stream of its alerts (signed in)' }),
})

const Delivery = Type.Object({
  state: Type.Union([Type.Literal('none'), Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('dead')]),
  attempts: Type.Integer(),
  last_error: Type.Union([Type.String(), Type.Null()]),
  delivered_at: Type.Union([Type.String(), Type.Null()]),
})

const StoredEvent = Type.Object({
  seq: Type.Integer({ description: 'The event’s order in its watch, from 1 (the stream’s `id:`)' }),
  event: Type.Object(
    {
      event_id: Type.String(),
      kind: Type.String(),
      severity: Type.Union(SEVERITIES.map((severity) => Type.Literal(severity))),
      sentence: Type.String(),
      exit: Type.Optional(AlertExitSchema),
    },
    { additionalProperties: true },
  ),
  delivery: Delivery,
})

/** GET /watch/:id's answer. */
export const WatchStatus = Type.Object({
  watch_id: Type.String(),
  state: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('cancelled')]),
  subject: Subject,
  events_watched: Type.Array(Type.String()),
  thresholds: Type.Record(Type.String(), Type.Number()),
  period: Period,
  webhook_url: Type.Union([Type.String(), Type.Null()]),
  payer: Type.String({ description: 'The wallet that paid: the only one that may read or cancel the watch' }),
  events: Type.Array(StoredEvent, { description: 'The events so far, oldest first (the latest 500)' }),
  dead_letters: Type.Array(StoredEvent, { description: 'Events whose webhook delivery was given up' }),
  stream_url: Type.String(),
  stream_token: Type.Object(
    {
      token: Type.String(),
      expires_at: Type.String(),
    },
    {
      description:
        'For an EventSource that cannot send SIGN-IN-WITH-X: open stream_url?token=<token> before expires_at (5 minutes)',
    },
  ),
})

/** DELETE /watch/:id's answer. */
export const WatchCancelled = Type.Object({
  watch_id: Type.String(),
  state: Type.Union([Type.Literal('cancelled'), Type.Literal('expired')]),
  refunded: Type.Literal(false),
  message: Type.String(),
})

export const WatchParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'The watch id' }),
})
