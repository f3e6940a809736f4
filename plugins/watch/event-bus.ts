/**
 * The in-process bus of watch events: the engine publishes each new event once it is stored; the SSE
 * stream (GET /watch/:id/events) and the MCP notifications subscribe to a watch, or to every watch.
 * A listener that throws is dropped from that event alone (logged by the caller's wrapper), never
 * stopping the others.
 */
import type { WatchEvent } from './watch-events.ts'

export type WatchEventListener = (event: WatchEvent, seq: number) => void

export class WatchEventBus {
  readonly #byWatch = new Map<string, Set<WatchEventListener>>()
  readonly #all = new Set<WatchEventListener>()

  /** Listens to one watch's events (`watchId`) or to all (`'*'`); answers how to stop. */
  subscribe(watchId: string, listener: WatchEventListener): () => void {
    const set = watchId === '*' ? this.#all : (this.#byWatch.get(watchId) ?? new Set())
    if (watchId !== '*') this.#byWatch.set(watchId, set)
    set.add(listener)
    return () => {
      set.delete(listener)
      if (watchId !== '*' && set.size === 0) this.#byWatch.delete(watchId)
    }
  }

  publish(event: WatchEvent, seq: number): void {
    for (const listener of [...(this.#byWatch.get(event.watch_id) ?? []), ...this.#all]) {
      try {
        listener(event, seq)
      } catch {
        // One listener's failure is its own: the stream it feeds reconnects and resumes from the store.
      }
    }
  }

  /** Listeners now (for /metrics). */
  get listeners(): number {
    let count = this.#all.size
    for (const set of this.#byWatch.values()) count += set.size
    return count
  }
}
