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
import type { Attestor } from '../../src/attest/attestation.ts'
import type { Sources } from '../../src/facts/index.ts'
import type { Logger } from '../../src/kernel/logger.ts'
import { watchEvents, watchGauges } from '../../src/kernel/metrics.ts'
import type { SolanaSource } from '../../src/sources/solana-rpc.ts'
import { CallMeter } from '../../src/sources/upstream.ts'
import type { WatchRecord, WatchStore } from '../../src/store/watches.ts'
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
   * The clock paid periods are read against (ms since epoch): a test moves it past a period's end
   * rather than waiting an hour.
   * @default Date.now
   */
  now?: () => number
}

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
    await Promise.all([...this.#subjects.values()].map((subject) => subject.queue))
    await this.#delivery.idle()
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer)
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
      this.#enqueue(subject, () =>
        this.#record(subject, subject.last, subject.last, { signature: null, slot: subject.last.slot }, nowMs),
      )
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
      await this.#enqueue(subject, () =>
        this.#record(subject, kept, first, { signature: null, slot: first.slot }, this.now(), [], record.id),
      )
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
            ...(kept ? { kept: snapshotFromJson(kept) } : {}),
          }
          this.#subjects.set(mint, subject)
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
    for (const [mint, subject] of this.#subjects) {
      if (!subject.watches.delete(watchId) || subject.watches.size > 0) continue
      this.#subjects.delete(mint)
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
    await this.#record(subject, before, after, notification, this.now(), extra)
    // Moved on only once its events are kept: if keeping them failed, the next read diffs from `before` again.
    subject.last = after
    await this.#options.store.saveSnapshot(subject.plan.mint, snapshotToJson(after))
  }

  /** The transaction's instructions (top-level and inner), signers and balance changes of the mint. */
  async #transactionFacts(notification: LogNotification): Promise<TransactionFacts> {
    const facts: TransactionFacts = { instructions: [], signers: [], changes: [] }
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
    facts.signers = keys.slice(0, message.header.numRequiredSignatures)
    const mint = notification.account
    const balances = new Map<string, bigint>()
    for (const entry of transaction.meta.preTokenBalances ?? [])
      if (entry.mint === mint && entry.owner)
        balances.set(entry.owner, (balances.get(entry.owner) ?? 0n) - BigInt(entry.uiTokenAmount.amount))
    for (const entry of transaction.meta.postTokenBalances ?? [])
      if (entry.mint === mint && entry.owner)
        balances.set(entry.owner, (balances.get(entry.owner) ?? 0n) + BigInt(entry.uiTokenAmount.amount))
    facts.changes = [...balances].map(([owner, delta]) => ({ owner, delta }))
    return facts
  }

  /** Diffs for every watch of the subject and keeps, publishes and sends what is new. */
  async #record(
    subject: Subject,
    before: SubjectSnapshot,
    after: SubjectSnapshot,
    evidence: { signature: string | null; slot: number },
    nowMs: number,
    extra: DetectedEvent[] = [],
    only?: string,
  ): Promise<void> {
    for (const [watchId, watch] of subject.watches) {
      if (only !== undefined && watchId !== only) continue
      // Nothing is detected for a watch outside its paid period.
      if (nowMs < watch.record.paidFrom || nowMs >= watch.record.paidUntil) continue
      const windowStart = subject.recent.find(
        (snapshot) => snapshot.readAt >= after.readAt - watch.thresholds.liquidity_window_s * 1000,
      )
      const detected = [
        ...extra,
        ...diffSnapshots(before, after, watch.thresholds, { now: Math.floor(nowMs / 1000), windowStart }),
      ].filter((event) => watch.kinds.has(event.kind))
      for (const found of detected) {
        const event: WatchEvent = {
          event_id: eventIdOf(watchId, found, evidence.signature, evidence.slot),
          watch_id: watchId,
          kind: found.kind,
          severity: found.severity,
          subject: watch.record.subject,
          slot: after.slot,
          signature: evidence.signature,
          before: found.before,
          after: found.after,
          sentence: found.sentence,
          detected_at: new Date(nowMs).toISOString(),
          ...(found.impersonates ? { impersonates: found.impersonates } : {}),
        }
        const deliver = watch.record.webhookUrl !== null
        const { seq, fresh } = await this.#options.store.append(watchId, event.event_id, event, { deliver, nowMs })
        if (!fresh) continue
        watchEvents.inc({ kind: event.kind, severity: event.severity })
        this.bus.publish(event, seq)
        if (deliver) this.#delivery.kick(watchId)
      }
    }
  }
}
