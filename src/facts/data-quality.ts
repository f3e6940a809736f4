import type { FactName } from './types.ts'

/** Which facts a scanner asks for, and which of them it cannot grade without. */
export interface FactPolicy {
  core: readonly FactName[]
  optional: readonly FactName[]
}

import type { DataConfidence, DataQuality } from '../kernel/vocabulary.ts'

export type { DataConfidence, DataQuality }

export interface QualityAssessment {
  data_quality: DataQuality
  data_confidence: DataConfidence
  /** The facts the scanner asked for that could not be gathered, in policy order. */
  missing_fields: FactName[]
  /** Share of the requested facts gathered, 0–1 (the envelope's `confidence.data_completeness`). */
  completeness: number
}

/**
 * The envelope's data quality, the same way for every scanner (docs/data-quality.md): FULL when every
 * requested fact is present, LIMITED when a core fact is missing, PARTIAL when only optional facts
 * are; confidence HIGH, LOW and MEDIUM respectively.
 */
export function assessDataQuality(policy: FactPolicy, missing: readonly FactName[]): QualityAssessment {
  const requested = [...policy.core, ...policy.optional]
  const lost = new Set(missing)
  const missing_fields = requested.filter((name) => lost.has(name))
  const coreMissing = policy.core.some((name) => lost.has(name))
  const data_quality: DataQuality = missing_fields.length === 0 ? 'FULL' : coreMissing ? 'LIMITED' : 'PARTIAL'
  const data_confidence: DataConfidence =
    data_quality === 'FULL' ? 'HIGH' : data_quality === 'PARTIAL' ? 'MEDIUM' : 'LOW'
  const completeness =
    requested.length === 0 ? 1 : Math.round(((requested.length - missing_fields.length) / requested.length) * 100) / 100
  return { data_quality, data_confidence, missing_fields, completeness }
}
