/**
 * The position guard's paid route, HTTP-free (docs/watch.md): a watch request checked whole before any
 * challenge (what it buys: its hours), a paid watch handed to the engine, a watch read or cancelled by
 * the wallet that paid, the stream token an EventSource opens the event stream with.
 */
import { randomBytes } from 'node:crypto'
import type { ServiceContext } from '../../src/context.ts'
import { readAccountKind } from '../../src/facts/account-kind.ts'
import { refusalOf } from '../../src/facts/account-refusal.ts'
import { ApiError } from '../../src/kernel/errors.ts'
import { webSocketOf } from '../../src/launchpad-index/index.ts'
import type { StoredWatchEvent, WatchRecord } from '../../src/store/watches.ts'
import { QUICK_SCAN_DEADLINE_MS, QUICK_SCAN_POLICY } from '../../src/pipeline/policies.ts'
import { scanToken } from '../../src/pipeline/scan-token.ts'
import { quickScanAnswer } from '../quick-scan/service.ts'
import { exitFor, sellRouteOf } from '../trade/service.ts'
import { WatchEngine, type WatchEngineOptions } from './engine.ts'
import { MAX_WATCH_HOURS, type WatchRequest } from './schemas.ts'
import { resolveThresholds } from './thresholds.ts'
import { DETECTED_KINDS, EVENT_KINDS, type EventKind, type WatchEvent } from './watch-events.ts'
import { verifyWebhook } from './webhook-signature.ts'
import { webhookUrlProblem } from './webhook-url.ts'

/** How long the token account read may take before the challenge (the route account check's bound). */
const ACCOUNT_READ_MS = 1_500
/** How long a stream token opens the event stream for. */
export const STREAM_TOKEN_S = 300
/** Events GET /watch/:id lists (the latest). */
const LISTED_EVENTS = 500
const HOUR_MS = 3_600_000

// ---- the engine beside the service ----------------------------------------------------------------

const engines = new WeakMap<ServiceContext, WatchEngine>()

/** The engine this service runs, if it runs one (started by main.ts or a test). */
export function watchEngineOf(ctx: ServiceContext): WatchEngine | undefined {
  return engines.get(ctx)
}

/**
 * Starts the position guard's engine beside the service when the Solana RPC is configured: it resumes
 * the store's active watches and pending deliveries; it stops with the service (ctx.background, after
 * the server has drained). The WebSocket is the launch ingester's: SOLANA_WS_URL, else the RPC's host.
 */
export async function startWatchEngine(
  ctx: ServiceContext,
  overrides: Partial<
    Pick<
      WatchEngineOptions,
      'now' | 'tickMs' | 'delivery' | 'exitTimeoutMs' | 'sellRouteEveryMs' | 'gradeEveryMs' | 'gradeDelayMs'
    >
  > = {},
): Promise<WatchEngine | undefined> {
  const solana = ctx.sources.solana
  if (!solana || !ctx.config.SOLANA_RPC_URL) return undefined
  const engine = new WatchEngine({
    store: ctx.store.watches,
    sources: { ...ctx.sources, solana },
    wsUrl: webSocketOf(ctx.config.SOLANA_RPC_URL, ctx.config.SOLANA_WS_URL),
    attestor: ctx.attestor,
    logger: ctx.logger,
    // The exit ready to sign on high and critical alerts: the trade's quote path, the risk gate aside.
    exits: (request) => exitFor(ctx, request),
    // Whether anything buys the token (sell_route_failing): the aggregator's price of a small sale.
    sellRoute: (mint, amount) => sellRouteOf(ctx, mint, amount),
    // The grade (grade_fell): the quick scan as POST /scan/quick runs it, and the findings that cap it.
    grade: async (mint) => {
      const answer = quickScanAnswer(
        mint,
        await scanToken(ctx, mint, QUICK_SCAN_POLICY, Date.now() + QUICK_SCAN_DEADLINE_MS),
      )
      return {
        grade: answer.structural_risk_grade,
        complete: answer.missing_fields.length === 0,
        capping: answer.factors
          .filter((finding) => finding.hard_fail || finding.grade_ceiling !== null)
          .map((finding) => ({ code: finding.code, title: finding.title })),
      }
    },
    ...overrides,
  })
  engines.set(ctx, engine)
  ctx.background.push({ name: 'watch engine', stop: () => engine.stop() })
  await engine.start()
  return engine
}

function running(ctx: ServiceContext): WatchEngine {
  const engine = engines.get(ctx)
  if (!engine)
    throw new ApiError('UPSTREAM_UNAVAILABLE', {
      message: 'this instance runs no watch engine (it needs SOLANA_RPC_URL): nothing was charged',
    })
  return engine
}

// ---- POST /watch -----------------------------------------------------------------------------------

/** Checks by body: the price's count and the handler read the same one. */
const checked = new WeakMap<object, Promise<number>>()

/**
 * The hours a valid watch request buys (the manifest's price per hour), once everything that would
 * refuse it is checked — before any challenge, so a watch that could not run is never paid for: event
 * kinds, thresholds, the webhook URL (https to a public address), and the token (an account that is a
 * mint: 404 TOKEN_NOT_FOUND, 422 NOT_A_TOKEN_MINT otherwise).
 */
export function hoursBought(body: WatchRequest, ctx: ServiceContext): Promise<number> {
  let hours = checked.get(body)
  if (!hours) {
    hours = checkRequest(ctx, body)
    checked.set(body, hours)
  }
  return hours
}

async function checkRequest(ctx: ServiceContext, body: WatchRequest): Promise<number> {
  const refuse = (field: string, message: string) =>
    new ApiError('INVALID_REQUEST', { message: `${message}; nothing was charged`, details: { field } })
  for (const kind of body.events ?? []) {
    if (!EVENT_KINDS.includes(kind as EventKind))
      throw refuse('events', `unknown event kind “${kind}”: the kinds are ${DETECTED_KINDS.join(', ')}`)
    if (!DETECTED_KINDS.includes(kind as EventKind))
      throw refuse('events', `${kind} is not detected yet: watch any of ${DETECTED_KINDS.join(', ')}`)
  }
  const thresholds = resolveThresholds(body.thresholds ?? {})
  if (!thresholds.ok) throw refuse('thresholds', thresholds.reason)
  if (body.hours > MAX_WATCH_HOURS) throw refuse('hours', `a watch lasts at most ${MAX_WATCH_HOURS} hours`)
  if (body.webhook_url !== undefined) {
    const problem = await webhookUrlProblem(body.webhook_url, {
      loopbackAllowed: ctx.config.SOLSENTRY_PROFILE !== 'mainnet',
    })
    if (problem) throw refuse('webhook_url', `webhook_url ${problem}`)
  }
  const solana = ctx.sources.solana
  const kind = solana && (await readAccountKind(solana, body.token_address, Date.now() + ACCOUNT_READ_MS))
  const refusal = kind && refusalOf('token_mint', 'token_address', body.token_address, kind)
  if (refusal) throw refusal
  return body.hours
}

/** POST /watch's answer: the watch as it was started. */
export interface WatchCreatedAnswer {
  watch_id: string
  subject: { kind: 'token'; address: string }
  events: string[]
  thresholds: Record<string, number>
  period: { from: string; until: string }
  webhook_url: string | null
  stream_url: string
}

/**
 * Starts the paid watch of `body` for `payer` (the wallet the payment named): stored and followed by the
 * engine, or refused — 422 with the engine's reason, or 503 when the token's accounts cannot be read
 * now — so the payment is released. Answers the watch's id and its undoing (`cancel`), which the route
 * calls when the payment is not settled after all: nothing runs unpaid.
 */
export async function startWatch(
  ctx: ServiceContext,
  body: WatchRequest,
  payer: string | null,
  origin: string,
): Promise<{ answer: WatchCreatedAnswer; cancel: () => Promise<void> }> {
  const engine = running(ctx)
  if (!payer)
    throw new ApiError('UPSTREAM_UNAVAILABLE', {
      message: 'the payment named no payer, so nobody could read or cancel this watch: nothing was charged',
    })
  await hoursBought(body, ctx)
  const from = engine.now()
  const record: WatchRecord = {
    id: `w_${randomBytes(12).toString('base64url')}`,
    subject: { kind: 'token', address: body.token_address },
    events: body.events ? [...new Set(body.events)] : [],
    thresholds: body.thresholds ?? {},
    webhookUrl: body.webhook_url ?? null,
    exit: body.exit ? { userPublicKey: body.exit.user_public_key, slippageBps: body.exit.slippage_bps } : null,
    payer,
    paidFrom: from,
    paidUntil: from + body.hours * HOUR_MS,
    state: 'active',
    createdAt: from,
  }
  const outcome = await engine.watch(record)
  if (!outcome.ok) {
    const unreadable = outcome.reason.startsWith('the token cannot be watched')
    throw new ApiError(unreadable ? 'UPSTREAM_UNAVAILABLE' : 'INVALID_REQUEST', {
      message: `${outcome.reason}: the watch did not start and nothing was charged`,
      ...(unreadable ? { headers: { 'retry-after': '5' } } : {}),
    })
  }
  const resolved = resolveThresholds(record.thresholds)
  return {
    answer: {
      watch_id: record.id,
      subject: { kind: 'token', address: record.subject.address },
      events: record.events.length > 0 ? record.events : [...DETECTED_KINDS],
      thresholds: resolved.ok ? resolved.thresholds : {},
      period: { from: new Date(record.paidFrom).toISOString(), until: new Date(record.paidUntil).toISOString() },
      webhook_url: record.webhookUrl,
      stream_url: `${origin}/watch/${record.id}/events`,
    },
    cancel: async () => {
      await engine.cancel(record.id)
    },
  }
}

// ---- the payer's access ----------------------------------------------------------------------------

const sameWallet = (a: string, b: string) => (a.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b)

/**
 * The watch `id` for `wallet` (the wallet a sign-in proved): 404 when there is none, 403 when another
 * wallet paid for it.
 */
export async function watchOf(ctx: ServiceContext, id: string, wallet: string): Promise<WatchRecord> {
  const watch = await ctx.store.watches.get(id)
  if (!watch) throw new ApiError('NOT_FOUND', { message: `no watch ${id}`, details: { watch_id: id } })
  if (!sameWallet(watch.payer, wallet))
    throw new ApiError('FORBIDDEN', {
      message: `watch ${id} was paid for by another wallet: sign in with the wallet that paid for it`,
      details: { watch_id: id },
    })
  return watch
}

/** An event as GET /watch/:id lists it. */
function listed(stored: StoredWatchEvent<WatchEvent>) {
  const { delivery } = stored
  return {
    seq: stored.seq,
    event: stored.event,
    delivery: {
      state: delivery.state,
      attempts: delivery.attempts,
      last_error: delivery.lastError,
      delivered_at: delivery.deliveredAt === null ? null : new Date(delivery.deliveredAt).toISOString(),
    },
  }
}

/** GET /watch/:id: the watch, its events so far with their delivery, its dead letters, a stream token. */
export async function watchStatus(ctx: ServiceContext, watch: WatchRecord, origin: string) {
  const all = await ctx.store.watches.events<WatchEvent>(watch.id)
  const resolved = resolveThresholds(watch.thresholds)
  const expires = Math.floor(Date.now() / 1000) + STREAM_TOKEN_S
  return {
    watch_id: watch.id,
    state: watch.state,
    subject: { kind: 'token' as const, address: watch.subject.address },
    events_watched: watch.events.length > 0 ? watch.events : [...DETECTED_KINDS],
    thresholds: resolved.ok ? resolved.thresholds : {},
    period: { from: new Date(watch.paidFrom).toISOString(), until: new Date(watch.paidUntil).toISOString() },
    webhook_url: watch.webhookUrl,
    payer: watch.payer,
    events: all.slice(-LISTED_EVENTS).map(listed),
    dead_letters: all.filter((stored) => stored.delivery.state === 'dead').map(listed),
    stream_url: `${origin}/watch/${watch.id}/events`,
    stream_token: { token: streamToken(ctx, watch.id, expires), expires_at: new Date(expires * 1000).toISOString() },
  }
}

/** DELETE /watch/:id: nothing more is detected; what was detected is still delivered; no refund. */
export async function cancelWatch(ctx: ServiceContext, watch: WatchRecord) {
  const engine = engines.get(ctx)
  const cancelled = engine
    ? await engine.cancel(watch.id)
    : await ctx.store.watches.setState(watch.id, ['active'], 'cancelled')
  const state = cancelled
    ? ('cancelled' as const)
    : watch.state === 'expired'
      ? ('expired' as const)
      : ('cancelled' as const)
  return {
    watch_id: watch.id,
    state,
    refunded: false as const,
    message: cancelled
      ? 'the watch is cancelled: nothing more is detected; alerts already detected are still delivered. The paid period is not refunded'
      : `the watch was already ${state}: nothing changed`,
  }
}

// ---- the stream token ------------------------------------------------------------------------------

/**
 * A token opening watch `id`'s event stream until `expiresS` (Unix seconds), for an EventSource, which
 * cannot send headers: `<expiresS>.<signature>`, the service's attestation key signing
 * `<expiresS>.<id>.stream-token` (the webhook signature's form, over a body no alert has). Any instance
 * sharing the key accepts it; it is handed only to the signed-in payer (GET /watch/:id).
 */
export function streamToken(ctx: ServiceContext, id: string, expiresS: number): string {
  return `${expiresS}.${ctx.attestor.signText(`${expiresS}.${id}.stream-token`)}`
}

/** Whether `token` opens watch `id`'s stream now. */
export async function streamTokenOpens(ctx: ServiceContext, id: string, token: string): Promise<boolean> {
  const dot = token.indexOf('.')
  const expires = Number(token.slice(0, dot))
  if (dot < 1 || !Number.isInteger(expires) || expires < Date.now() / 1000) return false
  return verifyWebhook({
    header: `t=${expires},sig=${token.slice(dot + 1)}`,
    watchId: id,
    body: 'stream-token',
    publicKey: ctx.attestor.publicKey,
    nowS: expires,
  })
}
