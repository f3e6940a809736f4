import { Type } from '@sinclair/typebox'
import {
  defineSignal,
  finding,
  notAssessed,
  missingOf,
  ok,
  signalMeta,
  unknownOutcome,
  type Factor,
} from '../../src/pipeline/signal.ts'
import { linkWallets } from '../../src/pipeline/derive/wallet-links.ts'
import { openingBuys, poolUnknown, POOL_FACTS, supplyPct } from '../../src/pipeline/derive/opening.ts'
import { count, pct } from '../../src/rendering/format.ts'

const meta = signalMeta({
  id: 'bundled-launch',
  riskGroup: 'behavioral_risk',
  version: '1.1.0',
  title: 'Bundled launch',
  risk: 'Developer-funded wallets bought in the very slot the pool opened (a bundle submitted with the pool creation).',
  why: "Nobody outside can see a pool before its creation lands, so same-slot buys are the developer's: it takes cheap supply through wallets that look like buyers, and dumps it on them.",
  scanners: ['deep_dive'],
  facts: ['launch', 'funding', 'mint', ...POOL_FACTS],
  impact: 'high',
  confidence: 'high',
  options: Type.Object({ minBuyers: Type.Integer({ minimum: 1 }) }),
  // Three linked wallets in one slot is a deliberate bundle; one or two can be the developer's own buy
  // split for fees.
  defaults: { minBuyers: 3 },
  findings: {
    BUNDLED_LAUNCH: {
      severity: 'high',
      points: -25,
      when: 'at least `minBuyers` creator-linked wallets bought in the opening slot',
      why: 'Same-slot buyers are submitted with the pool: a deliberate set-up to dump on buyers; the grade is capped at D',
      ceiling: 'D',
    },
    SAME_SLOT_BUYERS: {
      severity: 'info',
      points: 0,
      when: 'at least `minBuyers` wallets bought in the opening slot, none linked to the creator',
    },
  },
})

export default defineSignal({
  meta,
  detect(facts, options) {
    const launch = facts.get('launch')
    if (!launch) return unknownOutcome(meta, ['launch'])
    const poolMissing = poolUnknown(facts, launch.mainPool)
    if (poolMissing.length > 0) return unknownOutcome(meta, poolMissing)
    // Never traded: nothing was bundled.
    if (launch.mainPool === null) return ok([], { bundled_launch_detected: false })
    if (launch.poolOpenedSlot === null)
      return {
        status: 'unknown',
        missing: [],
        factors: [notAssessed(meta, "The pool's history is longer than what is read: its opening slot is unknown.")],
        fields: {},
      }
    const sameSlot = openingBuys(launch, 0).filter((trade) => trade.wallet !== launch.creator)
    const buyers = [...new Set(sameSlot.map((trade) => trade.wallet))]
    if (buyers.length < options.minBuyers) return ok([], { bundled_launch_detected: false })
    // Enough same-slot buyers: whether the developer paid for them decides.
    const missing = missingOf(facts, ['funding', 'mint'])
    if (missing.length > 0) return unknownOutcome(meta, missing)
    const links = linkWallets(facts.get('funding')!, launch.creator)
    const linked = buyers.filter((wallet) => links.creatorLinked.has(wallet) || links.linked.has(wallet))
    const found: Factor[] = []
    const bought = supplyPct(
      sameSlot.filter((trade) => linked.includes(trade.wallet)),
      facts.get('mint')!.supply,
    )
    const evidence = {
      opening_slot: String(launch.poolOpenedSlot),
      same_slot_buyers: buyers.length,
      linked_buyers: linked,
      supply_bought_pct: bought,
    }
    const detected = linked.length >= options.minBuyers
    if (detected)
      found.push(
        finding(
          meta,
          options,
          'BUNDLED_LAUNCH',
          `${count(linked.length, 'linked wallet')} bought in the opening slot`,
          `Wallets funded by the developer (or by one funder in one sitting) bought ${pct(bought)} of the supply in the slot the pool opened.`,
          evidence,
        ),
      )
    else
      found.push(
        finding(
          meta,
          options,
          'SAME_SLOT_BUYERS',
          `${count(buyers.length, 'wallet')} bought in the opening slot`,
          'Several wallets bought in the slot the pool opened, but none is tied to the developer by its funding.',
          evidence,
        ),
      )
    return ok(found, { bundled_launch_detected: detected })
  },
})
