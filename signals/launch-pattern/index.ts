import { Type } from '@sinclair/typebox'
import { defineSignal, finding, missingOf, ok, signalMeta, unknownOutcome } from '../../src/pipeline/signal.ts'
import { linkWallets } from '../../src/pipeline/derive/wallet-links.ts'
import { openingBuys, poolUnknown, POOL_FACTS, supplyPct } from '../../src/pipeline/derive/opening.ts'

const meta = signalMeta({
  id: 'launch-pattern',
  riskGroup: 'behavioral_risk',
  version: '1.0.0',
  title: 'Launch pattern',
  risk: 'Insiders (the developer or wallets it funded) bought before the public could see the pool: a stealth launch.',
  why: 'In a fair launch everyone meets the same price at the same time; in a stealth launch insiders are already holding cheap supply when buyers arrive.',
  scanners: ['deep_dive'],
  facts: ['launch', 'funding', 'mint', ...POOL_FACTS],
  impact: 'informational',
  confidence: 'medium',
  options: Type.Object({ windowSlots: Type.Integer({ minimum: 0 }), devBuyPct: Type.Number({ minimum: 0 }) }),
  // The opening slot and the three after it (~1.6 s) are before anyone can react; a developer's own
  // opening buy is normal (pump.fun's create-and-buy) up to a tenth of the supply.
  defaults: { windowSlots: 3, devBuyPct: 10 },
  findings: {
    STEALTH_LAUNCH: {
      severity: 'info',
      points: 0,
      when: 'insiders bought in the launch window (the opening slot and `windowSlots` after it)',
      why: "The penalties are the bundle and clustering signals'",
    },
    FAIR_LAUNCH: {
      severity: 'info',
      points: 0,
      when: "the window's buyers are unlinked and the dev bought ≤ `devBuyPct`",
    },
  },
})

export default defineSignal({
  meta,
  detect(facts, options) {
    const missing = missingOf(facts, ['launch', 'funding', 'mint'])
    if (missing.length > 0) return unknownOutcome(meta, missing, { launch_pattern: 'UNKNOWN' })
    const launch = facts.get('launch')!
    const poolMissing = poolUnknown(facts, launch.mainPool)
    if (poolMissing.length > 0) return unknownOutcome(meta, poolMissing, { launch_pattern: 'UNKNOWN' })
    // Never traded, or an opening beyond the history read: no pattern to describe.
    if (launch.mainPool === null || launch.poolOpenedSlot === null) return ok([], { launch_pattern: 'UNKNOWN' })
    const links = linkWallets(facts.get('funding')!, launch.creator)
    const early = openingBuys(launch, options.windowSlots)
    const insiders = early.filter((trade) => links.linked.has(trade.wallet) || links.creatorLinked.has(trade.wallet))
    const devPct = supplyPct(
      early.filter((trade) => trade.wallet === launch.creator),
      facts.get('mint')!.supply,
    )
    const insiderPct = supplyPct(insiders, facts.get('mint')!.supply)
    const evidence = {
      window_slots: options.windowSlots,
      insider_buyers: [...new Set(insiders.map((trade) => trade.wallet))],
      insider_supply_pct: insiderPct,
      developer_supply_pct: devPct,
    }
    // The penalties for the same facts are the bundled-launch and wallet-clustering signals'.
    if (insiders.length > 0 || devPct > options.devBuyPct)
      return ok(
        [
          finding(
            meta,
            options,
            'STEALTH_LAUNCH',
            'Stealth launch',
            'Insiders bought in the launch window, before the public could see the pool.',
            evidence,
          ),
        ],
        { launch_pattern: 'STEALTH_LAUNCH' },
      )
    return ok(
      [
        finding(
          meta,
          options,
          'FAIR_LAUNCH',
          'Fair launch',
          'No insider bought in the launch window: the first buyers met the market at the same time.',
          evidence,
        ),
      ],
      { launch_pattern: 'FAIR_LAUNCH' },
    )
  },
})
