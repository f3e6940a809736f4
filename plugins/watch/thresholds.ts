/**
 * The thresholds of the position guard's events: each with a name, a unit, a default, the bounds a watch
 * may set it within, and why (docs/watch.md reads this table).
 */
export interface ThresholdSpec {
  unit: 'percent' | 'seconds' | 'hours' | 'basis_points'
  default: number
  min: number
  max: number
  why: string
}

export const THRESHOLDS = {
  liquidity_removed_pct: {
    unit: 'percent',
    default: 30,
    min: 5,
    max: 95,
    why: 'A pool losing 30% of its quote side without a matching sell is a withdrawal a holder feels at once (the price impact of the same sale grows by half); smaller moves are ordinary LP rebalancing',
  },
  liquidity_window_s: {
    unit: 'seconds',
    default: 600,
    min: 60,
    max: 86_400,
    why: 'A rug split over several transactions is one rug: the removals within ten minutes are added up',
  },
  insider_selling_pct: {
    unit: 'percent',
    default: 20,
    min: 1,
    max: 100,
    why: 'A developer or top holder parting with a fifth of its holding is selling into its buyers, not rebalancing; counted in one transaction or within the liquidity window',
  },
  lock_expiring_hours: {
    unit: 'hours',
    default: 24,
    min: 1,
    max: 720,
    why: 'A day is time to leave before the LP can be withdrawn; a holder with a longer horizon asks for more',
  },
  transfer_fee_critical_bps: {
    unit: 'basis_points',
    default: 1_000,
    min: 1,
    max: 10_000,
    why: 'A transfer fee of 10% or more makes a sale lose a tenth on the way out: critical rather than high',
  },
} as const satisfies Record<string, ThresholdSpec>

export type ThresholdName = keyof typeof THRESHOLDS
export type Thresholds = Record<ThresholdName, number>

export const DEFAULT_THRESHOLDS: Thresholds = Object.fromEntries(
  Object.entries(THRESHOLDS).map(([name, spec]) => [name, spec.default]),
) as Thresholds

/** A watch's overrides merged over the defaults, or why one is refused (unknown name, out of bounds). */
export function resolveThresholds(
  overrides: Record<string, unknown> = {},
): { ok: true; thresholds: Thresholds } | { ok: false; reason: string } {
  const thresholds = { ...DEFAULT_THRESHOLDS }
  for (const [name, value] of Object.entries(overrides)) {
    const spec = (THRESHOLDS as Record<string, ThresholdSpec>)[name]
    if (!spec) return { ok: false, reason: `unknown threshold ${name}; known: ${Object.keys(THRESHOLDS).join(', ')}` }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < spec.min || value > spec.max)
      return { ok: false, reason: `${name} must be a number from ${spec.min} to ${spec.max} (${spec.unit})` }
    thresholds[name as ThresholdName] = value
  }
  return { ok: true, thresholds }
}
