import { defineScanner } from '../../src/core/scanner.ts'
import { QUICK_SCAN_POLICY } from '../../src/pipeline/policies.ts'
import { quickScanAnswer } from './build.ts'
import { manifest } from './manifest.ts'

export { manifest }

/** Spec target: answer within 5 s; the facts stop half a second earlier to leave room to answer. */
export const QUICK_SCAN_DEADLINE_MS = 4_500

/** `POST /scan/quick` (sol_quick_scan, priced in its manifest): structural safety grade. */
export const quickScan = defineScanner({
  manifest,
  route: 'scan',
  policy: QUICK_SCAN_POLICY,
  deadlineMs: QUICK_SCAN_DEADLINE_MS,
  answer: (scan, { mint }) => quickScanAnswer(mint, scan),
})
