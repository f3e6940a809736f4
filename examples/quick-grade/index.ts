import { defineRoute } from '../../src/http/define-route.ts'
import { manifest } from './manifest.ts'
import { QUICK_GRADE_POLICY, quickGradeAnswer } from './service.ts'

export { manifest }

/** `POST /example/quick-grade`: the quick scan's grade, in brief. */
export const quickGradePlugin = defineRoute(manifest, {
  grade: { policy: QUICK_GRADE_POLICY, answer: (scan, { mint }) => quickGradeAnswer(mint, scan) },
})
