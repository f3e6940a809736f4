import type { Logger } from '../kernel/logger.ts'
import { ledgerWritesQueued } from '../kernel/metrics.ts'
import type { PaymentLedger, PaymentRecord, PaymentState } from '../store/ledger.ts'

/** How often queued writes are tried again. */
const RETRY_MS = 500

interface Write {
  key: string
  from: PaymentState
  to: PaymentState
  fields: Partial<Pick<PaymentRecord, 'payer' | 'transaction' | 'reason'>>
  /** When it happened: the record's `updated_at` says so, not when the ledger came back. */
  atMs: number
}

/**
 * Ledger transitions that record what already happened — money settled, a payment released — and so
 * must not be lost when the ledger cannot take them now (a shared Redis away: docs/reliability.md,
 * "Redis goes away"). Such a write is kept in memory, in order, and retried until the ledger takes
 * it; the call goes on meanwhile (a settled call delivers its answer). Writes that decide something
 * (a claim, verifying → verified, verified → settling) are not queued: they fail the call instead,
 * before any money moves. If the process dies with writes still queued, a restart finds those
 * payments where the ledger last had them and reconciles them (`settling` → `pending` → the chain).
 */
export class LedgerOutbox {
  readonly #ledger: PaymentLedger
  readonly #logger: Logger
  readonly #queue: Write[] = []
  #timer: ReturnType<typeof setTimeout> | undefined
  #flushing: Promise<void> | undefined

  constructor(ledger: PaymentLedger, logger: Logger) {
    this.#ledger = ledger
    this.#logger = logger
  }

  /** Writes queued and not yet taken by the ledger. */
  get size(): number {
    return this.#queue.length
  }

  /**
   * Records a transition now, or queues it when the ledger does not answer (or earlier writes still
   * wait: they go first). `queued` says it is waiting; a boolean is the ledger's own answer.
   */
  async transition(
    key: string,
    from: PaymentState,
    to: PaymentState,
    fields: Write['fields'] = {},
    atMs = Date.now(),
  ): Promise<boolean | 'queued'> {
    if (this.#queue.length === 0) {
      try {
        return await this.#ledger.transition(key, from, to, fields, atMs)
      } catch (error) {
        this.#logger.warn({ key, from, to, err: (error as Error).message }, 'ledger unavailable: write queued')
      }
    }
    this.#queue.push({ key, from, to, fields, atMs })
    ledgerWritesQueued.set(this.#queue.length)
    this.#schedule()
    return 'queued'
  }

  /** Writes what is queued, in order, until the ledger refuses one (the rest wait for the next try). */
  flush(): Promise<void> {
    this.#flushing ??= this.#drain().finally(() => (this.#flushing = undefined))
    return this.#flushing
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const write = this.#queue[0]!
      try {
        const moved = await this.#ledger.transition(write.key, write.from, write.to, write.fields, write.atMs)
        if (!moved)
          this.#logger.warn(
            { key: write.key, from: write.from, to: write.to },
            'a queued ledger write found the payment elsewhere: left as it is',
          )
      } catch {
        return
      }
      this.#queue.shift()
      ledgerWritesQueued.set(this.#queue.length)
    }
    this.#logger.info('queued ledger writes recorded')
  }

  #schedule(): void {
    if (this.#timer) return
    this.#timer = setTimeout(async () => {
      await this.flush()
      this.#timer = undefined
      if (this.#queue.length > 0) this.#schedule()
    }, RETRY_MS)
  }

  /** Stops retrying; what is still queued is logged, for the restart's reconciliation to pick up. */
  async stop(): Promise<void> {
    clearTimeout(this.#timer)
    this.#timer = undefined
    await this.flush()
    if (this.#queue.length > 0)
      this.#logger.error(
        { writes: this.#queue.map(({ key, from, to }) => ({ key, from, to })) },
        'ledger writes not recorded at shutdown: the next start reconciles these payments from where the ledger has them',
      )
  }
}
