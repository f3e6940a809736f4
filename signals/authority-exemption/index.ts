import { Type } from '@sinclair/typebox'
import { defineSignal, finding, ok, signalMeta, unknownOutcome } from '../../src/pipeline/signal.ts'
import { EXEMPT_TAGS, isAuthorityExempt } from '../../src/pipeline/derive/exemption.ts'

const meta = signalMeta({
  id: 'authority-exemption',
  riskGroup: 'contract_risk',
  version: '1.0.0',
  title: 'Issuer-controlled asset',
  risk: 'Live mint/freeze authorities that are the design of a verified stablecoin, wrapped asset or liquid staking token.',
  why: 'Flagging USDC for its freeze authority is a false alarm that teaches users to ignore warnings; the exemption keeps authority penalties for the tokens where they signal risk.',
  scanners: ['quick_scan', 'deep_dive'],
  facts: ['token_list'],
  impact: 'informational',
  confidence: 'high',
  options: Type.Object({}),
  defaults: {},
  findings: {
    AUTHORITY_EXEMPT: {
      severity: 'info',
      points: 0,
      when: 'the token list verifies the token as a stablecoin, wrapped asset or LST; the authority findings become informational',
      why: 'An issuer-controlled asset must keep its authorities; penalising them is a false alarm',
    },
  },
})

export default defineSignal({
  meta,
  detect(facts, options) {
    const list = facts.get('token_list')
    // Without the token list no exemption is granted (the conservative reading); it is listed missing.
    if (!list) return unknownOutcome(meta, ['token_list'], { authority_exempt: false })
    if (!isAuthorityExempt(list)) return ok([], { authority_exempt: false })
    const tags = list.tags.filter((tag) => EXEMPT_TAGS.includes(tag))
    return ok(
      [
        finding(
          meta,
          options,
          'AUTHORITY_EXEMPT',
          'Issuer-controlled asset',
          `Verified on the token list as ${tags.join(', ')}: its live authorities are expected and not penalised.`,
          { tags: list.tags },
        ),
      ],
      { authority_exempt: true },
    )
  },
})
