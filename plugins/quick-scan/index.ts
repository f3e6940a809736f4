import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { routeOptions } from '../../src/core/route-options.ts'
import { paid } from '../../src/payments/paid.ts'
import { createTokenContext } from '../../src/facts/index.ts'
import { runScan, type ScanPolicy } from '../../src/pipeline/scan.ts'
import { quickScanAnswer } from './build.ts'
import { manifest } from './manifest.ts'

export { manifest }

/** Spec target: answer within 5 s; the facts stop half a second earlier to leave room to answer. */
export const QUICK_SCAN_DEADLINE_MS = 4_500

/** Core facts decide the grade; without them the answer is LIMITED (docs/data-quality.md). */
export const QUICK_SCAN_POLICY: ScanPolicy = {
  scanner: 'quick_scan',
  facts: { core: ['mint', 'holders', 'market'], optional: ['metadata', 'token_list', 'pools', 'launchpad'] },
}

/** `POST /scan/quick` (sol_quick_scan, 0.02 USD): structural safety grade. */
export function quickScan(ctx: ServiceContext) {
  ctx.registry.register(manifest)
  const { scan } = manifest.routes
  const charge = paid(ctx, scan)
  return new Elysia({ name: 'plugin:quick-scan' }).post(
    scan.path,
    async function quickScanRoute(context) {
      const { body } = context
      // The deadline runs from the request's arrival: time spent verifying the payment is the route's too.
      const deadlineAt = Date.now() + QUICK_SCAN_DEADLINE_MS
      return charge(context, async () => {
        const facts = createTokenContext(body.token_address, ctx.sources, deadlineAt)
        try {
          return quickScanAnswer(body.token_address, await runScan(facts, ctx.signals, QUICK_SCAN_POLICY))
        } finally {
          facts.close(ctx.logger)
        }
      })
    },
    routeOptions(ctx, scan),
  )
}
