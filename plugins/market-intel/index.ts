import { defineRoute } from '../../src/http/define-route.ts'
import { MARKET_INTEL_POLICY } from '../../src/pipeline/policies.ts'
import { marketIntelAnswer } from './service.ts'
import { manifest } from './manifest.ts'

export { manifest }

/** `POST /market/intel` (sol_market_intel): market signal. */
export const marketIntelPlugin = defineRoute(manifest, {
  intel: { policy: MARKET_INTEL_POLICY, answer: (scan, { mint }) => marketIntelAnswer(scan, mint) },
})
