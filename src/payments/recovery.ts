import { reconciliations } from '../core/metrics.ts'
/**
 * Payments left mid-way: reconciled after a restart, and those whose settlement's answer was lost
 * resolved on their chains (docs/payments.md, "After a restart" and "Pending payments").
 */
import type { Logger } from '../core/logger.ts'
import type { PaymentLedger } from '../store/ledger.ts'
import type { Evidence, Outcome, SettlementChecker } from './settlement-check.ts'

/** How often pending payments are looked for on their chains. */
const PENDING_CHECK_MS = 30_000

export class PaymentRecovery {
  readonly #ledger: PaymentLedger
  readonly #logger: Logger
  readonly #shared: boolean
  readonly #checker: SettlementChecker | undefined
  #loop: ReturnType<typeof setInterval> | undefined

  constructor(deps: {
    ledger: PaymentLedger
    logger: Logger
    sharedLedger: boolean
    checker: SettlementChecker | undefined
  }) {
    this.#ledger = deps.ledger
    this.#logger = deps.logger
    this.#shared = deps.sharedLedger
    this.#checker = deps.checker
  }

  /** Resolves pending payments now, then every 30 s (nothing without a checker). */
  start(): void {
    if (!this.#checker || this.#loop) return
    const resolve = () =>
      void this.resolvePending().catch((error: Error) =>
        this.#logger.warn({ err: error.message }, 'resolving pending payments failed'),
      )
    resolve()
    this.#loop = setInterval(resolve, PENDING_CHECK_MS)
    this.#loop.unref?.()
  }

  stop(): void {
    clearInterval(this.#loop)
  }

  /**
   * Asks the chains what became of each `pending` payment (a settlement whose answer was lost): the
   * money moved → `credited` (its call's result was withheld, so presenting the same payment with
   * the same request runs that call once without charging); it never can → `failed`; otherwise it
   * stays pending and is asked again later. Nothing is ever sent for settlement twice.
   */
  async resolvePending(nowMs = Date.now()): Promise<{ credited: number; failed: number; pending: number }> {
    const counts = { credited: 0, failed: 0, pending: 0 }
    for (const record of await this.#ledger.unresolved()) {
      if (record.state !== 'pending') continue
      const evidence = record.evidence ? (JSON.parse(record.evidence) as Evidence) : undefined
      if (!this.#checker || !evidence) {
        counts.pending++
        continue
      }
      let outcome: Outcome
      try {
        outcome = await this.#checker.check(evidence, record.createdAt, nowMs)
      } catch (error) {
        this.#logger.warn(
          { key: record.key, err: (error as Error).message },
          'cannot read the chain for a pending payment: asking again later',
        )
        counts.pending++
        continue
      }
      if (outcome.state === 'pending') counts.pending++
      else if (outcome.state === 'settled') {
        // The call's result was withheld when its settlement went unanswered: the payment is owed one call.
        const reason = `resolved on chain: ${outcome.how}; owed one call (present the same payment again)`
        if (
          await this.#ledger.transition(
            record.key,
            'pending',
            'credited',
            { transaction: outcome.transaction, reason },
            nowMs,
          )
        )
          counts.credited++
      } else if (
        await this.#ledger.transition(
          record.key,
          'pending',
          'failed',
          { reason: `resolved on chain: ${outcome.reason}` },
          nowMs,
        )
      )
        counts.failed++
    }
    if (counts.credited + counts.failed > 0) this.#logger.info(counts, 'pending payments resolved on chain')
    return counts
  }

  /**
   * Settles the books after a restart: a payment left `verifying` or `verified` was never sent for
   * settlement (verifying moves nothing; settle comes only after the handler), so it is released
   * (`rejected` / `cancelled`: the caller may present it again). One left `settling` may have settled:
   * it stays `pending` for reconciliation against the chain and is never re-sent.
   */
  async reconcile(): Promise<{ released: number; pending: number }> {
    let released = 0
    let pending = 0
    // A shared ledger's open payments may be another instance's calls in flight: release none. Such a
    // payment stays unusable (and unsettled: nothing was charged); its payer signs a new one.
    if (this.#shared) return { released, pending: (await this.#ledger.unresolved()).length }
    for (const record of await this.#ledger.unresolved()) {
      const reason = 'the service stopped before settlement'
      if (record.state === 'verifying')
        released += Number(await this.#ledger.transition(record.key, 'verifying', 'rejected', { reason }))
      else if (record.state === 'verified')
        released += Number(await this.#ledger.transition(record.key, 'verified', 'cancelled', { reason }))
      else if (record.state === 'redeeming')
        released += Number(await this.#ledger.transition(record.key, 'redeeming', 'credited', { reason }))
      else {
        if (record.state === 'settling')
          await this.#ledger.transition(record.key, 'settling', 'pending', {
            reason: 'the service stopped during settlement',
          })
        pending++
      }
    }
    reconciliations.inc({ outcome: 'released' }, released)
    reconciliations.inc({ outcome: 'pending' }, pending)
    if (released + pending > 0)
      this.#logger.warn(
        { released, pending },
        'payments left unfinished by the last run: released those never settled; the rest stay pending',
      )
    return { released, pending }
  }
}
