import { createHash } from 'node:crypto'
import type { Chain } from '../chain/chain.ts'

interface TimedStep {
  atUnixS: number
  order: number
  label: string
  run: () => Promise<void>
}

/**
 * Steps of every scenario on one clock. Scenarios schedule what happens when (mints days ago,
 * trades spread over the last hours); the timeline plays all steps in time order, moving the chain's
 * clock to each step's time, so slots, block times and history come out as a cluster would have
 * produced them. Steps at the same time keep the order they were scheduled in.
 */
export class Timeline {
  readonly #steps: TimedStep[] = []

  at(atUnixS: number, label: string, run: () => Promise<void>): void {
    this.#steps.push({ atUnixS, order: this.#steps.length, label, run })
  }

  get size(): number {
    return this.#steps.length
  }

  async play(chain: Chain): Promise<void> {
    const steps = [...this.#steps].sort((a, b) => a.atUnixS - b.atUnixS || a.order - b.order)
    for (const step of steps) {
      if (step.atUnixS > chain.unixS) chain.advanceTo(step.atUnixS)
      try {
        await step.run()
      } catch (error) {
        throw new Error(`scenario step "${step.label}" failed: ${(error as Error).message}`, { cause: error })
      }
    }
  }
}

/**
 * A deterministic pseudo-random source (mulberry32) seeded from a name, so a scenario's trade sizes and
 * timings are the same on every boot.
 */
export class Random {
  #state: number

  constructor(seed: string) {
    this.#state = createHash('sha256').update(seed).digest().readUInt32LE(0)
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0
    let t = this.#state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** A float in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next()
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return Math.floor(this.between(min, max + 1))
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!
  }
}

export const MINUTE = 60
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR
