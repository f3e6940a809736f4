import { PERMANENT_LOCK_DAYS } from '../../src/pipeline/vocabulary.ts'
import { Type } from '@sinclair/typebox'
import { defineSignal, finding, ok, signalMeta, unknownOutcome } from '../../src/pipeline/signal.ts'

const meta = signalMeta({
  id: 'lp-status',
  riskGroup: 'liquidity_risk',
  version: '1.1.0',
  title: 'Liquidity-provider status',
  risk: 'The LP of a traditional AMM pool is not burned, so its holder can pull the liquidity.',
  why: 'Pulling unburned LP (a rug pull) leaves holders with no pool to sell into. Concentrated-liquidity positions and bonding curves have no fungible LP, so burn does not apply to them.',
  scanners: ['quick_scan', 'deep_dive'],
  facts: ['pools', 'launchpad'],
  impact: 'high',
  confidence: 'high',
  options: Type.Object({ burnedPct: Type.Number({ minimum: 0, maximum: 100 }), penalty: Type.Number({ maximum: 0 }) }),
  // 95%: the few LP tokens a pool keeps as its minimum (or dust) do not make it pullable; −25 is the reference penalty.
  defaults: { burnedPct: 95, penalty: -25 },
  findings: {
    LP_UNBURNED: {
      severity: 'high',
      points: 'penalty',
      when: 'the main pool is a traditional AMM with less than `burnedPct` of its LP burned',
      why: "Its holder can pull the liquidity (the reference weight); 95% leaves room for the pool's minimum LP",
    },
    LP_BURNED: { severity: 'info', points: 0, when: "the main pool's LP is burned (≥ `burnedPct`)" },
    LP_NOT_APPLICABLE: {
      severity: 'info',
      points: 0,
      when: 'the main pool is concentrated liquidity (CLMM, DLMM, DAMM v2): positions are NFTs',
    },
    BONDING_CURVE: { severity: 'info', points: 0, when: 'the liquidity sits in a launchpad bonding curve' },
  },
})

export default defineSignal({
  meta,
  detect(facts, options) {
    const pools = facts.get('pools')
    const launchpad = facts.get('launchpad')
    const lock = (source: string, burned: number | null, locked: boolean | null) => ({
      locked,
      locked_pct: null,
      burned_pct: burned,
      // Locked for good (burned, a curve's custody): the deep dive's stand-in for forever; else not read here.
      lock_duration_days: locked === true ? PERMANENT_LOCK_DAYS : null,
      source,
    })
    if (!pools)
      return unknownOutcome(meta, ['pools'], {
        lp_model: 'UNKNOWN',
        lp_status: 'UNKNOWN',
        lp_burned: null,
        liquidity_lock_status: lock('unknown', null, null),
      })
    // The main pool: the first listed (the market lists the deepest first).
    const main = pools.pools[0]
    if (!main) {
      const curve = launchpad?.pumpFun
      if (curve && !curve.complete)
        return ok(
          [
            finding(
              meta,
              options,
              'BONDING_CURVE',
              'Liquidity on a bonding curve',
              "The liquidity is held by the launchpad's bonding-curve program, not by LP holders.",
              { bonding_curve: curve.bondingCurve },
            ),
          ],
          {
            lp_model: 'UNKNOWN',
            lp_status: 'CUSTODIAL',
            lp_burned: null,
            liquidity_lock_status: lock('bonding_curve', null, true),
          },
        )
      return ok([], {
        lp_model: 'UNKNOWN',
        lp_status: 'UNKNOWN',
        lp_burned: null,
        liquidity_lock_status: lock('no_pool', null, null),
      })
    }
    if (main.model === 'CLMM_DLMM')
      return ok(
        [
          finding(
            meta,
            options,
            'LP_NOT_APPLICABLE',
            `${main.venue}: positions, not LP tokens`,
            'Concentrated-liquidity positions are NFTs: LP burn does not apply; providers can withdraw their own positions.',
            { pool: main.address },
          ),
        ],
        {
          lp_model: 'CLMM_DLMM',
          lp_status: 'NOT_APPLICABLE',
          lp_burned: null,
          liquidity_lock_status: lock('not_applicable', null, null),
        },
      )
    if (!main.lp)
      return ok([], {
        lp_model: 'TRADITIONAL_AMM',
        lp_status: 'UNKNOWN',
        lp_burned: null,
        liquidity_lock_status: lock('unknown', null, null),
      })
    const burned = main.lp.burnedPct >= options.burnedPct
    return ok(
      burned
        ? [
            finding(
              meta,
              options,
              'LP_BURNED',
              `LP ${main.lp.burnedPct}% burned`,
              "The pool's LP tokens are burned: its liquidity cannot be pulled.",
              { pool: main.address, burned_pct: main.lp.burnedPct },
            ),
          ]
        : [
            finding(
              meta,
              options,
              'LP_UNBURNED',
              `LP ${main.lp.burnedPct}% burned`,
              'Most LP tokens still exist: their holders can withdraw the liquidity (a rug pull).',
              { pool: main.address, burned_pct: main.lp.burnedPct },
            ),
          ],
      {
        lp_model: 'TRADITIONAL_AMM',
        lp_status: burned ? 'BURNED' : 'UNBURNED',
        lp_burned: burned,
        // Burned LP is locked for good; whether unburned LP sits in a lock program is read by the deep dive.
        liquidity_lock_status: lock('lp_burn', main.lp.burnedPct, burned ? true : null),
      },
    )
  },
})
