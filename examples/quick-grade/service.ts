import type { ScanPolicy, ScanResult } from '../../src/pipeline/scan.ts'

/** What it gathers and grades: the quick scan's signals; without the mint the answer is LIMITED. */
export const QUICK_GRADE_POLICY: ScanPolicy = {
  scanner: 'quick_scan',
  facts: { core: ['mint'], optional: ['holders', 'market'] },
}

/** The answer from the scan (the core stamps schema_version). */
export function quickGradeAnswer(mint: string, scan: ScanResult) {
  return { token_address: mint, grade: scan.grade, score: scan.score, data_quality: scan.quality.data_quality }
}
