import type { Factor } from './signal.ts'

import type { Grade } from './vocabulary.ts'

export type { Grade }

/**
 * Score bands (docs/scoring.md): a token starts at 100 and each risk takes its points off. The bands
 * follow the published reference scoring of the service this spec describes, so grades are comparable.
 */
export const GRADE_BANDS: readonly { grade: Grade; min: number }[] = [
  { grade: 'A', min: 80 },
  { grade: 'B', min: 60 },
  { grade: 'C', min: 40 },
  { grade: 'D', min: 20 },
  { grade: 'F', min: 0 },
]

export const START_SCORE = 100

/** The score (0–100) after every factor's points. */
export function scoreOf(factors: readonly Factor[]): number {
  const total = factors.reduce((sum, entry) => sum + entry.impact, START_SCORE)
  return Math.max(0, Math.min(START_SCORE, total))
}

/** The grade of a score; any hard-fail factor makes it F. */
export function gradeOf(score: number, factors: readonly Factor[]): Grade {
  if (factors.some((entry) => entry.hard_fail)) return 'F'
  return GRADE_BANDS.find((band) => score >= band.min)!.grade
}
