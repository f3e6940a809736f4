import { Type } from '@sinclair/typebox'
import { tokenExemption } from '../../src/pipeline/derive/exemption.ts'
import { defineSignal, finding, ok, signalMeta, unknownOutcome } from '../../src/pipeline/signal.ts'

const meta = signalMeta({
  id: 'authority-exemption',
  riskGroup: 'contract_risk',
  version: '2.0.0',
  title: 'Issuer-controlled asset',
  risk: 'Live authorities and issuer extensions that are the design of a registered issuer-controlled asset: a fiat stablecoin, a tokenized stock, a wrapped asset or a liquid staking token.',
  why: 'Flagging USDC for its freeze authority, or a tokenized stock for its pause, is a false alarm that teaches users to ignore warnings; the exemption keeps those penalties for the tokens where they signal risk.',
  scanners: ['quick_scan', 'deep_dive'],
  facts: ['issuer', 'mint', 'token_list'],
  impact: 'informational',
  confidence: 'high',
  options: Type.Object({}),
  defaults: {},
  findings: {
    AUTHORITY_EXEMPT: {
      severity: 'info',
      points: 0,
      when: 'the mint is in the issuer registry and its live authorities are the registered ones; the authority and issuer-extension findings become informational',
      why: 'An issuer-controlled asset must keep its authorities; penalising them is a false alarm',
    },
    ISSUER_AUTHORITY_CHANGED: {
      severity: 'high',
      points: 0,
      when: 'the mint is in the issuer registry but a live authority is not the registered one: no exemption',
      why: "An issuer key rotation or a compromise: the authorities are scored as any token's (their own findings carry the points)",
    },
  },
})

export default defineSignal({
  meta,
  detect(facts, options) {
    const issuer = facts.get('issuer')
    const mint = facts.get('mint')
    // Without the registry, or the mint to check its authorities against, no exemption is granted.
    if (issuer === undefined) return unknownOutcome(meta, ['issuer'], { authority_exempt: false })
    // The exemption is about the mint's authorities: without the mint it is not assessed, even for an
    // unregistered token (an unread contract is not a clean one).
    if (!mint) return unknownOutcome(meta, ['mint'], { authority_exempt: false })
    if (issuer === null) return ok([], { authority_exempt: false })
    const exemption = tokenExemption(facts)
    const list = facts.get('token_list')
    const evidence = {
      issuer: issuer.issuer,
      kind: issuer.kind,
      symbol: issuer.symbol,
      // Supporting evidence only: the registry decides.
      token_list_verified: list ? list.verified : null,
    }
    if (!exemption.exempt)
      return ok(
        [
          finding(
            meta,
            options,
            'ISSUER_AUTHORITY_CHANGED',
            `${issuer.symbol}: authority is not ${issuer.issuer}'s registered one`,
            `This mint is registered as ${issuer.issuer}'s ${issuer.symbol}, but ${exemption.mismatched
              .map(
                (entry) => `its ${entry.authority} authority is ${entry.live}, not the registered ${entry.registered}`,
              )
              .join('; ')}: an issuer key change or a compromise. Its authorities are scored as any token's.`,
            { ...evidence, mismatched: exemption.mismatched },
          ),
        ],
        { authority_exempt: false },
      )
    return ok(
      [
        finding(
          meta,
          options,
          'AUTHORITY_EXEMPT',
          `Issuer-controlled asset (${issuer.issuer})`,
          `Registered as ${issuer.issuer}'s ${issuer.symbol} (${issuer.kind.replace('_', ' ')}): its live authorities and issuer controls are expected and not penalised.`,
          evidence,
        ),
      ],
      { authority_exempt: true },
    )
  },
})
