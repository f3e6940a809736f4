import { defineRoute } from '../../src/http/define-route.ts'
import { QUICK_SCAN_POLICY } from '../../src/pipeline/policies.ts'
import { quickScanAnswer } from './service.ts'
import { manifest } from './manifest.ts'

export { manifest }

/** `POST /scan/quick` (sol_quick_scan): structural safety grade. */
export const quickScanPlugin = defineRoute(manifest, {
  scan: { policy: QUICK_SCAN_POLICY, answer: (scan, { mint }) => quickScanAnswer(mint, scan) },
})
