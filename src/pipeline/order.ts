import type { Factor } from './signal.ts'
import { GRADES, SEVERITIES } from '../kernel/vocabulary.ts'

/**
 * The order of every answer's `factors` (docs/scoring.md, "Order of findings"): the findings that decide
 * the verdict first, so a reader who stops after three lines has read them. Hard fails first; then
 * grade ceilings, the lowest ceiling first; then severity, critical to info; then impact, the largest
 * first. Equal findings keep the order the signals raised them in (the sort is stable).
 */
export function compareFactors(a: Factor, b: Factor): number {
  return (
    Number(b.hard_fail) - Number(a.hard_fail) ||
    ceilingRank(b) - ceilingRank(a) ||
    SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
    Math.abs(b.impact) - Math.abs(a.impact)
  )
}

/** A finding's ceiling as a rank: F is the highest; 0 when it caps nothing (an A ceiling caps nothing either). */
const ceilingRank = (entry: Factor) => (entry.grade_ceiling === null ? 0 : GRADES.indexOf(entry.grade_ceiling))

/** `factors` in the answers' order (a new array; the input is left as it is). */
export function orderFactors<T extends Factor>(factors: readonly T[]): T[] {
  return [...factors].sort(compareFactors)
}
