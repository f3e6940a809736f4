import type { Factor } from './signal.ts'

import type { Grade } from '../kernel/vocabulary.ts'

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
/** The rank of the score's band. */
const bandRank = (score: number) => GRADE_BANDS.findIndex((band) => score >= band.min)
/** The rank a factor caps the grade at (a hard fail is a ceiling of F); 0 (A) when it caps nothing. */
const capRank = (entry: Factor) => ORDER.indexOf(entry.hard_fail ? 'F' : (entry.grade_ceiling ?? 'A'))

/**
 * The grade of a score, capped by the findings: the worse of the score's band and the lowest ceiling
 * among the factors. Other findings can never lift a ceiling.
 */
export function gradeOf(score: number, factors: readonly Factor[]): Grade {
  return ORDER[Math.max(bandRank(score), ...factors.map(capRank))]!
}

/** The factors whose ceiling decided the grade (below the score's band). */
export function cappingFactors(score: number, factors: readonly Factor[]): Factor[] {
  const grade = ORDER.indexOf(gradeOf(score, factors))
  return grade > bandRank(score) ? factors.filter((entry) => capRank(entry) === grade) : []
}
