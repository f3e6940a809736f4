/**
 * Webhook delivery of watch events (docs/watch.md): at least once, in order per watch, signed. Each
 * watch has one sender in the process: it sends the watch's oldest pending event (src/store/watches.ts
 * `nextPending`) and moves to the next only once that one is delivered (a 2xx) or dead-lettered — after
 * `maxAttempts`, or at once when the receiver answers 410 Gone. Between attempts it waits with
 * exponential backoff and full jitter (a random wait up to base × 2^attempts, capped), so receivers
 * coming back from an outage are not hit by every sender at once. Where an attempt stands is kept in the
 * store, so a restart resumes (`resume`).
 */
import type { Attestor } from '../../src/attest/attestation.ts'
import { watchDeliveries } from '../../src/kernel/metrics.ts'
import type { WatchStore } from '../../src/store/watches.ts'
import type { WatchEvent } from './watch-events.ts'
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from './webhook-signature.ts'

export interface WebhookDeliveryOptions {
  store: WatchStore
  attestor: Attestor
  /**
   * Attempts before an event is dead-lettered.
   * @default 8
   */
  maxAttempts?: number
  /**
   * The first retry's longest wait; each retry doubles it.
   * @default 1000
   */
  baseDelayMs?: number
  /**
   * The longest wait between attempts.
   * @default 300000 (5 minutes)
   */
  maxDelayMs?: number
  /**
   * How long a receiver may take to answer one attempt.
   * @default 10000
   */
  timeoutMs?: number
  /** The jitter's randomness, in [0, 1) (tests pin it). */
  random?: () => number
}

export interface DeliveryCounts {
  delivered: number
  retried: number
  dead: number
  /** Watches whose sender is running now. */
  sending: number
}

export class WebhookDelivery {
  readonly #options: Required<Omit<WebhookDeliveryOptions, 'store' | 'attestor'>> &
    Pick<WebhookDeliveryOptions, 'store' | 'attestor'>
  readonly #senders = new Map<string, Promise<void>>()
  /** Watches asked to send again while their sender was running: it loops once more. */
  readonly #again = new Set<string>()
  readonly #timers = new Set<{ timer: ReturnType<typeof setTimeout>; wake: () => void }>()
  #stopped = false
  readonly counts: DeliveryCounts = { delivered: 0, retried: 0, dead: 0, sending: 0 }

  constructor(options: WebhookDeliveryOptions) {
    const {
      maxAttempts = 8,
      baseDelayMs = 1_000,
      maxDelayMs = 300_000,
      timeoutMs = 10_000,
      random = Math.random,
    } = options
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error('maxAttempts must be a positive integer')
    if (baseDelayMs <= 0 || maxDelayMs < baseDelayMs)
      throw new Error('delays must be positive, maxDelayMs ≥ baseDelayMs')
    this.#options = { ...options, maxAttempts, baseDelayMs, maxDelayMs, timeoutMs, random }
  }

  /** Makes sure the watch's sender runs (after an event was stored for it). */
  kick(watchId: string): void {
    if (this.#stopped) return
    if (this.#senders.has(watchId)) {
      this.#again.add(watchId)
      return
    }
    this.counts.sending++
    const sender = this.#send(watchId).finally(() => {
      this.#senders.delete(watchId)
      this.counts.sending--
      if (this.#again.delete(watchId)) this.kick(watchId)
    })
    this.#senders.set(watchId, sender)
  }

  /** Starts a sender for every watch with a delivery pending in the store (after a restart). */
  async resume(): Promise<void> {
    for (const watchId of await this.#options.store.pendingWatches()) this.kick(watchId)
  }

  /** Resolves once no sender runs (tests, a draining instance). */
  async idle(): Promise<void> {
    while (this.#senders.size > 0) await Promise.all([...this.#senders.values()])
  }

  /** Stops sending: waits are cut short, attempts in flight finish, what is pending stays in the store. */
  async stop(): Promise<void> {
    this.#stopped = true
    for (const entry of this.#timers) {
      clearTimeout(entry.timer)
      entry.wake()
    }
    await Promise.all([...this.#senders.values()])
  }

  /** The full-jitter wait before attempt `attempts + 1`: uniform in [0, min(max, base × 2^attempts)). */
  backoffMs(attempts: number): number {
    const { baseDelayMs, maxDelayMs, random } = this.#options
    return Math.floor(random() * Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempts - 1)))
  }

  async #send(watchId: string): Promise<void> {
    const { store } = this.#options
    const watch = await store.get(watchId)
    while (!this.#stopped) {
      const next = await store.nextPending<WatchEvent>(watchId)
      if (!next) return
      const wait = (next.delivery.nextAttemptAt ?? 0) - Date.now()
      if (wait > 0) {
        await this.#sleep(wait)
        continue
      }
      const url = watch?.webhookUrl
      const failure = url
        ? await this.#attempt(url, watchId, next.event)
        : { error: 'the watch has no webhook', gone: true }
      const attempts = next.delivery.attempts + 1
      if (failure === undefined) {
        if (await store.recordAttempt(watchId, next.seq, { outcome: 'delivered' })) {
          this.counts.delivered++
          watchDeliveries.inc({ outcome: 'delivered' })
        }
      } else if (failure.gone || attempts >= this.#options.maxAttempts) {
        if (await store.recordAttempt(watchId, next.seq, { outcome: 'dead', error: failure.error })) {
          this.counts.dead++
          watchDeliveries.inc({ outcome: 'dead' })
        }
      } else {
        const nextAttemptAt = Date.now() + this.backoffMs(attempts)
        if (await store.recordAttempt(watchId, next.seq, { outcome: 'retry', error: failure.error, nextAttemptAt })) {
          this.counts.retried++
          watchDeliveries.inc({ outcome: 'retry' })
        }
      }
    }
  }

  /** One POST of the event; undefined when the receiver took it, else why not (and whether to stop trying). */
  async #attempt(
    url: string,
    watchId: string,
    event: WatchEvent,
  ): Promise<{ error: string; gone: boolean } | undefined> {
    const body = JSON.stringify(event)
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [WEBHOOK_SIGNATURE_HEADER]: signWebhook(this.#options.attestor, watchId, body, Math.floor(Date.now() / 1000)),
          'X-Solsentry-Event-Id': event.event_id,
          'X-Solsentry-Watch-Id': watchId,
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.#options.timeoutMs),
      })
      await response.body?.cancel().catch(() => {})
      if (response.status >= 200 && response.status < 300) return undefined
      // 410 Gone: the receiver says it will never take this watch's alerts; retrying only adds load.
      return { error: `HTTP ${response.status}`, gone: response.status === 410 }
    } catch (error) {
      const name = (error as Error).name
      return {
        error: name === 'TimeoutError' ? `no answer within ${this.#options.timeoutMs} ms` : (error as Error).message,
        gone: false,
      }
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.#timers.delete(entry)
          resolve()
        }, ms),
        wake: resolve,
      }
      this.#timers.add(entry)
    })
  }
}
