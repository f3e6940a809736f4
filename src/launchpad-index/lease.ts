/**
 * One ingester among the instances sharing a Redis: a lease (`launch:lease`, holding the instance id,
 * expiring after `leaseMs`) taken with SET NX, renewed by its holder well before it expires, and taken
 * over by another instance once the holder stops renewing (it died or lost Redis). The holder runs the
 * ingester; the others stand by, reading the index and the status the holder publishes.
 */
import type { Redis } from '../store/redis.ts'
import type { Logger } from '../kernel/logger.ts'
import type { LaunchIndex } from '../store/launches.ts'
import type { IngesterStatus, LaunchFollower } from '../store/launches.ts'
import type { LaunchIngester } from './ingester.ts'

const LEASE_KEY = 'launch:lease'
/** Extends the lease only while this instance holds it. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`
/** Gives the lease up only if this instance holds it. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`

export interface LeaseOptions {
  client: Redis
  instanceId: string
  index: LaunchIndex
  logger: Logger
  /** How long a lease lasts without renewal; it is renewed every third of that. */
  leaseMs: number
  /** Builds and starts this instance's ingester when it takes the lease. */
  ingester(): LaunchIngester
}

export class LeasedIngester implements LaunchFollower {
  readonly #options: LeaseOptions
  #ingester: LaunchIngester | undefined
  #timer: ReturnType<typeof setInterval> | undefined
  /** A standby's try at the moment the holder's lease runs out. */
  #atExpiry: ReturnType<typeof setTimeout> | undefined
  #standby: IngesterStatus = { state: 'starting', events: 0, lastEventAt: null, reconnects: 0 }
  #settled: (() => void) | undefined
  readonly ready: Promise<void>

  constructor(options: LeaseOptions) {
    this.#options = options
    this.ready = new Promise((resolve) => {
      this.#settled = resolve
    })
  }

  /** True while this instance holds the lease and ingests. */
  get leader(): boolean {
    return this.#ingester !== undefined
  }

  get status(): IngesterStatus {
    return this.#ingester?.status ?? { ...this.#standby }
  }

  start(): this {
    void this.#tick()
    this.#timer = setInterval(() => void this.#tick(), Math.max(100, Math.floor(this.#options.leaseMs / 3)))
    return this
  }

  /** Stops ingesting and gives the lease up, so another instance takes over at once. */
  async stop(): Promise<void> {
    await this.#halt()
    await this.#options.client.send('EVAL', [RELEASE, '1', LEASE_KEY, this.#options.instanceId]).catch(() => undefined)
    this.#options.client.close()
  }

  /** Stops without giving the lease up (an instance that died): another takes over once it expires. */
  async kill(): Promise<void> {
    await this.#halt()
    this.#options.client.close()
  }

  async #halt(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer)
    this.#timer = undefined
    clearTimeout(this.#atExpiry)
    const ingester = this.#ingester
    this.#ingester = undefined
    await ingester?.stop()
    this.#standby.state = 'stopped'
  }

  async #tick(): Promise<void> {
    const { client, instanceId, leaseMs, index, logger } = this.#options
    try {
      if (this.#ingester) {
        const renewed = await client.send('EVAL', [RENEW, '1', LEASE_KEY, instanceId, String(leaseMs)])
        if (renewed !== 1) {
          logger.warn({ instance: instanceId }, 'launchpad ingester: lease lost, standing by')
          const ingester = this.#ingester
          this.#ingester = undefined
          await ingester.stop()
          return
        }
        const { state, lastEventAt } = this.#ingester.status
        await index.publishStatus({ state, lastEventAt, instance: instanceId, at: Date.now() })
        return
      }
      const taken = await client.send('SET', [LEASE_KEY, instanceId, 'NX', 'PX', String(leaseMs)])
      if (taken === 'OK' && this.#timer) {
        logger.info({ instance: instanceId }, 'launchpad ingester: lease taken, ingesting')
        this.#ingester = this.#options.ingester()
        void this.#ingester.ready.then(() => this.#settled?.())
        return
      }
      // The holder may die without giving the lease up: try again the moment its lease runs out, so a
      // new instance ingests within the lease of the last renewal, not a renewal period later.
      const left = Number(await client.send('PTTL', [LEASE_KEY]))
      if (this.#timer && left < Math.floor(leaseMs / 3)) {
        clearTimeout(this.#atExpiry)
        this.#atExpiry = setTimeout(() => void this.#tick(), Math.max(0, left) + 5)
      }
      // Standing by: the leader's published state, while it is fresh.
      const shared = await index.sharedStatus()
      const fresh = shared !== null && Date.now() - shared.at < leaseMs * 2
      this.#standby = {
        state: fresh ? (shared!.state as IngesterStatus['state']) : 'standby',
        events: 0,
        lastEventAt: shared?.lastEventAt ?? null,
        reconnects: 0,
      }
      if (fresh) this.#settled?.()
    } catch (error) {
      logger.warn({ err: error }, 'launchpad ingester: the lease could not be read')
    }
  }
}
