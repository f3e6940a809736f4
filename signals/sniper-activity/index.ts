import { Type } from '@sinclair/typebox'
import {
  defineSignal,
  finding,
  missingOf,
  notAssessed,
  ok,
  signalMeta,
  unknownOutcome,
} from '../../src/pipeline/signal.ts'
import { openingBuys, poolUnknown, POOL_FACTS, supplyPct } from '../../src/pipeline/derive/opening.ts'
import { count, pct as percent } from '../../src/rendering/format.ts'

const meta = signalMeta({
  id: 'sniper-activity',
  riskGroup: 'behavioral_risk',
  version: '1.1.0',
  title: 'Sniper activity',
  risk: 'Bots bought in the first slots after the pool opened, faster than any person can react.',
  why: 'Snipers take the cheapest supply and sell it into the first real buyers: heavy sniping caps the price and leaves a wave of sells.',
  scanners: ['deep_dive'],
  facts: ['launch', 'mint', ...POOL_FACTS],
  impact: 'medium',
  confidence: 'medium',
  options: Type.Object({
    windowSlots: Type.Integer({ minimum: 1 }),
    highBuyers: Type.Integer({ minimum: 1 }),
    highPct: Type.Number({ minimum: 0 }),
    mediumBuyers: Type.Integer({ minimum: 1 }),
    mediumPct: Type.Number({ minimum: 0 }),
  }),
  // Three slots (~1.2 s) is faster than a person reading a new pool and signing. Eight bots or a fifth
  // of the supply is a swarm; three bots or 5% of the supply is ordinary Solana sniping.
  defaults: { windowSlots: 3, highBuyers: 8, highPct: 20, mediumBuyers: 3, mediumPct: 5 },
  findings: {
    SNIPER_SWARM: {
      severity: 'high',
      points: -15,
      when: 'at least `highBuyers` wallets, or `highPct` of supply, in the `windowSlots` slots after opening',
      why: 'Snipers sell the cheapest supply into the first real buyers: the grade is capped at C',
      ceiling: 'C',
    },
    SNIPERS: {
      severity: 'medium',
      points: -5,
      when: 'at least `mediumBuyers` wallets, or `mediumPct` of supply',
      why: 'Ordinary Solana sniping',
    },
  },
})

export default defineSignal({
  meta,
  detect(facts, options) {
    const missing = missingOf(facts, ['launch', 'mint'])
    if (missing.length > 0) return unknownOutcome(meta, missing)
    const launch = facts.get('launch')!
    const poolMissing = poolUnknown(facts, launch.mainPool)
    if (poolMissing.length > 0) return unknownOutcome(meta, poolMissing)
    // Never traded: nobody sniped it.
    if (launch.mainPool === null) return ok([], { sniper_activity: 'LOW' })
    if (launch.poolOpenedSlot === null)
      return {
        status: 'unknown',
        missing: [],
        factors: [notAssessed(meta, "The pool's history is longer than what is read: its opening slot is unknown.")],
        fields: {},
      }
    // After the opening slot (same-slot buys are the bundle signal's), the creator's own buys aside.
    const buys = openingBuys(launch, options.windowSlots, 1).filter((trade) => trade.wallet !== launch.creator)
    const snipers = new Set(buys.map((trade) => trade.wallet)).size
    const pct = supplyPct(buys, facts.get('mint')!.supply)
    const evidence = {
      window_slots: options.windowSlots,
      snipers,
      supply_bought_pct: pct,
      wallets: [...new Set(buys.map((trade) => trade.wallet))],
    }
    if (snipers >= options.highBuyers || pct >= options.highPct)
      return ok(
        [
          finding(
            meta,
            options,
            'SNIPER_SWARM',
            `${count(snipers, 'sniper')} took ${percent(pct)} of the supply`,
            `${count(snipers, 'wallet')} bought within ${count(options.windowSlots, 'slot')} of the pool opening.`,
            evidence,
          ),
        ],
        { sniper_activity: 'HIGH' },
      )
    if (snipers >= options.mediumBuyers || pct >= options.mediumPct)
      return ok(
        [
          finding(
            meta,
            options,
            'SNIPERS',
            `${count(snipers, 'sniper')} took ${percent(pct)} of the supply`,
            `${count(snipers, 'wallet')} bought within ${count(options.windowSlots, 'slot')} of the pool opening.`,
            evidence,
          ),
        ],
        { sniper_activity: 'MEDIUM' },
      )
    return ok([], { sniper_activity: 'LOW' })
  },
})
