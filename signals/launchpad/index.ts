import { Type } from '@sinclair/typebox'
import { defineSignal, factor, ok, signalMeta, unknownOutcome } from '../../src/pipeline/signal.ts'

const meta = signalMeta({
  id: 'launchpad',
  riskGroup: 'behavioral_risk',
  version: '1.0.0',
  title: 'Launchpad origin',
  risk: 'The token was launched on a launchpad bonding curve (pump.fun), read from the curve account on chain.',
  why: 'Launchpad tokens start with the whole supply in a public curve (no team allocation, no pullable LP) but are cheap to mint by the thousand: the origin frames every other finding.',
  scanners: ['deep_dive'],
  facts: ['launchpad'],
  impact: 'informational',
  confidence: 'high',
  options: Type.Object({}),
  defaults: {},
})

export default defineSignal({
  meta,
  detect(facts) {
    const launchpad = facts.get('launchpad')
    if (!launchpad) return unknownOutcome(meta, ['launchpad'])
    const curve = launchpad.pumpFun
    // The curve account at the mint's PDA is the proof; a DEX name in market data is not.
    if (!curve) return ok([], { pump_launchpad_launched: false })
    return ok(
      [
        curve.complete
          ? factor(
              meta,
              'PUMP_FUN_GRADUATED',
              'info',
              0,
              'Launched on pump.fun, graduated',
              'The bonding curve filled and its reserves moved to an AMM pool.',
              { bonding_curve: curve.bondingCurve, graduated_pool: curve.graduatedPool, creator: curve.creator },
            )
          : factor(
              meta,
              'PUMP_FUN_BONDING_CURVE',
              'info',
              0,
              'Launched on pump.fun, still on its curve',
              'The token trades against its bonding curve; it has not graduated to an AMM.',
              { bonding_curve: curve.bondingCurve, creator: curve.creator },
            ),
      ],
      { pump_launchpad_launched: true },
    )
  },
})
