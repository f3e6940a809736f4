import { defineScanner } from '../../src/http/define-scanner.ts'
import { DEEP_DIVE_POLICY } from '../../src/pipeline/policies.ts'
import { deepDiveAnswer } from './service.ts'
import { manifest } from './manifest.ts'

export { manifest }

/** Spec target: answer within 30 s; the facts stop a second earlier to leave room to answer. */
export const DEEP_DIVE_DEADLINE_MS = 29_000

/** `POST /scan/deep` (sol_deep_dive, priced in its manifest): adversarial deep dive with a recommendation. */
export const deepDive = defineScanner({
  manifest,
  route: 'scan',
  policy: DEEP_DIVE_POLICY,
  deadlineMs: DEEP_DIVE_DEADLINE_MS,
  answer: (scan, { mint }) => deepDiveAnswer(mint, scan),
})
