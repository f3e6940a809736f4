import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { payerOf, whenConcluded } from '../../src/http/payment-adapter.ts'
import { publicOrigin } from '../../src/http/request.ts'
import { routeOptions } from '../../src/http/route-options.ts'
import { ApiError } from '../../src/kernel/errors.ts'
import { verifySignIn } from '../../src/payments/sign-in.ts'
import type { WatchRecord } from '../../src/store/watches.ts'
import { manifest } from './manifest.ts'
import type { WatchRequest } from './schemas.ts'
import {
  cancelWatch,
  startWatch,
  streamTokenOpens,
  watchEngineOf,
  watchOf,
  watchStatus,
  startWatchEngine,
} from './service.ts'
import type { WatchEvent } from './watch-events.ts'

export { manifest, startWatchEngine, watchEngineOf }

/** How often an open event stream sends a comment, so idle connections (and proxies) keep it open. */
export const HEARTBEAT_MS = 15_000

/**
 * The position guard's routes (docs/watch.md): `POST /watch` paid per hour up front and settled only
 * once the engine has started the watch (undone if the settlement then fails); `GET`/`DELETE
 * /watch/:id` and the event stream for the wallet that paid, signed in with sign-in-with-x.
 */
export function watchPlugin(ctx: ServiceContext) {
  const on = new Set(
    ctx.registry.register(manifest, (source) => source === 'solana' && ctx.sources.solana !== undefined),
  )
  const { watch, status, cancel, events } = manifest.routes
  const streams = new OpenStreams()
  const app = new Elysia({ name: 'plugin:watch' })
  if (on.has('watch'))
    app.post(
      watch.path,
      async function watchRoute({ request, body }) {
        const started = await startWatch(ctx, body as WatchRequest, payerOf(request), publicOrigin(ctx, request))
        // Settled only for a watch that runs; a settlement that fails after all stops it.
        whenConcluded(request, (settled) => (settled ? undefined : started.cancel()))
        return started.answer
      },
      routeOptions(ctx, watch),
    )
  if (on.has('status'))
    app.get(
      status.path,
      async function watchStatusRoute({ request, params }) {
        const watched = await signedInWatch(ctx, request, params.id)
        return watchStatus(ctx, watched, publicOrigin(ctx, request))
      },
      routeOptions(ctx, status),
    )
  if (on.has('cancel'))
    app.delete(
      cancel.path,
      async function watchCancelRoute({ request, params }) {
        const watched = await signedInWatch(ctx, request, params.id)
        const answer = await cancelWatch(ctx, watched)
        streams.end(watched.id, 'cancelled')
        return answer
      },
      routeOptions(ctx, cancel),
    )
  if (on.has('events'))
    app.get(
      events.path,
      async function watchEventsRoute({ request, params, query }) {
        const token = (query as Record<string, string | undefined>).token
        const watched =
          token !== undefined ? await tokenWatch(ctx, params.id, token) : await signedInWatch(ctx, request, params.id)
        const last = request.headers.get('last-event-id') ?? (query as Record<string, string | undefined>).last_event_id
        return streams.open(ctx, watched, lastSeqOf(last))
      },
      routeOptions(ctx, events),
    )
  return app
}

/** The watch `id` for the wallet the request's SIGN-IN-WITH-X header proves (for this very URL). */
async function signedInWatch(ctx: ServiceContext, request: Request, id: string): Promise<WatchRecord> {
  const header = request.headers.get('sign-in-with-x')
  const url = `${publicOrigin(ctx, request)}${new URL(request.url).pathname}`
  if (!header)
    throw new ApiError('FORBIDDEN', {
      message: `sign in with the wallet that paid for the watch: a SIGN-IN-WITH-X header (CAIP-122) for ${url}`,
      details: { watch_id: id },
    })
  const signedIn = await verifySignIn(header, url)
  if (!signedIn.isValid)
    throw new ApiError('INVALID_REQUEST', {
      message: `the SIGN-IN-WITH-X header does not sign you in (${signedIn.invalidReason}): sign a fresh message for ${url}`,
      details: { field: 'sign-in-with-x' },
    })
  return watchOf(ctx, id, signedIn.address)
}

async function tokenWatch(ctx: ServiceContext, id: string, token: string): Promise<WatchRecord> {
  if (!(await streamTokenOpens(ctx, id, token)))
    throw new ApiError('FORBIDDEN', {
      message: 'the stream token is not valid for this watch or has expired: take a fresh one from GET /watch/:id',
      details: { watch_id: id },
    })
  const watch = await ctx.store.watches.get(id)
  if (!watch) throw new ApiError('NOT_FOUND', { message: `no watch ${id}`, details: { watch_id: id } })
  return watch
}

/** The sequence a reconnecting client saw last (Last-Event-ID), 0 for none or one that is not a sequence. */
function lastSeqOf(value: string | null | undefined): number {
  const seq = Number(value)
  return value && Number.isSafeInteger(seq) && seq > 0 ? seq : 0
}

const encoder = new TextEncoder()

/** One alert as a Server-Sent Event: its sequence as `id:`, so a reconnection resumes after it. */
const alertFrame = (event: WatchEvent, seq: number) =>
  encoder.encode(`id: ${seq}\nevent: alert\ndata: ${JSON.stringify(event)}\n\n`)

/**
 * The open event streams, by watch: each replays the store after the client's last sequence, then
 * follows the engine's bus (events arriving meanwhile buffered, none twice, none lost), with heartbeats;
 * it ends at the period's end, on cancellation, when the service drains, or when the client leaves.
 */
class OpenStreams {
  readonly #byWatch = new Map<string, Set<(reason: string) => void>>()

  end(watchId: string, reason: string): void {
    for (const end of [...(this.#byWatch.get(watchId) ?? [])]) end(reason)
  }

  open(ctx: ServiceContext, watch: WatchRecord, afterSeq: number): Response {
    const engine = watchEngineOf(ctx)
    const ends = this.#byWatch.get(watch.id) ?? new Set()
    this.#byWatch.set(watch.id, ends)
    let finish: (reason: string) => void = () => {}
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        let sent = afterSeq
        let replaying = true
        let closed = false
        const buffered: [WatchEvent, number][] = []
        const send = (event: WatchEvent, seq: number) => {
          if (closed || seq <= sent) return
          sent = seq
          controller.enqueue(alertFrame(event, seq))
        }
        const unsubscribe = engine?.bus.subscribe(watch.id, (event, seq) =>
          replaying ? buffered.push([event, seq]) : send(event, seq),
        )
        const now = () => engine?.now() ?? Date.now()
        const heartbeat = setInterval(async () => {
          if (now() >= watch.paidUntil) return finish('the paid period is over')
          if (!closed) controller.enqueue(encoder.encode(': keep-alive\n\n'))
          // Cancelled on another instance (a shared store): this one's DELETE ends its streams at once.
          const current = await ctx.store.watches.get(watch.id).catch(() => undefined)
          if (current && current.state !== 'active') finish(`the watch is ${current.state}`)
        }, HEARTBEAT_MS)
        const periodLeft = watch.paidUntil - now()
        const periodEnd = setTimeout(
          () => finish('the paid period is over'),
          Math.max(0, Math.min(periodLeft, 2 ** 31 - 1)),
        )
        const drain = () => finish('the service is shutting down: reconnect with Last-Event-ID')
        ctx.lifecycle.onDrain.add(drain)
        finish = (reason: string) => {
          if (closed) return
          closed = true
          clearInterval(heartbeat)
          clearTimeout(periodEnd)
          unsubscribe?.()
          ctx.lifecycle.onDrain.delete(drain)
          ends.delete(finish)
          if (ends.size === 0 && this.#byWatch.get(watch.id) === ends) this.#byWatch.delete(watch.id)
          try {
            controller.enqueue(encoder.encode(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`))
            controller.close()
          } catch {
            // The client left first.
          }
        }
        ends.add(finish)
        controller.enqueue(encoder.encode('retry: 3000\n\n'))
        void (async () => {
          try {
            for (;;) {
              const page = await ctx.store.watches.events<WatchEvent>(watch.id, { afterSeq: sent, limit: 200 })
              for (const stored of page) send(stored.event, stored.seq)
              if (page.length < 200) break
            }
          } catch (error) {
            ctx.logger.warn(
              { watch: watch.id, err: (error as Error).message },
              'watch stream: the store did not answer',
            )
            return finish('the store did not answer: reconnect with Last-Event-ID')
          }
          replaying = false
          for (const [event, seq] of buffered.splice(0)) send(event, seq)
          if (watch.state !== 'active') finish(`the watch is ${watch.state}`)
          else if (now() >= watch.paidUntil) finish('the paid period is over')
        })()
      },
      cancel: () => finish('the client left'),
    })
    return new Response(body, {
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      },
    })
  }
}

watchPlugin.manifest = manifest
