import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { routeOptions } from '../../src/core/route-options.ts'
import { paid } from '../../src/payments/paid.ts'
import { createTokenContext } from '../../src/facts/index.ts'
import { runScan, type ScanPolicy } from '../../src/pipeline/scan.ts'
import { marketIntelAnswer } from './build.ts'
import { manifest } from './manifest.ts'

export { manifest }

/** Spec target: answer within 10 s; the facts stop half a second earlier to leave room to answer. */
export const MARKET_INTEL_DEADLINE_MS = 9_500

/**
 * Core: the market (price, changes, volume, liquidity, counts), without which there is no signal.
 * Optional: the main pool's trades (15-minute change, all-time high, value-weighted pressure, large
 * trades, last trade) and the pools (the decimals of an uncommon quote token, to value trades in USD).
 * Nothing structural: authorities and holders are the quick scan's (spec §1 rule 5).
 */
export const MARKET_INTEL_POLICY: ScanPolicy = {
  scanner: 'market_intel',
  facts: { core: ['market'], optional: ['trades', 'pools'] },
}

/** `POST /market/intel` (sol_market_intel, 0.20 USD): market signal. */
export function marketIntel(ctx: ServiceContext) {
  ctx.registry.register(manifest)
  const { intel } = manifest.routes
  const charge = paid(ctx, intel)
  return new Elysia({ name: 'plugin:market-intel' }).post(
    intel.path,
    async function marketIntelRoute(context) {
      const { body } = context
      // The deadline runs from the request's arrival: time spent verifying the payment is the route's too.
      const deadlineAt = Date.now() + MARKET_INTEL_DEADLINE_MS
      return charge(context, async () => {
        const facts = createTokenContext(body.token_address, ctx.sources, deadlineAt)
        try {
          return marketIntelAnswer(await runScan(facts, ctx.signals, MARKET_INTEL_POLICY), MARKET_INTEL_POLICY.facts, body.token_address)
        } finally {
          facts.close(ctx.logger)
        }
      })
    },
    routeOptions(ctx, intel),
  )
}
