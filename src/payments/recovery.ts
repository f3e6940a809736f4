/**
 * Payments left mid-way: reconciled after a restart, and those whose settlement's answer was lost
 * resolved on their chains (docs/payments.md, "After a restart" and "Pending payments").
 */
import type { Logger } from '../kernel/logger.ts'
import { reconciliations } from '../kernel/metrics.ts'
import type { PaymentLedger, PaymentRecord } from '../store/ledger.ts'
import type { Evidence, Outcome, SettlementChecker } from './settlement-check.ts'

/** How often pending payments are looked for on their chains, and payments left open for too long released. */
const PENDING_CHECK_MS = 30_000

/**
 * Longer than any call holds a payment before settling it: the longest is a trade's execute, which
 * waits up to 160 s for the swap's outcome (plugins/trade/execute.ts). A payment still `verifying`,
 * `verified` or `redeeming` after this belongs to no running call.
 */
export const STALE_OPEN_MS = 10 * 60_000

/**
 * Where a payment left open before settlement goes when it is released: never sent for settlement,
 * so nothing was charged, and it may be presented again (a credit stays owed).
 */
const RELEASED_TO = { verifying: 'rejected', verified: 'cancelled', redeeming: 'credited' } as const
const releasable = (state: string): state is keyof typeof RELEASED_TO => state in RELEASED_TO
const SETTLING_ORPHANED =
  'left settling longer than any settlement takes (the call that sent it is gone): its outcome is read from the chain'
/**
 * Past the facilitator's settle timeout, how long before a payment still `settling` is taken for
 * orphaned: a live call records the outcome as soon as the facilitator answers or its wait runs out.
 */
export const SETTLING_SLACK_MS = 10_000

export class PaymentRecovery {
  readonly #ledger: PaymentLedger
  readonly #logger: Logger
  readonly #shared: boolean
  readonly #checker: SettlementChecker | undefined
  readonly #settlingBoundMs: number
  #loop: ReturnType<typeof setInterval> | undefined

  constructor(deps: {
    ledger: PaymentLedger
    logger: Logger
    sharedLedger: boolean
    checker: SettlementChecker | undefined
    /**
     * How long a call can hold a payment `settling`: the facilitator's settle timeout plus
     * SETTLING_SLACK_MS. Past it the call is gone (its instance died). Default STALE_OPEN_MS.
     */
    settlingBoundMs?: number
  }) {
    this.#ledger = deps.ledger
    this.#logger = deps.logger
    this.#shared = deps.sharedLedger
    this.#checker = deps.checker
    this.#settlingBoundMs = deps.settlingBoundMs ?? STALE_OPEN_MS
  }

  /**
   * A payment left `settling` by a call that is gone (older than any settlement takes) goes `pending`:
   * it may have settled, so it is never sent again and the chain decides. True when this moved it.
   */
  async adoptOrphan(record: PaymentRecord, nowMs = Date.now()): Promise<boolean> {
    if (record.state !== 'settling' || nowMs - record.updatedAt < this.#settlingBoundMs) return false
    return this.#ledger.transition(record.key, 'settling', 'pending', { reason: SETTLING_ORPHANED }, nowMs)
  }

  /**
   * Resolves pending payments (with a checker) and releases payments left open for too long, now and
   * then every 30 s.
   */
  start(): void {
    if (this.#loop) return
    const resolve = async () => {
      try {
        await this.releaseStale()
        if (this.#checker) await this.resolvePending()
      } catch (error) {
        this.#logger.warn({ err: (error as Error).message }, 'resolving open payments failed: trying again later')
      }
    }
    void resolve()
    this.#loop = setInterval(resolve, PENDING_CHECK_MS)
    this.#loop.unref?.()
  }

  /**
   * Releases payments left open before settlement for longer than any call holds one (STALE_OPEN_MS):
   * `verifying` → `rejected`, `verified` → `cancelled`, `redeeming` → `credited`, so their payers may
   * present them again. Nothing was sent for settlement, so nothing was charged. Such a record belongs
   * to a call whose instance died while other instances share the ledger (a restart releases only its
   * own ledger's: `reconcile`), or to a claim whose answer Redis lost mid-outage. One left `settling`
   * longer than any settlement takes (the settle timeout and SETTLING_SLACK_MS) may have settled: it
   * goes `pending` (never released, never sent again) and the chain decides, as after a restart
   * (`adoptOrphan`). Answers how many were released.
   */
  async releaseStale(nowMs = Date.now()): Promise<number> {
    const reason = 'left open longer than any call holds a payment: released unsettled'
    let released = 0
    let orphaned = 0
    for (const record of await this.#ledger.unresolved()) {
      const { key, state, updatedAt } = record
      if (releasable(state)) {
        if (nowMs - updatedAt < STALE_OPEN_MS) continue
        if (await this.#ledger.transition(key, state, RELEASED_TO[state], { reason }, nowMs)) released++
      }
      // Sent for settlement by a call that is gone (its instance died, or its outcome's write was
      // lost): it may have settled, so it is never released — the chain says what became of it.
      else if (await this.adoptOrphan(record, nowMs)) orphaned++
    }
    if (orphaned > 0) {
      reconciliations.inc({ outcome: 'pending' }, orphaned)
      this.#logger.warn({ orphaned }, 'settlements left by calls that are gone: read from the chain')
    }
    if (released > 0) {
      reconciliations.inc({ outcome: 'released' }, released)
      this.#logger.warn({ released }, 'payments left open too long released unsettled')
    }
    return released
  }

  stop(): void {
    clearInterval(this.#loop)
  }

  /**
   * Asks the chains what became of each `pending` payment (a settlement the facilitator did not
   * confirm, or whose answer was lost): the money moved → `credited` (its call's result was withheld,
   * so presenting the same payment with the same request runs that call once without charging); it
   * never can → `failed`; otherwise it stays pending and is asked again later. Nothing is ever sent
   * for settlement twice.
   */
  async resolvePending(nowMs = Date.now()): Promise<{ credited: number; failed: number; pending: number }> {
    const counts = { credited: 0, failed: 0, pending: 0 }
    for (const record of await this.#ledger.unresolved()) {
      if (record.state !== 'pending') continue
      const resolved = await this.resolve(record, nowMs)
      if (resolved !== null) counts[resolved]++
    }
    if (counts.credited + counts.failed > 0) this.#logger.info(counts, 'pending payments resolved on chain')
    return counts
  }

  /**
   * One `pending` payment asked of its chain (by the settlement transaction when the facilitator named
   * one, else by what the payload identifies): what it became, or null when another resolver moved it
   * first. A chain that cannot be read leaves it pending.
   */
  async resolve(record: PaymentRecord, nowMs = Date.now()): Promise<'credited' | 'failed' | 'pending' | null> {
    const evidence = record.evidence ? (JSON.parse(record.evidence) as Evidence) : undefined
    if (!this.#checker || !evidence) return 'pending'
    let outcome: Outcome
    try {
      outcome = await this.#checker.check(evidence, record.createdAt, nowMs, record.transaction)
    } catch (error) {
      this.#logger.warn(
        { key: record.key, err: (error as Error).message },
        'cannot read the chain for a pending payment: asking again later',
      )
      return 'pending'
    }
    if (outcome.state === 'pending') return 'pending'
    if (outcome.state === 'settled') {
      // The call's result was withheld when its settlement went unconfirmed: the payment is owed one call.
      const reason = `resolved on chain: ${outcome.how}; owed one call (present the same payment again)`
      const moved = await this.#ledger.transition(
        record.key,
        'pending',
        'credited',
        { transaction: outcome.transaction ?? record.transaction, reason },
        nowMs,
      )
      return moved ? 'credited' : null
    }
    const moved = await this.#ledger.transition(
      record.key,
      'pending',
      'failed',
      { reason: `resolved on chain: ${outcome.reason}` },
      nowMs,
    )
    return moved ? 'failed' : null
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
    // A shared ledger's open payments may be another instance's calls in flight: release none now.
    // Those left by a dead instance are released once they are older than any call (releaseStale).
    if (this.#shared) return { released, pending: (await this.#ledger.unresolved()).length }
    for (const record of await this.#ledger.unresolved()) {
      const reason = 'the service stopped before settlement'
      if (releasable(record.state))
        released += Number(
          await this.#ledger.transition(record.key, record.state, RELEASED_TO[record.state], { reason }),
        )
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
