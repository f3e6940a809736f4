import type { Logger } from '../kernel/logger.ts'
import { offerableRails, type Supported } from './challenge.ts'
import type { FacilitatorClient } from './facilitator.ts'
import type { Rail } from './rails.ts'

/**
 * What the facilitator settles (its `/supported`: networks and each kind's `extra`, the Solana fee
 * payer), read at start-up and retried in the background until it answers: until then nothing is
 * offered, and paid calls answer that no payment can be taken.
 */
export class FacilitatorSupport {
  /** Network (CAIP-2 id or v1 name) → the `exact` kind's `extra`. */
  readonly supported: Supported = new Map()
  /** Counts the changes to `supported`: what is built from it (offers, challenges) is kept until it changes. */
  version = 0
  readonly #facilitator: FacilitatorClient
  readonly #rails: Rail[]
  readonly #logger: Logger
  #retry: ReturnType<typeof setTimeout> | undefined
  #watch: ReturnType<typeof setInterval> | undefined
  #stopped = false

  constructor(deps: { facilitator: FacilitatorClient; rails: Rail[]; logger: Logger }) {
    this.#facilitator = deps.facilitator
    this.#rails = deps.rails
    this.#logger = deps.logger
  }

  /**
   * Reads `/supported` now and, when it fails, again after `retryMs` (doubling to 30 s); resolves after
   * the first attempt. Meanwhile, every `retryMs`, a facilitator whose breaker is open is asked whether
   * it answers again (`FacilitatorClient.recover`), so paid calls resume within seconds of its return.
   */
  async start(retryMs = 2_000): Promise<void> {
    this.#watch ??= setInterval(
      () =>
        void this.#facilitator.recover().then((recovered) => {
          if (recovered) this.#logger.info('payment facilitator answers again: paid calls are taken')
        }),
      retryMs,
    )
    this.#watch.unref?.()
    const attempt = async (delay: number): Promise<void> => {
      if (this.#stopped) return
      try {
        const answer = await this.#facilitator.supported()
        // v2 kinds first: a network listed under both generations keeps the v2 kind's extra.
        const kinds = answer.kinds
          .filter((kind) => kind.scheme === 'exact')
          .sort((a, b) => b.x402Version - a.x402Version)
        for (const kind of kinds)
          if (!this.supported.has(kind.network)) this.supported.set(kind.network, kind.extra ?? {})
        this.version++
        const offered = offerableRails(this.#rails, this.supported)
        this.#logger.info({ networks: offered.map((rail) => rail.network) }, 'payment facilitator ready')
        // A configured rail the facilitator cannot settle is not offered: the operator is told which.
        for (const rail of this.#rails.filter((candidate) => !offered.includes(candidate)))
          this.#logger.warn(
            { rail: rail.name, network: rail.network },
            rail.asset
              ? `the facilitator does not settle ${rail.network}${rail.name === 'solana' ? ' (or names no fee payer for it)' : ''}: the ${rail.name} rail is not offered`
              : `no USDC asset is known for ${rail.network}: the ${rail.name} rail is not offered (set its *_PAYMENT_ASSET)`,
          )
      } catch (error) {
        this.#logger.warn(
          { err: (error as Error).message, retry_ms: delay },
          'payment facilitator unreachable: retrying',
        )
        this.#retry = setTimeout(() => void attempt(Math.min(delay * 2, 30_000)), delay)
      }
    }
    await attempt(retryMs)
  }

  stop(): void {
    this.#stopped = true
    clearTimeout(this.#retry)
    clearInterval(this.#watch)
  }
}
