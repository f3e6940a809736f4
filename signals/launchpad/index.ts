import { Type } from '@sinclair/typebox'
import { defineSignal, finding, ok, signalMeta, unknownOutcome } from '../../src/pipeline/signal.ts'

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
  findings: {
    PUMP_FUN_BONDING_CURVE: { severity: 'info', points: 0, when: 'the pump.fun curve account exists and is live' },
    PUMP_FUN_GRADUATED: { severity: 'info', points: 0, when: 'the pump.fun curve account exists and is complete' },
  },
})

export default defineSignal({
  meta,
  detect(facts, options) {
    const launchpad = facts.get('launchpad')
    if (!launchpad) return unknownOutcome(meta, ['launchpad'])
    const curve = launchpad.pumpFun
    // The curve account at the mint's PDA is the proof; a DEX name in market data is not.
    if (!curve) return ok([], { pump_launchpad_launched: false })
    return ok(
      [
        curve.complete
          ? finding(
              meta,
              options,
              'PUMP_FUN_GRADUATED',
              'Launched on pump.fun, graduated',
              'The bonding curve filled and its reserves moved to an AMM pool.',
              { bonding_curve: curve.bondingCurve, graduated_pool: curve.graduatedPool, creator: curve.creator },
            )
          : finding(
              meta,
              options,
              'PUMP_FUN_BONDING_CURVE',
              'Launched on pump.fun, still on its curve',
              'The token trades against its bonding curve; it has not graduated to an AMM.',
              { bonding_curve: curve.bondingCurve, creator: curve.creator },
            ),
      ],
      { pump_launchpad_launched: true },
    )
  },
})
