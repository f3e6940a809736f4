/** What a dependency reports about itself. */
export type ComponentState = 'ok' | 'degraded' | 'down'

/** One reading of the board: every component's state and what they make together. */
export interface HealthReading {
  status: ComponentState
  components: Record<string, ComponentState>
}

export type HealthProbe = () => ComponentState | Promise<ComponentState>

/**
 * The health board: each dependency (store, and each upstream source as it lands) registers a probe;
 * `GET /health` reads them all. A probe must answer fast: it reports state the component already
 * tracks (circuit breaker, last error), it does not call upstreams.
 */
export class HealthBoard {
  readonly #probes = new Map<string, HealthProbe>()
  readonly #maxAgeMs: number
  #last: { at: number; value: Promise<HealthReading> } | undefined

  /** `maxAgeMs`: how long a reading is answered again (a busy /health asks the store once per second, not per request). */
  constructor(maxAgeMs = 1_000) {
    this.#maxAgeMs = maxAgeMs
  }

  register(name: string, probe: HealthProbe): void {
    if (this.#probes.has(name)) throw new Error(`health probe ${name} is registered twice`)
    this.#probes.set(name, probe)
  }

  read(nowMs = Date.now()): Promise<HealthReading> {
    if (this.#last && nowMs - this.#last.at < this.#maxAgeMs) return this.#last.value
    const value = this.#probe()
    this.#last = { at: nowMs, value }
    return value
  }

  async #probe(): Promise<HealthReading> {
    const entries = await Promise.all(
      [...this.#probes].map(async ([name, probe]): Promise<[string, ComponentState]> => {
        try {
          return [name, await probe()]
        } catch {
          return [name, 'down']
        }
      }),
    )
    const components = Object.fromEntries(entries)
    const states = Object.values(components)
    const status: ComponentState = states.every((state) => state === 'ok') ? 'ok' : 'degraded'
    return { status, components }
  }
}
