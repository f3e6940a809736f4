import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { routeOptions } from '../../src/core/route-options.ts'
import { paid } from '../../src/payments/paid.ts'
import { createTokenContext } from '../../src/facts/index.ts'
import { runScan, type ScanPolicy } from '../../src/pipeline/scan.ts'
import { deepDiveAnswer } from './build.ts'
import { manifest } from './manifest.ts'

export { manifest }

/** Spec target: answer within 30 s; the facts stop a second earlier to leave room to answer. */
export const DEEP_DIVE_DEADLINE_MS = 29_000

/**
 * Core facts: without them the deep dive cannot answer its own question (what the token is, who holds
 * it, where it trades, who made it and what that wallet did before) and the answer is LIMITED.
 * Optional facts refine it; without them the fields they feed are left out (docs/scoring/deep-dive.md).
 */
export const DEEP_DIVE_POLICY: ScanPolicy = {
  scanner: 'deep_dive',
  facts: {
    core: ['mint', 'holders', 'market', 'launch', 'dev_history'],
    optional: ['metadata', 'token_list', 'pools', 'launchpad', 'funding', 'trades', 'lp_locks'],
  },
}

/** `POST /scan/deep` (sol_deep_dive, 0.50 USD): adversarial deep dive with a recommendation. */
export function deepDive(ctx: ServiceContext) {
  ctx.registry.register(manifest)
  const { scan } = manifest.routes
  const charge = paid(ctx, scan)
  return new Elysia({ name: 'plugin:deep-dive' }).post(
    scan.path,
    async function deepDiveRoute(context) {
      const { body } = context
      // The deadline runs from the request's arrival: time spent verifying the payment is the route's too.
      const deadlineAt = Date.now() + DEEP_DIVE_DEADLINE_MS
      return charge(context, async () => {
        const facts = createTokenContext(body.token_address, ctx.sources, deadlineAt)
        try {
          return deepDiveAnswer(body.token_address, await runScan(facts, ctx.signals, DEEP_DIVE_POLICY), DEEP_DIVE_POLICY.facts)
        } finally {
          facts.close(ctx.logger)
        }
      })
    },
    routeOptions(ctx, scan),
  )
}
