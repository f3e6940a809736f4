import { defineRoute } from '../../src/http/define-route.ts'
import { manifest } from './manifest.ts'
import { batchAnswer } from './service.ts'

export { manifest }

/** `POST /scan/quick/batch` (sol_quick_scan_batch): the quick scan of many tokens, one payment. */
export const quickScanBatchPlugin = defineRoute(manifest, {
  batch: (ctx, { body, deadline }) => batchAnswer(ctx, body, deadline),
})
