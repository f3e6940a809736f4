/**
 * The quick scan's grade of many tokens at once, for the feeds: every item that names a token carries
 * it. Grades are coalesced (two feeds asking for one mint share one scan), cached for a minute, and at
 * most a few cold scans run at a time, so a feed of 25 tokens does not cost 25 cold scans at once.
 */
import { beforeDeadline } from '../kernel/deadline.ts'
import type { Logger } from '../kernel/logger.ts'
import type { Sources } from '../facts/index.ts'
import type { DataQuality } from '../facts/data-quality.ts'
import type { Grade } from './grade.ts'
import { QUICK_SCAN_DEADLINE_MS, QUICK_SCAN_POLICY } from './policies.ts'
import type { SignalRegistry } from './registry.ts'
import { scanToken } from './scan-token.ts'

/** What a feed item shows of the token's quick scan (docs/catalogue.md). */
export interface QuickGrade {
  grade: Grade
  score: number
  data_quality: DataQuality
  /** True when the token is a registered issuer asset (its authorities are the issuer's controls). */
  authority_exempt: boolean
  /** The codes of its risk findings, worst first (at most RISKS_SHOWN). */
  risks: string[]
}

/** How long a grade is reused: a minute, or ten seconds when the scan could read too little (LIMITED). */
export const GRADE_TTL_MS = 60_000
const LIMITED_TTL_MS = 10_000
/** Cold scans running at once per process; the rest wait their turn (within their deadline). */
export const COLD_SCANS_AT_ONCE = 4
const RISKS_SHOWN = 5

export class QuickGrades {
  readonly #scope: { sources: Sources; signals: SignalRegistry; logger: Logger }
  readonly #cache = new Map<string, { grade: QuickGrade; until: number }>()
  readonly #inFlight = new Map<string, Promise<QuickGrade | null>>()
  #running = 0
  readonly #queue: (() => void)[] = []
  /** Cold scans run so far (a cache or coalesced hit runs none): what a bench counts. */
  scans = 0

  constructor(sources: Sources, signals: SignalRegistry, logger: Logger) {
    this.#scope = { sources, signals, logger }
  }

  /**
   * The grades of `mints` (null for a mint whose scan did not finish by `deadlineAt`), in order.
   * A scan still running at the deadline keeps running for the next caller, bounded by its own deadline.
   */
  async gradesOf(mints: readonly string[], deadlineAt: number): Promise<(QuickGrade | null)[]> {
    if (deadlineAt <= Date.now()) return mints.map((mint) => this.#cached(mint) ?? null)
    return Promise.all(mints.map((mint) => beforeDeadline(this.gradeOf(mint), deadlineAt).catch(() => null)))
  }

  /** One token's grade: cached, else the scan already running for it, else a new scan (null if it failed). */
  gradeOf(mint: string): Promise<QuickGrade | null> {
    const cached = this.#cached(mint)
    if (cached) return Promise.resolve(cached)
    const running = this.#inFlight.get(mint)
    if (running) return running
    const scan = this.#scan(mint).finally(() => this.#inFlight.delete(mint))
    this.#inFlight.set(mint, scan)
    return scan
  }

  #cached(mint: string): QuickGrade | undefined {
    const entry = this.#cache.get(mint)
    if (!entry) return undefined
    if (entry.until > Date.now()) return entry.grade
    this.#cache.delete(mint)
    return undefined
  }

  async #scan(mint: string): Promise<QuickGrade | null> {
    await this.#turn()
    try {
      this.scans++
      const scan = await scanToken(this.#scope, mint, QUICK_SCAN_POLICY, Date.now() + QUICK_SCAN_DEADLINE_MS)
      const grade: QuickGrade = {
        grade: scan.grade,
        score: scan.score,
        data_quality: scan.quality.data_quality,
        authority_exempt: scan.fields.authority_exempt === true,
        // The deciding findings, in the answers' order: what costs points or holds the grade down (a
        // ceiling of no points, as CORE_NOT_READ's, explains a grade as much as a penalty does).
        risks: scan.factors
          .filter((entry) => entry.impact < 0 || entry.hard_fail || (entry.grade_ceiling ?? 'A') !== 'A')
          .slice(0, RISKS_SHOWN)
          .map((entry) => entry.code),
      }
      const ttl = grade.data_quality === 'LIMITED' ? LIMITED_TTL_MS : GRADE_TTL_MS
      this.#cache.set(mint, { grade, until: Date.now() + ttl })
      return grade
    } catch (error) {
      this.#scope.logger.warn({ err: error, mint }, 'quick grade failed')
      return null
    } finally {
      this.#release()
    }
  }

  #turn(): Promise<void> {
    if (this.#running < COLD_SCANS_AT_ONCE) {
      this.#running++
      return Promise.resolve()
    }
    return new Promise((resolve) => this.#queue.push(resolve))
  }

  #release(): void {
    const next = this.#queue.shift()
    if (next) next()
    else this.#running--
  }
}
