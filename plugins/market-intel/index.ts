import { defineScanner } from '../../src/http/define-scanner.ts'
import { MARKET_INTEL_POLICY } from '../../src/pipeline/policies.ts'
import { marketIntelAnswer } from './service.ts'
import { manifest } from './manifest.ts'

export { manifest }

/** Spec target: answer within 10 s; the facts stop half a second earlier to leave room to answer. */
export const MARKET_INTEL_DEADLINE_MS = 9_500

/** `POST /market/intel` (sol_market_intel, priced in its manifest): market signal. */
export const marketIntel = defineScanner({
  manifest,
  route: 'intel',
  policy: MARKET_INTEL_POLICY,
  deadlineMs: MARKET_INTEL_DEADLINE_MS,
  answer: (scan, { mint }) => marketIntelAnswer(scan, mint),
})
