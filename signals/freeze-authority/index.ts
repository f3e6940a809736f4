import { Type } from '@sinclair/typebox'
import { defineSignal, finding, ok, signalMeta, unknownOutcome } from '../../src/pipeline/signal.ts'
import { tokenExemption } from '../../src/pipeline/derive/exemption.ts'

const meta = signalMeta({
  id: 'freeze-authority',
  riskGroup: 'contract_risk',
  version: '2.1.0',
  title: 'Freeze authority',
  risk: "A wallet can still freeze any holder's token account.",
  why: 'A frozen account cannot sell: the issuer can trap buyers at will (a common honeypot).',
  scanners: ['quick_scan', 'deep_dive'],
  facts: ['mint', 'issuer'],
  impact: 'high',
  confidence: 'high',
  options: Type.Object({ penalty: Type.Number({ maximum: 0 }) }),
  defaults: { penalty: -15 },
  findings: {
    FREEZE_AUTHORITY_LIVE: {
      severity: 'high',
      points: 'penalty',
      when: 'the freeze authority is set',
      why: 'Holders can be frozen and unable to sell (the reference weight); alone it is how a honeypot traps sellers, so the grade is capped at C whatever else is clean',
      ceiling: 'C',
    },
    FREEZE_AUTHORITY_LIVE_EXEMPT: {
      severity: 'info',
      points: 0,
      when: 'the freeze authority is set on a registered issuer-controlled asset (`AUTHORITY_EXEMPT`)',
      why: 'A regulated stablecoin must be able to freeze; penalising it is a false alarm',
    },
  },
})

export default defineSignal({
  meta,
  detect(facts, options) {
    const mint = facts.get('mint')
    if (!mint) return unknownOutcome(meta, ['mint'], { freeze_authority_revoked: null })
    if (mint.freezeAuthority === null) return ok([], { freeze_authority_revoked: true })
    const exempt = tokenExemption(facts).exempt
    return ok(
      [
        exempt
          ? finding(
              meta,
              options,
              'FREEZE_AUTHORITY_LIVE_EXEMPT',
              'Freeze authority live (issuer-controlled asset)',
              'The registered issuer can freeze accounts, as a regulated asset must; not penalised.',
              { authority: mint.freezeAuthority },
            )
          : finding(
              meta,
              options,
              'FREEZE_AUTHORITY_LIVE',
              'Freeze authority live',
              "A wallet can freeze any holder's account, stopping it from selling.",
              { authority: mint.freezeAuthority },
            ),
      ],
      { freeze_authority_revoked: false },
    )
  },
})
