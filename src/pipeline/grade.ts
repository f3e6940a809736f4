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

/** Best first: a grade's index is its rank (lower is better). */
const ORDER: readonly Grade[] = GRADE_BANDS.map((band) => band.grade)

/**
 * The grade of a score, capped by the findings: the worse of the score's band and the lowest ceiling
 * among the factors (a hard fail is a ceiling of F). Other findings can never lift a ceiling.
 */
export function gradeOf(score: number, factors: readonly Factor[]): Grade {
  let worst = ORDER.indexOf(GRADE_BANDS.find((band) => score >= band.min)!.grade)
  for (const entry of factors) {
    const cap = entry.hard_fail ? 'F' : entry.grade_ceiling
    if (cap) worst = Math.max(worst, ORDER.indexOf(cap))
  }
  return ORDER[worst]!
}

/** The factors whose ceiling decided the grade (below the score's band), worst first. */
export function cappingFactors(score: number, factors: readonly Factor[]): Factor[] {
  const band = ORDER.indexOf(GRADE_BANDS.find((entry) => score >= entry.min)!.grade)
  const grade = ORDER.indexOf(gradeOf(score, factors))
  if (grade <= band) return []
  return factors.filter((entry) => ORDER.indexOf(entry.hard_fail ? 'F' : (entry.grade_ceiling ?? 'A')) === grade)
}
