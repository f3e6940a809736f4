import { defineRoute } from '../../src/http/define-route.ts'
import { DEEP_DIVE_POLICY } from '../../src/pipeline/policies.ts'
import { deepDiveAnswer } from './service.ts'
import { manifest } from './manifest.ts'

export { manifest }

/** `POST /scan/deep` (sol_deep_dive): adversarial deep dive with a recommendation. */
export const deepDivePlugin = defineRoute(manifest, {
  scan: { policy: DEEP_DIVE_POLICY, answer: (scan, { mint }) => deepDiveAnswer(mint, scan) },
})
