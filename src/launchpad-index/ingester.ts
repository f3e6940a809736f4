import { setTimeout as sleep } from 'node:timers/promises'
/**
 * The launchpad ingester: follows the pump.fun program through the RPC's log subscription
 * (`logsSubscribe {mentions: [program]}`), decodes its events from the logs (src/onchain/pump-events.ts)
 * and applies them to the launchpad index (src/store/launches.ts). It subscribes first, then catches up
 * on what it missed since its cursor (`getSignaturesForAddress(program, {until: cursor})` and each
 * transaction's logs, up to `backfill` transactions); events are idempotent, so the overlap counts once.
 * When the subscription drops it reconnects with a growing pause and catches up again; a connection the
 * provider closed cleanly (code 1000), which kit's subscriptions do not notice, is found by a liveness
 * check every `livenessMs` (src/sources/live-subscriptions.ts) and handled as a drop.
 */
import type { IngesterStatus } from '../store/launches.ts'
import type { Signature } from '@solana/kit'
import type { Logger } from '../kernel/logger.ts'
import { PUMP_PROGRAM_ADDRESS } from '../onchain/programs.ts'
import { pumpEventsInLogs } from '../onchain/pump-events.ts'
import { createLiveSolanaRpcSubscriptions } from '../sources/live-subscriptions.ts'
import type { SolanaSource } from '../sources/solana-rpc.ts'
import { CallMeter } from '../sources/upstream.ts'
import type { IndexedEvent, LaunchIndex } from '../store/launches.ts'

export interface IngesterOptions {
  solana: SolanaSource
  wsUrl: string
  index: LaunchIndex
  logger: Logger
  /** Transactions read back at most when catching up (the provider's limits bound it). */
  backfill: number
  /**
   * How often the connection is checked for a clean close (src/sources/live-subscriptions.ts).
   * @default 5000
   */
  livenessMs?: number
}

const MAX_PAUSE_MS = 30_000

export class LaunchIngester {
  readonly #options: IngesterOptions
  readonly #abort = new AbortController()
  readonly #meter = new CallMeter()
  #status: IngesterStatus = { state: 'starting', events: 0, lastEventAt: null, reconnects: 0 }
  #running: Promise<void> | undefined
  #caughtUp: (() => void) | undefined
  /** Resolves once the first catch-up is done (the index holds the recent past). */
  readonly ready: Promise<void>

  constructor(options: IngesterOptions) {
    this.#options = options
    this.ready = new Promise((resolve) => {
      this.#caughtUp = resolve
    })
  }

  get status(): IngesterStatus {
    return { ...this.#status }
  }

  start(): this {
    this.#running ??= this.#loop()
    return this
  }

  async stop(): Promise<void> {
    this.#abort.abort()
    this.#status.state = 'stopped'
    await this.#running?.catch(() => {})
  }

  async #loop(): Promise<void> {
    let pause = 1_000
    while (!this.#abort.signal.aborted) {
      try {
        const stream = await createLiveSolanaRpcSubscriptions(this.#options.wsUrl, {
          checkMs: this.#options.livenessMs,
        })
          .logsNotifications({ mentions: [PUMP_PROGRAM_ADDRESS] }, { commitment: 'confirmed' })
          .subscribe({ abortSignal: this.#abort.signal })
        this.#status.state = 'catching_up'
        const caughtUp = this.#catchUp()
        const live = (async () => {
          for await (const notification of stream) {
            const { signature, logs, err } = notification.value
            if (err !== null) continue
            await this.#apply(signature, notification.context.slot, logs ?? [])
            pause = 1_000
          }
        })()
        await caughtUp
        this.#caughtUp?.()
        this.#status.state = 'live'
        await live
      } catch (error) {
        if (this.#abort.signal.aborted) break
        this.#options.logger.warn({ err: error }, 'launchpad ingester: subscription lost, reconnecting')
      }
      if (this.#abort.signal.aborted) break
      this.#status.state = 'reconnecting'
      this.#status.reconnects++
      await sleep(pause)
      pause = Math.min(pause * 2, MAX_PAUSE_MS)
    }
  }

  /** Reads back, oldest first, the program's transactions since the cursor (at most `backfill`). */
  async #catchUp(): Promise<void> {
    const rpc = this.#options.solana.rpc(this.#meter)
    const cursor = await this.#options.index.cursor()
    const page = await rpc
      .getSignaturesForAddress(PUMP_PROGRAM_ADDRESS, {
        limit: this.#options.backfill,
        ...(cursor ? { until: cursor.signature as Signature } : {}),
      })
      .send()
    for (const entry of [...page].reverse()) {
      if (this.#abort.signal.aborted) return
      if (entry.err !== null) continue
      const transaction = await rpc
        .getTransaction(entry.signature, {
          encoding: 'json',
          maxSupportedTransactionVersion: 0,
          commitment: 'confirmed',
        })
        .send()
      if (transaction?.meta) await this.#apply(entry.signature, entry.slot, transaction.meta.logMessages ?? [])
    }
    const newest = page[0]
    if (newest) await this.#options.index.setCursor({ slot: newest.slot, signature: newest.signature })
  }

  async #apply(signature: string, slot: bigint, logs: readonly string[]): Promise<void> {
    const events = pumpEventsInLogs(logs)
    if (events.length === 0) return
    const indexed: IndexedEvent[] = events.map((event, index) => ({ signature, slot, index, event }))
    const applied = await this.#options.index.apply(indexed)
    if (applied > 0) {
      this.#status.events += applied
      this.#status.lastEventAt = Date.now()
    }
    if (this.#status.state === 'live') await this.#options.index.setCursor({ slot, signature })
  }
}
