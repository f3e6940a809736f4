/**
 * The position guard's subscriptions: one `logsSubscribe {mentions: [account]}` per watched account,
 * however many watches share it (reference counted by holder), over @solana/kit's subscriptions client
 * (which itself shares WebSocket connections between subscriptions). A notification — account A changed
 * at slot S in transaction G — is handed to `onLogs`; the engine re-reads the subjects watching A.
 *
 * As the launchpad ingester (src/launchpad-index/ingester.ts) does, a dropped subscription is made again
 * after a pause that grows (1 s, doubling, to 30 s), and once it is back what was missed is read back:
 * `getSignaturesForAddress(A, {until: the last signature seen})` — or, before any was seen, every
 * transaction since the slot of the first subscription — each handed over oldest first with its logs
 * (`getTransaction`). A transaction given twice (live and by the catch-up) is harmless: events are keyed
 * by signature and kept once. A connection the provider closed cleanly (code 1000), which kit's
 * subscriptions do not notice, is found by a liveness check every `livenessMs`
 * (src/sources/live-subscriptions.ts) and handled as any drop.
 */
import type { Address, Signature } from '@solana/kit'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Logger } from '../../src/kernel/logger.ts'
import { createLiveSolanaRpcSubscriptions } from '../../src/sources/live-subscriptions.ts'
import type { SolanaSource } from '../../src/sources/solana-rpc.ts'
import { CallMeter } from '../../src/sources/upstream.ts'

export interface LogNotification {
  /** The watched account the transaction mentioned. */
  account: string
  signature: string
  slot: number
  logs: readonly string[]
  /** True when read back after a reconnection rather than pushed live. */
  caughtUp: boolean
}

export interface LogMultiplexerOptions {
  wsUrl: string
  /** Where the catch-up reads signatures and transactions. */
  solana: SolanaSource
  logger: Logger
  onLogs(notification: LogNotification): void | Promise<void>
  /**
   * Transactions read back per account after a reconnection (the provider's limits bound it).
   * @default 50
   */
  backfill?: number
  /**
   * The first pause before subscribing again; it doubles up to `maxPauseMs`.
   * @default 1000
   */
  initialPauseMs?: number
  /** @default 30000 */
  maxPauseMs?: number
  /**
   * How often each connection is checked for a clean close (src/sources/live-subscriptions.ts).
   * @default 5000
   */
  livenessMs?: number
}

export interface SubscriptionCounts {
  /** logsSubscribe subscriptions held: one per watched account. */
  subscriptions: number
  /** References to them (watches × their accounts). */
  references: number
  /** Subscriptions made again after a drop, since start. */
  reconnects: number
  /** Transactions read back by catch-ups, since start. */
  caughtUp: number
}

interface AccountFeed {
  holders: Set<string>
  abort: AbortController
  /** The newest transaction seen (live or read back): where a catch-up stops. */
  last: { signature: string; slot: number } | null
  /** The slot when the account was first subscribed: a catch-up before any transaction reads from it. */
  since: number | null
  subscribed: Promise<void>
  running: Promise<void>
}

export class LogMultiplexer {
  readonly #options: Required<Omit<LogMultiplexerOptions, 'onLogs' | 'logger' | 'solana' | 'wsUrl'>> &
    LogMultiplexerOptions
  /** The subscriptions client (its connections shared by every account), made anew after a failure. */
  #subscriptions: ReturnType<typeof createLiveSolanaRpcSubscriptions>
  readonly #feeds = new Map<string, AccountFeed>()
  readonly #meter = new CallMeter()
  #reconnects = 0
  #caughtUp = 0

  constructor(options: LogMultiplexerOptions) {
    const { backfill = 50, initialPauseMs = 1_000, maxPauseMs = 30_000, livenessMs = 5_000 } = options
    if (!Number.isInteger(backfill) || backfill < 1) throw new Error('backfill must be a positive integer')
    this.#options = { ...options, backfill, initialPauseMs, maxPauseMs, livenessMs }
    this.#subscriptions = this.#client()
  }

  /**
   * `holder` (a watch) follows `account`: the first holder subscribes. Resolves once the subscription is
   * live, so a snapshot read after it misses no change.
   */
  acquire(account: string, holder: string): Promise<void> {
    const existing = this.#feeds.get(account)
    if (existing) {
      existing.holders.add(holder)
      return existing.subscribed
    }
    let live: () => void = () => {}
    const feed: AccountFeed = {
      holders: new Set([holder]),
      abort: new AbortController(),
      last: null,
      since: null,
      subscribed: new Promise((resolve) => (live = resolve)),
      running: Promise.resolve(),
    }
    this.#feeds.set(account, feed)
    feed.running = this.#follow(account, feed, live)
    return feed.subscribed
  }

  /** `holder` no longer follows `account`: the last holder's release unsubscribes. */
  release(account: string, holder: string): void {
    const feed = this.#feeds.get(account)
    if (!feed) return
    feed.holders.delete(holder)
    if (feed.holders.size > 0) return
    this.#feeds.delete(account)
    feed.abort.abort()
  }

  /** The accounts `holder` follows. */
  accountsOf(holder: string): string[] {
    return [...this.#feeds].filter(([, feed]) => feed.holders.has(holder)).map(([account]) => account)
  }

  get counts(): SubscriptionCounts {
    let references = 0
    for (const feed of this.#feeds.values()) references += feed.holders.size
    return { subscriptions: this.#feeds.size, references, reconnects: this.#reconnects, caughtUp: this.#caughtUp }
  }

  async stop(): Promise<void> {
    const feeds = [...this.#feeds.values()]
    this.#feeds.clear()
    for (const feed of feeds) feed.abort.abort()
    await Promise.all(feeds.map((feed) => feed.running.catch(() => {})))
  }

  #client() {
    return createLiveSolanaRpcSubscriptions(this.#options.wsUrl, { checkMs: this.#options.livenessMs })
  }

  async #follow(account: string, feed: AccountFeed, live: () => void): Promise<void> {
    const { signal } = feed.abort
    let pause = this.#options.initialPauseMs
    let first = true
    while (!signal.aborted) {
      const client = this.#subscriptions
      try {
        const stream = await client
          .logsNotifications({ mentions: [account as Address] }, { commitment: 'confirmed' })
          .subscribe({ abortSignal: signal })
        if (first) {
          feed.since = Number(await this.#options.solana.rpc(this.#meter).getSlot({ commitment: 'confirmed' }).send())
          first = false
        } else await this.#catchUp(account, feed)
        live()
        // Subscribed again and caught up: the next drop starts from the first pause. (Reset only on a
        // notification, a quiet account's pause kept doubling over drops: measured by the watch bench.)
        pause = this.#options.initialPauseMs
        for await (const notification of stream) {
          if (notification.value.err !== null) continue
          await this.#hand(account, feed, {
            signature: notification.value.signature,
            slot: Number(notification.context.slot),
            logs: notification.value.logs ?? [],
            caughtUp: false,
          })
        }
      } catch (error) {
        if (signal.aborted) break
        this.#options.logger.warn({ err: error, account }, 'watch: log subscription lost, subscribing again')
        // kit's client keeps a connection that failed to open in its pool, and every later subscription
        // on it fails the same way (measured: test/watch-engine.test.ts): the first account to see a
        // failure replaces the client; the others then subscribe on the new one.
        if (this.#subscriptions === client) this.#subscriptions = this.#client()
      }
      if (signal.aborted) break
      this.#reconnects++
      await sleep(pause, undefined, { signal }).catch(() => {})
      pause = Math.min(pause * 2, this.#options.maxPauseMs)
    }
    // Released before it was ever live: whoever waits on acquire is not left waiting.
    live()
  }

  /** Reads back, oldest first, the account's successful transactions since the last one seen. */
  async #catchUp(account: string, feed: AccountFeed): Promise<void> {
    const rpc = this.#options.solana.rpc(this.#meter)
    const page = await rpc
      .getSignaturesForAddress(account as Address, {
        limit: this.#options.backfill,
        ...(feed.last ? { until: feed.last.signature as Signature } : {}),
      })
      .send()
    const missed = [...page]
      .reverse()
      .filter((entry) => entry.err === null && (feed.last !== null || Number(entry.slot) >= (feed.since ?? 0)))
    for (const entry of missed) {
      if (feed.abort.signal.aborted) return
      const transaction = await rpc
        .getTransaction(entry.signature, {
          encoding: 'json',
          maxSupportedTransactionVersion: 0,
          commitment: 'confirmed',
        })
        .send()
      this.#caughtUp++
      await this.#hand(account, feed, {
        signature: entry.signature,
        slot: Number(entry.slot),
        logs: transaction?.meta?.logMessages ?? [],
        caughtUp: true,
      })
    }
  }

  async #hand(account: string, feed: AccountFeed, notification: Omit<LogNotification, 'account'>): Promise<void> {
    if (feed.last === null || notification.slot >= feed.last.slot)
      feed.last = { signature: notification.signature, slot: notification.slot }
    try {
      await this.#options.onLogs({ account, ...notification })
    } catch (error) {
      this.#options.logger.warn(
        { err: error, account, signature: notification.signature },
        'watch: a change was not handled',
      )
    }
  }
}
