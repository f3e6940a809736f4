import { defineScanner } from '../../src/http/define-scanner.ts'
import { QUICK_SCAN_DEADLINE_MS, QUICK_SCAN_POLICY } from '../../src/pipeline/policies.ts'
import { quickScanAnswer } from './service.ts'
import { manifest } from './manifest.ts'

export { manifest, QUICK_SCAN_DEADLINE_MS }

/** `POST /scan/quick` (sol_quick_scan, priced in its manifest): structural safety grade. */
export const quickScan = defineScanner({
  manifest,
  route: 'scan',
  policy: QUICK_SCAN_POLICY,
  deadlineMs: QUICK_SCAN_DEADLINE_MS,
  answer: (scan, { mint }) => quickScanAnswer(mint, scan),
})
