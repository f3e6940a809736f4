import { Type } from '@sinclair/typebox'
import { defineSignal, finding, ok, signalMeta, unknownOutcome } from '../../src/pipeline/signal.ts'
import { tokenExemption } from '../../src/pipeline/derive/exemption.ts'

const meta = signalMeta({
  id: 'mint-authority',
  riskGroup: 'contract_risk',
  version: '2.1.0',
  title: 'Mint authority',
  risk: 'A wallet can still mint new tokens.',
  why: 'New supply can be printed and sold into the pool at any time, diluting every holder to zero.',
  scanners: ['quick_scan', 'deep_dive'],
  facts: ['mint', 'issuer'],
  impact: 'high',
  confidence: 'high',
  options: Type.Object({ penalty: Type.Number({ maximum: 0 }) }),
  defaults: { penalty: -25 },
  findings: {
    MINT_AUTHORITY_LIVE: {
      severity: 'high',
      points: 'penalty',
      when: 'the mint authority is set',
      why: 'New supply can be printed and sold into the pool (the reference weight); unlimited dilution alone caps the grade at C',
      ceiling: 'C',
    },
    MINT_AUTHORITY_LIVE_EXEMPT: {
      severity: 'info',
      points: 0,
      when: 'the mint authority is set on a registered issuer-controlled asset (`AUTHORITY_EXEMPT`)',
      why: 'A stablecoin or wrapped asset must be able to mint; penalising it is a false alarm',
    },
  },
})

export default defineSignal({
  meta,
  detect(facts, options) {
    const mint = facts.get('mint')
    if (!mint) return unknownOutcome(meta, ['mint'], { mint_authority_revoked: null })
    const revoked = mint.mintAuthority === null
    if (revoked) return ok([], { mint_authority_revoked: true })
    const exempt = tokenExemption(facts).exempt
    return ok(
      [
        exempt
          ? finding(
              meta,
              options,
              'MINT_AUTHORITY_LIVE_EXEMPT',
              'Mint authority live (issuer-controlled asset)',
              'The registered issuer can mint, as a stablecoin, wrapped asset or staking token must; not penalised.',
              { authority: mint.mintAuthority },
            )
          : finding(
              meta,
              options,
              'MINT_AUTHORITY_LIVE',
              'Mint authority live',
              'A wallet can still mint new tokens and dilute holders.',
              { authority: mint.mintAuthority },
            ),
      ],
      { mint_authority_revoked: false },
    )
  },
})
