/**
 * The position guard's engine (docs/watch.md): what the paid route, the MCP tools, the CLI and the web
 * page will call. It holds the watches in force, one snapshot per watched token however many watches
 * share it, one log subscription per account those snapshots read (LogMultiplexer), and the webhook
 * delivery; each new event is stored (src/store/watches.ts), published on the bus (SSE, MCP) and sent.
 *
 *   notification (account A, slot S, transaction G)
 *     → every token whose snapshot reads A: its snapshot read again at slot ≥ S (one getMultipleAccounts)
 *     → for each watch of the token: diffSnapshots(before, after, its thresholds) + the transaction's own
 *       evidence (freeze, permanent delegate) → events of the kinds it watches, within its paid period
 *     → store (once per event id) → bus → webhook (ordered per watch)
 *
 * A tick (every `tickMs`) ends watches whose paid period is over (nothing is detected or sent for them
 * after it) and gives time-based events (an LP lock about to expire, or expired).
 */
import { getBase58Encoder, type Signature } from '@solana/kit'
import { GRADES, type Grade } from '../../src/kernel/vocabulary.ts'
import type { Attestor } from '../../src/attest/attestation.ts'
import type { Sources } from '../../src/facts/index.ts'
import type { Logger } from '../../src/kernel/logger.ts'
import { watchEvents, watchGauges } from '../../src/kernel/metrics.ts'
import type { SolanaSource } from '../../src/sources/solana-rpc.ts'
import { CallMeter } from '../../src/sources/upstream.ts'
import type { WatchRecord, WatchStore } from '../../src/store/watches.ts'
import type { AlertExit } from '../trade/service.ts'
import { boundedExit, EXIT_BUILD_MS, EXIT_SEVERITIES, type ExitBuilder } from './alert-exit.ts'
import { WatchEventBus } from './event-bus.ts'
import { LogMultiplexer, type LogNotification, type SubscriptionCounts } from './log-multiplexer.ts'
import { diffSnapshots } from './snapshot-diff.ts'
import {
  discoverSubject,
  readSnapshot,
  snapshotFromJson,
  snapshotToJson,
  type SubjectPlan,
  type SubjectSnapshot,
  watchedAccounts,
} from './subject-snapshot.ts'
import { DEFAULT_THRESHOLDS, resolveThresholds, type Thresholds } from './thresholds.ts'
import { type TransactionFacts, transactionEvents } from './transaction-evidence.ts'
import { DETECTED_KINDS, type DetectedEvent, type EventKind, eventIdOf, type WatchEvent } from './watch-events.ts'
import { type DeliveryCounts, WebhookDelivery, type WebhookDeliveryOptions } from './webhook-delivery.ts'

export interface WatchEngineOptions {
  store: WatchStore
  /** The facts' sources (a snapshot's plan is found through them); `solana` is required. */
  sources: Sources & { solana: SolanaSource }
  /** The RPC's WebSocket URL (SOLANA_WS_URL). */
  wsUrl: string
  attestor: Attestor
  logger: Logger
  /** Delivery's tuning (attempts, delays, timeout). */
  delivery?: Omit<WebhookDeliveryOptions, 'store' | 'attestor'>
  /** Subscriptions' tuning (catch-up depth, reconnection pauses). */
  subscriptions?: { backfill?: number; initialPauseMs?: number; maxPauseMs?: number }
  /**
   * How long finding a token's plan may take (the facts' deadline).
   * @default 15000
   */
  discoverDeadlineMs?: number
  /**
   * How long a new token's subscriptions may take to be live before its watch is refused.
   * @default 10000
   */
  subscribeTimeoutMs?: number
  /**
   * How often paid periods and lock times are checked.
   * @default 60000
   */
  tickMs?: number
  /**
   * Builds the exit ready to sign that a watch with `exit` gets on its high and critical alerts (the
   * trade's `exitFor` bound to the service); without it, such alerts carry none.
   */
  exits?: ExitBuilder
  /**
   * How long an alert waits for its exit before going out with EXIT_TIMEOUT instead.
   * @default 2000
   */
  exitTimeoutMs?: number
  /**
   * Whether anything buys a token now (the trade's `sellRouteOf` bound to the service): asked when a
   * token is first followed, after each change that raised an event, and on the schedule below; a route
   * refused where it answered before is `sell_route_failing`. Without it, that kind is never raised.
   */
  sellRoute?: SellRouteProbe
  /**
   * How often a watched token's sell route is asked besides after its events (one aggregator request).
   * @default 300000
   */
  sellRouteEveryMs?: number
  /**
   * The token's quick-scan grade now (the quick scan's service bound to the service): read when a token
   * is first followed and again after a material change, at most once per `gradeEveryMs`; a grade lower
   * than the last is `grade_fell`. Without it, that kind is never raised.
   */
  grade?: GradeProbe
  /**
   * The least time between two re-scans of one token after its changes.
   * @default 60000
   */
  gradeEveryMs?: number
  /**
   * How long after a change its re-scan waits: past the RPC cache's life for account reads (5 s), so the
   * scan reads the token as it is after the change, not a cached read from before it.
   * @default 5500
   */
  gradeDelayMs?: number
  /**
   * The clock paid periods are read against (ms since epoch): a test moves it past a period's end
   * rather than waiting an hour.
   * @default Date.now
   */
  now?: () => number
}

/** Whether anything buys a token now: `unknown` (the aggregator could not say) changes nothing. */
export type SellRouteProbe = (
  mint: string,
  amount: bigint,
) => Promise<{ route: 'open' | 'refused' | 'unknown'; reason: string }>

/** A token's quick-scan grade now and the findings that cap it; `complete: false` when facts were missing. */
export type GradeProbe = (mint: string) => Promise<{
  grade: Grade
  complete: boolean
  capping: { code: string; title: string }[]
}>

/** A watched token: its plan, its latest snapshot and those within the longest window its watches use. */
interface Subject {
  plan: SubjectPlan
  /** The accounts subscribed for it (watchedAccounts of its plan). */
  accounts: ReadonlySet<string>
  last: SubjectSnapshot
  recent: SubjectSnapshot[]
  watches: Map<string, { record: WatchRecord; thresholds: Thresholds; kinds: ReadonlySet<EventKind> }>
  /** Re-reads run one at a time, in the order their notifications came. */
  queue: Promise<void>
  /** The snapshot the store held when this instance began following the token (a previous follower's). */
  kept?: SubjectSnapshot
  /** Its sell route when last asked (undefined until an answer said): sell_route_failing on open → refused. */
  route?: 'open' | 'refused'
  /** When its sell route was last asked (ms). */
  routeAskedAt: number
  /** Its quick-scan grade when last read whole (undefined until then): grade_fell when a later one is lower. */
  grade?: Grade
  /** When it was last re-scanned after a change (ms); a re-scan waiting to run. */
  gradeAskedAt: number
  gradeTimer?: ReturnType<typeof setTimeout>
  /** When the waiting re-scan runs (ms). */
  gradeAt: number
}

export type WatchOutcome = { ok: true; accounts: string[] } | { ok: false; reason: string }

export interface EngineCounts extends SubscriptionCounts {
  watches: number
  /** Tokens watched (one snapshot each, however many watches share it). */
  subjects: number
  delivery: DeliveryCounts
  /** Bus listeners (SSE streams, MCP sessions). */
  listeners: number
}

/** How long a sell route question may hold the token's queue before it counts as no answer. */
const SELL_ROUTE_MS = 5_000

/** A minContextSlot the node has not reached yet is asked again, this many times. */
const SLOT_RETRIES = 5

export class WatchEngine {
  readonly bus = new WatchEventBus()
  readonly #options: WatchEngineOptions
  readonly #delivery: WebhookDelivery
  readonly #subscriptions: LogMultiplexer
  readonly #subjects = new Map<string, Subject>()
  /** Plans being found, so two watches of one token started together share one discovery. */
  readonly #starting = new Map<string, Promise<Subject>>()
  #timer: ReturnType<typeof setInterval> | undefined
  #stopped = false
  /** Grade reads under way (settled() waits for them: a test's baseline is read before its rug). */
  readonly #grading = new Set<Promise<void>>()
  /**
   * The event ids each watch has kept (this instance's memory): an exit is built only for an event not
   * kept yet. After a restart an event found again gets one more exit, which the store then drops.
   */
  readonly #kept = new Map<string, Set<string>>()

  constructor(options: WatchEngineOptions) {
    this.#options = options
    this.#delivery = new WebhookDelivery({ store: options.store, attestor: options.attestor, ...options.delivery })
    this.#subscriptions = new LogMultiplexer({
      wsUrl: options.wsUrl,
      solana: options.sources.solana,
      logger: options.logger,
      onLogs: (notification) => this.#changed(notification),
      ...options.subscriptions,
    })
  }

  /** Resumes the store's active watches and pending deliveries, and starts the tick. */
  async start(): Promise<void> {
    for (const record of await this.#options.store.active()) {
      if (record.paidUntil <= this.now()) {
        await this.#options.store.setState(record.id, ['active'], 'expired')
        continue
      }
      const outcome = await this.#follow(record)
      if (!outcome.ok) this.#options.logger.warn({ watch: record.id, reason: outcome.reason }, 'watch: not resumed')
    }
    await this.#delivery.resume()
    this.#publish()
    const tickMs = this.#options.tickMs ?? 60_000
    this.#timer = setInterval(() => void this.tick(), tickMs)
  }

  /**
   * Stores a new watch (already paid for) and starts following it; answers the accounts it subscribed
   * to, or why it cannot be watched (a bad threshold, a wallet subject, a token whose plan cannot be read).
   */
  async watch(record: WatchRecord): Promise<WatchOutcome> {
    const problem = this.#problem(record)
    if (problem) return { ok: false, reason: problem }
    if (!(await this.#options.store.create(record))) return { ok: false, reason: `watch ${record.id} exists` }
    const outcome = await this.#follow(record)
    if (!outcome.ok) await this.#options.store.setState(record.id, ['active'], 'cancelled')
    this.#publish()
    return outcome
  }

  /** Stops a watch (DELETE /watch/:id): nothing more is detected for it; what is pending is still sent. */
  async cancel(watchId: string): Promise<boolean> {
    const cancelled = await this.#options.store.setState(watchId, ['active'], 'cancelled')
    this.#forget(watchId)
    this.#publish()
    return cancelled
  }

  /** Publishes the counts to /metrics (solsentry_watch_state). */
  #publish(): void {
    const counts = this.counts()
    for (const what of ['watches', 'subjects', 'subscriptions', 'references'] as const)
      watchGauges.set({ what }, counts[what])
  }

  /** The engine's clock (`now`): what a new watch's paid period starts from. */
  now(): number {
    return (this.#options.now ?? Date.now)()
  }

  counts(): EngineCounts {
    let watches = 0
    for (const subject of this.#subjects.values()) watches += subject.watches.size
    return {
      ...this.#subscriptions.counts,
      watches,
      subjects: this.#subjects.size,
      delivery: { ...this.#delivery.counts },
      listeners: this.bus.listeners,
    }
  }

  /** The latest snapshot of a watched token (the route's GET and the tests read it). */
  snapshotOf(mint: string): SubjectSnapshot | undefined {
    return this.#subjects.get(mint)?.last
  }

  /** Resolves once every re-read queued so far and every delivery under way are done (tests, draining). */
  async settled(): Promise<void> {
    await Promise.all([...this.#grading])
    await Promise.all([...this.#subjects.values()].map((subject) => subject.queue))
    await this.#delivery.idle()
  }

  async stop(): Promise<void> {
    this.#stopped = true
    clearInterval(this.#timer)
    for (const subject of this.#subjects.values()) clearTimeout(subject.gradeTimer)
    await this.#subscriptions.stop()
    await Promise.all([...this.#subjects.values()].map((subject) => subject.queue))
    await this.#delivery.stop()
  }

  /** Ends watches past their paid period; gives the time-based events of the rest. */
  async tick(nowMs = this.now()): Promise<void> {
    for (const subject of [...this.#subjects.values()]) {
      for (const [watchId, watch] of subject.watches)
        if (watch.record.paidUntil <= nowMs) {
          await this.#options.store.setState(watchId, ['active'], 'expired', nowMs)
          this.#forget(watchId)
        }
      if (subject.watches.size === 0) continue
      this.#enqueue(subject, async () => {
        await this.#record(subject, subject.last, subject.last, { signature: null, slot: subject.last.slot }, nowMs)
        if (nowMs - subject.routeAskedAt >= (this.#options.sellRouteEveryMs ?? 300_000))
          await this.#askRoute(subject, { signature: null, slot: subject.last.slot }, nowMs)
      })
    }
    this.#publish()
  }

  #problem(record: WatchRecord): string | undefined {
    if (record.subject.kind !== 'token') return 'wallet watches are not built yet: watch a token'
    if (record.paidUntil <= this.now()) return 'the paid period is over'
    const thresholds = resolveThresholds(record.thresholds)
    if (!thresholds.ok) return thresholds.reason
    const unknown = record.events.filter((kind) => !DETECTED_KINDS.includes(kind as EventKind))
    if (unknown.length > 0) return `not watchable (yet): ${unknown.join(', ')}`
    return undefined
  }

  async #follow(record: WatchRecord): Promise<WatchOutcome> {
    const problem = this.#problem(record)
    if (problem) return { ok: false, reason: problem }
    const mint = record.subject.address
    let subject: Subject
    try {
      subject = this.#subjects.get(mint) ?? (await this.#begin(mint))
    } catch (error) {
      return { ok: false, reason: `the token cannot be watched: ${(error as Error).message}` }
    }
    const resolved = resolveThresholds(record.thresholds)
    subject.watches.set(record.id, {
      record,
      thresholds: resolved.ok ? resolved.thresholds : DEFAULT_THRESHOLDS,
      kinds: new Set((record.events.length > 0 ? record.events : DETECTED_KINDS) as EventKind[]),
    })
    const kept = subject.kept
    if (kept && record.paidFrom <= kept.readAt && kept.slot < subject.last.slot) {
      // A watch resumed: the changes between the kept snapshot and the first one read now are its events.
      const first = subject.recent[0]!
      await this.#enqueue(subject, async () => {
        await this.#record(subject, kept, first, { signature: null, slot: first.slot }, this.now(), [], record.id)
      })
    }
    return { ok: true, accounts: watchedAccounts(subject.plan) }
  }

  /** Finds the token's plan, subscribes to its accounts, then reads its first snapshot (after: none is missed). */
  #begin(mint: string): Promise<Subject> {
    let starting = this.#starting.get(mint)
    if (!starting) {
      starting = (async () => {
        const plan = await discoverSubject(mint, this.#options.sources, this.#options.discoverDeadlineMs ?? 15_000)
        const accounts = watchedAccounts(plan)
        try {
          await this.#live(Promise.all(accounts.map((account) => this.#subscriptions.acquire(account, mint))))
          const last = await readSnapshot(this.#options.sources.solana, plan)
          // The snapshot kept by whoever followed the token before (this instance before a restart, or
          // another that died): what changed since is reported to the watches that existed then.
          const kept = await this.#options.store.snapshot(mint)
          await this.#options.store.saveSnapshot(mint, snapshotToJson(last))
          const subject: Subject = {
            plan,
            accounts: new Set(accounts),
            last,
            recent: [last],
            watches: new Map(),
            queue: Promise.resolve(),
            routeAskedAt: 0,
            gradeAskedAt: 0,
            gradeAt: 0,
            ...(kept ? { kept: snapshotFromJson(kept) } : {}),
          }
          this.#subjects.set(mint, subject)
          // The route as it is now, so that one refused later reads as a change (queued: not awaited).
          this.#enqueue(subject, () => this.#askRoute(subject, { signature: null, slot: last.slot }))
          // The grade as it is now (a scan: not in the queue, which it would hold for seconds).
          this.#grade(subject, { signature: null, slot: last.slot })
          return subject
        } catch (error) {
          // Nothing half-started is kept: the subscriptions taken for it are given up.
          for (const account of accounts) this.#subscriptions.release(account, mint)
          throw error
        }
      })().finally(() => this.#starting.delete(mint))
      this.#starting.set(mint, starting)
    }
    return starting
  }

  /** `subscribed`, or a failure once `subscribeTimeoutMs` has passed without the subscriptions live. */
  async #live(subscribed: Promise<unknown>): Promise<void> {
    const timeoutMs = this.#options.subscribeTimeoutMs ?? 10_000
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the RPC's subscriptions did not answer within ${timeoutMs} ms`)),
        timeoutMs,
      )
    })
    try {
      await Promise.race([subscribed, late])
    } finally {
      clearTimeout(timer)
    }
  }

  #forget(watchId: string): void {
    this.#kept.delete(watchId)
    for (const [mint, subject] of this.#subjects) {
      if (!subject.watches.delete(watchId) || subject.watches.size > 0) continue
      this.#subjects.delete(mint)
      clearTimeout(subject.gradeTimer)
      for (const account of subject.accounts) this.#subscriptions.release(account, mint)
    }
  }

  /**
   * Runs `work` after the subject's queued work. A failure (the store or the RPC not answering) is
   * logged and ends that work alone: the queue goes on, and the next read compares with the last
   * snapshot kept, so the change is reported then.
   */
  #enqueue(subject: Subject, work: () => Promise<void>): Promise<void> {
    subject.queue = subject.queue.then(work).catch((error: unknown) => {
      this.#options.logger.warn({ err: error, mint: subject.plan.mint }, 'watch: a change was not handled')
    })
    return subject.queue
  }

  #changed(notification: LogNotification): Promise<void> {
    const queued: Promise<void>[] = []
    for (const subject of this.#subjects.values()) {
      if (!subject.accounts.has(notification.account)) continue
      queued.push(this.#enqueue(subject, () => this.#reread(subject, notification)))
    }
    return Promise.all(queued).then(() => undefined)
  }

  async #reread(subject: Subject, notification: LogNotification): Promise<void> {
    // Read even when the last snapshot is already newer than this transaction (it was read after it
    // landed): the state is then unchanged, but the transaction's own evidence (a freeze) is in its logs.
    let after: SubjectSnapshot | undefined
    for (let attempt = 0; attempt < SLOT_RETRIES && !after; attempt++) {
      try {
        after = await readSnapshot(this.#options.sources.solana, subject.plan, { minContextSlot: notification.slot })
      } catch (error) {
        if (attempt === SLOT_RETRIES - 1) {
          this.#options.logger.warn({ err: error, mint: subject.plan.mint }, 'watch: snapshot not read')
          return
        }
        await new Promise((resolve) => setTimeout(resolve, 200 * (attempt + 1)))
      }
    }
    if (!after) return
    const delegate = subject.last.token.permanentDelegate
    const extra =
      notification.account === subject.plan.mint
        ? transactionEvents(await this.#transactionFacts(notification), subject.plan.mint, delegate)
        : []
    const before = subject.last
    const windowS = Math.max(...[...subject.watches.values()].map((watch) => watch.thresholds.liquidity_window_s))
    subject.recent = [...subject.recent, after].filter((snapshot) => snapshot.readAt >= after.readAt - windowS * 1000)
    const material = await this.#record(subject, before, after, notification, this.now(), extra)
    // Moved on only once its events are kept: if keeping them failed, the next read diffs from `before` again.
    subject.last = after
    await this.#options.store.saveSnapshot(subject.plan.mint, snapshotToJson(after))
    // A material change (an event of any kind, watched or not) is when a sell route is pulled: asked
    // again now, not on the schedule.
    if (material > 0) {
      await this.#askRoute(subject, { signature: notification.signature, slot: after.slot })
      this.#scheduleGrade(subject, { signature: notification.signature, slot: after.slot })
    }
  }

  /**
   * A re-scan of the token after a material change: `gradeDelayMs` on (past the cached reads from
   * before the change), and no sooner than `gradeEveryMs` after the last re-scan. One waiting covers
   * every change until it runs; a change too close to its run moves it later (it would read the cache).
   */
  #scheduleGrade(subject: Subject, evidence: { signature: string | null; slot: number }): void {
    if (!this.#options.grade || this.#stopped) return
    const told = [...subject.watches.values()].some((watch) => watch.kinds.has('grade_fell'))
    if (!told) return
    const now = Date.now()
    const at = Math.max(
      now + (this.#options.gradeDelayMs ?? 5_500),
      subject.gradeAskedAt + (this.#options.gradeEveryMs ?? 60_000),
    )
    if (subject.gradeTimer && subject.gradeAt >= at) return
    clearTimeout(subject.gradeTimer)
    subject.gradeAt = at
    subject.gradeTimer = setTimeout(() => {
      subject.gradeTimer = undefined
      subject.gradeAskedAt = Date.now()
      this.#grade(subject, evidence)
    }, at - now)
  }

  /** Runs #askGrade in the background, known to settled(). */
  #grade(subject: Subject, evidence: { signature: string | null; slot: number }): void {
    const reading = this.#askGrade(subject, evidence).finally(() => this.#grading.delete(reading))
    this.#grading.add(reading)
  }

  /**
   * Reads the token's grade; raises `grade_fell` for its watches when it is lower than the last read
   * (high; critical when it is now D or F), naming the findings that cap it. A scan with facts missing
   * says nothing (a grade capped for an unread mint is no fall); a failing one is logged.
   */
  async #askGrade(subject: Subject, evidence: { signature: string | null; slot: number }): Promise<void> {
    const probe = this.#options.grade
    if (!probe) return
    let read: Awaited<ReturnType<GradeProbe>>
    try {
      read = await probe(subject.plan.mint)
    } catch (error) {
      this.#options.logger.warn({ err: error, mint: subject.plan.mint }, 'watch: the grade was not read')
      return
    }
    if (!read.complete || this.#stopped) return
    const was = subject.grade
    subject.grade = read.grade
    if (was === undefined || GRADES.indexOf(read.grade) <= GRADES.indexOf(was)) return
    const capping = read.capping.map((finding) => finding.code).join(', ')
    const fell: DetectedEvent = {
      kind: 'grade_fell',
      severity: read.grade === 'D' || read.grade === 'F' ? 'critical' : 'high',
      key: `grade:${was}>${read.grade}`,
      before: { grade: was },
      after: { grade: read.grade, capped_by: capping || null },
      sentence: `${subject.plan.mint}'s quick-scan grade fell from ${was} to ${read.grade}${read.capping.length > 0 ? `: ${read.capping.map((finding) => finding.title).join('; ')}` : ''}.`,
    }
    await this.#enqueue(subject, async () => {
      await this.#record(subject, subject.last, subject.last, evidence, this.now(), [fell])
    })
  }

  /**
   * Asks whether anything buys the token now and raises `sell_route_failing` (critical) for its watches
   * when the route is refused where it answered before; not again until an answer shows it open. An
   * answer that cannot say (`unknown`) changes nothing. One aggregator request, a small sale: a
   * thousandth of the largest pool's token reserve (a millionth of the supply without a pool).
   */
  async #askRoute(
    subject: Subject,
    evidence: { signature: string | null; slot: number },
    nowMs = this.now(),
  ): Promise<void> {
    const probe = this.#options.sellRoute
    // Asked for a token just followed (its watch is added after: the route as it was at the start), then
    // only while a watch of it is told of this kind.
    const told =
      subject.watches.size === 0 || [...subject.watches.values()].some((watch) => watch.kinds.has('sell_route_failing'))
    if (!probe || !told) return
    subject.routeAskedAt = nowMs
    const { mint } = subject.plan
    const reserve = subject.last.pools.reduce(
      (most, pool) => ((pool.tokenReserve ?? 0n) > most ? (pool.tokenReserve ?? 0n) : most),
      0n,
    )
    const amount = reserve > 0n ? reserve / 1_000n : subject.last.token.supply / 1_000_000n
    // Bounded: the question runs in the token's queue, which the next change's re-read waits behind.
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<{ route: 'unknown'; reason: string }>((resolve) => {
      timer = setTimeout(() => resolve({ route: 'unknown', reason: 'no answer in time' }), SELL_ROUTE_MS)
    })
    const answer = await Promise.race([
      probe(mint, amount > 0n ? amount : 1n).catch((error: unknown) => ({
        route: 'unknown' as const,
        reason: (error as Error).message,
      })),
      late,
    ]).finally(() => clearTimeout(timer))
    if (answer.route === 'unknown') return
    const was = subject.route
    subject.route = answer.route
    if (was !== 'open' || answer.route !== 'refused') return
    const failing: DetectedEvent = {
      kind: 'sell_route_failing',
      severity: 'critical',
      key: 'sell_route',
      before: { route: 'open' },
      after: { route: 'refused', amount: amount.toString(), reason: answer.reason },
      sentence: `Nothing buys ${mint} any more: the aggregator finds no route to sell it (${answer.reason}), where it found one before — holders cannot get out (a honeypot's mark).`,
    }
    await this.#record(subject, subject.last, subject.last, evidence, nowMs, [failing])
  }

  /** The transaction's instructions (top-level and inner), signers and balance changes of the mint. */
  async #transactionFacts(notification: LogNotification): Promise<TransactionFacts> {
    const facts: TransactionFacts = { instructions: [], tokenAccounts: new Map(), decimals: null }
    const transaction = await this.#options.sources.solana
      .rpc(new CallMeter())
      .getTransaction(notification.signature as Signature, {
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
        commitment: 'confirmed',
      })
      .send()
    if (!transaction?.meta) return facts
    const { message } = transaction.transaction
    // A v0 transaction's accounts: its own keys, then those loaded from tables (writable, then read-only).
    const keys: string[] = [
      ...message.accountKeys,
      ...(transaction.meta.loadedAddresses?.writable ?? []),
      ...(transaction.meta.loadedAddresses?.readonly ?? []),
    ]
    const base58 = getBase58Encoder()
    const read = (instruction: { programIdIndex: number; accounts: readonly number[]; data: string }) => ({
      program: keys[instruction.programIdIndex] ?? '',
      accounts: instruction.accounts.map((index) => keys[index] ?? ''),
      data: new Uint8Array(base58.encode(instruction.data)),
    })
    facts.instructions = [
      ...message.instructions.map(read),
      ...(transaction.meta.innerInstructions ?? []).flatMap((inner) => inner.instructions.map(read)),
    ]
    const mint = notification.account
    const accounts = new Map<string, string>()
    for (const entry of [...(transaction.meta.preTokenBalances ?? []), ...(transaction.meta.postTokenBalances ?? [])])
      if (entry.mint === mint && entry.owner) {
        accounts.set(keys[entry.accountIndex] ?? '', entry.owner)
        facts.decimals = entry.uiTokenAmount.decimals
      }
    facts.tokenAccounts = accounts
    return facts
  }

  /**
   * The holder's exit for a watch with `exit` when `detected` holds a high or critical event: built once
   * for the detection (its events share it: one holding, sold once), within `exitTimeoutMs`, before the
   * events are stored — so every delivery of them, retried or replayed, carries the same one.
   */
  async #exitFor(record: WatchRecord, detected: DetectedEvent[]): Promise<AlertExit | undefined> {
    const build = this.#options.exits
    if (!build || !record.exit || !detected.some((event) => EXIT_SEVERITIES.has(event.severity))) return undefined
    return boundedExit(
      build,
      {
        mint: record.subject.address,
        user_public_key: record.exit.userPublicKey,
        slippage_bps: record.exit.slippageBps,
      },
      this.#options.exitTimeoutMs ?? EXIT_BUILD_MS,
    )
  }

  /**
   * Diffs for every watch of the subject and keeps, publishes and sends what is new; answers how many
   * changes the diff found for the most concerned watch, watched kinds or not (what asks the sell route).
   */
  async #record(
    subject: Subject,
    before: SubjectSnapshot,
    after: SubjectSnapshot,
    evidence: { signature: string | null; slot: number },
    nowMs: number,
    extra: DetectedEvent[] = [],
    only?: string,
  ): Promise<number> {
    let material = 0
    const told: { watchId: string; record: WatchRecord; detected: { found: DetectedEvent; id: string }[] }[] = []
    for (const [watchId, watch] of subject.watches) {
      if (only !== undefined && watchId !== only) continue
      // Nothing is detected for a watch outside its paid period.
      if (nowMs < watch.record.paidFrom || nowMs >= watch.record.paidUntil) continue
      const windowStart = subject.recent.find(
        (snapshot) => snapshot.readAt >= after.readAt - watch.thresholds.liquidity_window_s * 1000,
      )
      const found = [
        ...extra,
        ...diffSnapshots(before, after, watch.thresholds, { now: Math.floor(nowMs / 1000), windowStart }),
      ]
      material = Math.max(material, found.length)
      const detected = found
        .filter((event) => watch.kinds.has(event.kind))
        .map((event) => ({ found: event, id: eventIdOf(watchId, event, evidence.signature, evidence.slot) }))
      if (detected.length > 0) told.push({ watchId, record: watch.record, detected })
    }
    // The exits, built together (one per holder and slippage, however many watches name them) and only
    // for events not kept already (the tick finds an expired lock again every minute: one exit, once).
    const exits = new Map<string, Promise<AlertExit | undefined>>()
    const exitOf = (record: WatchRecord, fresh: DetectedEvent[]) => {
      if (!record.exit) return Promise.resolve(undefined)
      const key = `${record.exit.userPublicKey}|${record.exit.slippageBps}`
      let exit = exits.get(key)
      if (!exit) {
        exit = this.#exitFor(record, fresh)
        if (!fresh.some((event) => EXIT_SEVERITIES.has(event.severity))) return exit
        exits.set(key, exit)
      }
      return exit
    }
    const built = await Promise.all(
      told.map(({ watchId, record, detected }) =>
        exitOf(
          record,
          detected.filter(({ id }) => !this.#kept.get(watchId)?.has(id)).map(({ found }) => found),
        ),
      ),
    )
    for (const [index, { watchId, record, detected }] of told.entries()) {
      const exit = built[index]
      for (const { found, id } of detected) {
        const event: WatchEvent = {
          event_id: id,
          watch_id: watchId,
          kind: found.kind,
          severity: found.severity,
          subject: record.subject,
          // The transaction's slot when one is named (the evidence), else the slot the change was read at.
          slot: evidence.signature ? evidence.slot : after.slot,
          signature: evidence.signature,
          before: found.before,
          after: found.after,
          sentence: found.sentence,
          detected_at: new Date(nowMs).toISOString(),
          ...(found.impersonates ? { impersonates: found.impersonates } : {}),
          ...(exit && EXIT_SEVERITIES.has(found.severity) ? { exit } : {}),
        }
        const deliver = record.webhookUrl !== null
        const { seq, fresh } = await this.#options.store.append(watchId, event.event_id, event, { deliver, nowMs })
        const kept = this.#kept.get(watchId) ?? new Set<string>()
        this.#kept.set(watchId, kept.add(id))
        if (!fresh) continue
        watchEvents.inc({ kind: event.kind, severity: event.severity })
        this.bus.publish(event, seq)
        if (deliver) this.#delivery.kick(watchId)
      }
    }
    return material
  }
}
