/** What a real call found: the dependency answered (`ok`), answered in part or slowly (`degraded`), or not (`down`). */
export type ProbedState = 'ok' | 'degraded' | 'down'

/** What /health says of a dependency: `unknown` until it has been probed or seen answering, then what was found. */
export type ComponentState = 'unknown' | ProbedState

/** What /health says of the service as a whole (docs/operations.md, "Health"). */
export type OverallState = 'ok' | 'unknown' | 'degraded' | 'down'

/** One probe's finding, with what it saw in words (`getSlot answered 312 000 117`, `HTTP 401`). */
export interface ProbeResult {
  state: ProbedState
  detail: string
}

/** One cheap real call to a dependency; must not throw (a failure is a `down` result). */
export type Probe = (signal: AbortSignal) => Promise<ProbeResult>

/** A dependency as the board knows it. */
export interface HealthComponent {
  /**
   * What the component knows without a call: its breakers and last answers from live traffic
   * (`unknown` when it has seen none), or a local check as cheap as a store's ping.
   */
  observe?: () => ComponentState | Promise<ComponentState>
  /** One cheap real call, run on the board's schedule (and by `solsentry doctor`). */
  probe?: Probe
  /** The least time between two probes, for a provider whose limits want a longer interval than the board's. */
  minIntervalMs?: number
  /** Not counted when the board judges whether every dependency is down (the store, a cache). */
  local?: boolean
}

/** One reading of the board: every component's state and what they make together. */
export interface HealthReading {
  status: OverallState
  components: Record<string, ComponentState>
  /** The last probe's words per probed component (what the doctor prints, what the logs say). */
  details: Record<string, string>
}

/** A probe that has not answered in this long is `down` (a probe does one call, retries included). */
export const PROBE_TIMEOUT_MS = 10_000

const RANK: Record<ComponentState, number> = { unknown: 0, ok: 1, degraded: 2, down: 3 }

/**
 * The health board: each dependency (the store, each upstream source, the facilitator) registers what
 * it observes from live traffic and a probe — one cheap real call. `start` runs every probe at once,
 * then each again every interval; `GET /health` reads the board. A dependency is `unknown` until it has
 * been probed or seen answering; afterwards the worse of its last probe and its live traffic (an open
 * breaker is `down` at once; a probe's finding stands until the next probe).
 */
export class HealthBoard {
  readonly #components = new Map<string, HealthComponent>()
  readonly #probed = new Map<string, ProbeResult>()
  readonly #maxAgeMs: number
  readonly #timers = new Set<ReturnType<typeof setTimeout>>()
  #running = false
  #last: { at: number; value: Promise<HealthReading> } | undefined

  /** `maxAgeMs`: how long a reading is answered again (a busy /health asks the store once per second, not per request). */
  constructor(maxAgeMs = 1_000) {
    this.#maxAgeMs = maxAgeMs
  }

  register(name: string, component: HealthComponent): void {
    if (this.#components.has(name)) throw new Error(`health component ${name} is registered twice`)
    this.#components.set(name, component)
  }

  /** The registered components' names, in the order they registered. */
  get names(): string[] {
    return [...this.#components.keys()]
  }

  /** Whether `name` has a probe (others are known from live traffic only). */
  probes(name: string): boolean {
    return this.#components.get(name)?.probe !== undefined
  }

  read(nowMs = Date.now()): Promise<HealthReading> {
    if (this.#last && nowMs - this.#last.at < this.#maxAgeMs) return this.#last.value
    const value = this.#read()
    this.#last = { at: nowMs, value }
    return value
  }

  /**
   * Runs one component's probe now (bounded by PROBE_TIMEOUT_MS, never throws) and keeps its finding:
   * what the schedule runs, and what `solsentry doctor` runs once for each component.
   */
  async probe(name: string): Promise<ProbeResult | undefined> {
    const probe = this.#components.get(name)?.probe
    if (!probe) return undefined
    const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS)
    let result: ProbeResult
    try {
      result = await Promise.race([
        probe(signal),
        new Promise<ProbeResult>((resolve) =>
          signal.addEventListener('abort', () =>
            resolve({ state: 'down', detail: `no answer within ${PROBE_TIMEOUT_MS / 1000} s` }),
          ),
        ),
      ])
    } catch (error) {
      result = { state: 'down', detail: (error as Error)?.message ?? String(error) }
    }
    this.#probed.set(name, result)
    this.#last = undefined
    return result
  }

  /**
   * Probes every component at once, then each again `intervalMs` after its last probe ended (or its own
   * `minIntervalMs`, when longer). Timers do not keep the process alive; `stop` ends them.
   */
  start(intervalMs: number): void {
    if (this.#running) return
    this.#running = true
    for (const [name, component] of this.#components) {
      if (!component.probe) continue
      const every = Math.max(intervalMs, component.minIntervalMs ?? 0)
      const run = async () => {
        await this.probe(name)
        if (!this.#running) return
        const timer = setTimeout(() => {
          this.#timers.delete(timer)
          void run()
        }, every)
        timer.unref?.()
        this.#timers.add(timer)
      }
      void run()
    }
  }

  stop(): void {
    this.#running = false
    for (const timer of this.#timers) clearTimeout(timer)
    this.#timers.clear()
  }

  async #read(): Promise<HealthReading> {
    const entries = await Promise.all(
      [...this.#components].map(async ([name, component]): Promise<[string, ComponentState]> => {
        let observed: ComponentState = 'unknown'
        try {
          observed = component.observe ? await component.observe() : 'unknown'
        } catch {
          observed = 'down'
        }
        const probed = this.#probed.get(name)?.state ?? 'unknown'
        return [name, RANK[probed] >= RANK[observed] ? probed : observed]
      }),
    )
    const components = Object.fromEntries(entries)
    const details = Object.fromEntries([...this.#probed].map(([name, result]) => [name, result.detail]))
    return { status: this.#overall(components), components, details }
  }

  /**
   * `down` when a local component (the store) is down or every remote dependency known is (the service
   * can answer nothing that needs one); `degraded` when any is degraded or down; `unknown` while a probed
   * dependency has not been probed yet and none fails; `ok` otherwise. A dependency without a probe
   * (known from live traffic only) does not hold the whole at `unknown`.
   */
  #overall(components: Record<string, ComponentState>): OverallState {
    const states = Object.entries(components).map(([name, state]) => ({ state, ...this.#components.get(name) }))
    const remote = states.filter((entry) => !entry.local && entry.state !== 'unknown')
    if (
      states.some((entry) => entry.local && entry.state === 'down') ||
      (remote.length > 0 && remote.every((entry) => entry.state === 'down'))
    )
      return 'down'
    if (states.some((entry) => entry.state === 'down' || entry.state === 'degraded')) return 'degraded'
    if (states.some((entry) => entry.state === 'unknown' && entry.probe)) return 'unknown'
    return 'ok'
  }
}
