import { Type } from '@sinclair/typebox'
import { tokenExemption } from '../../src/pipeline/derive/exemption.ts'
import { defineSignal, finding, ok, signalMeta, unknownOutcome, type Factor } from '../../src/pipeline/signal.ts'
import { pct } from '../../src/rendering/format.ts'

const meta = signalMeta({
  id: 'token-2022-extensions',
  riskGroup: 'contract_risk',
  version: '2.2.0',
  title: 'Token-2022 extensions',
  risk: "Token-2022 extensions that let the issuer take, tax, block or freeze holders' tokens.",
  why: "A permanent delegate can move anyone's tokens, a transfer hook or a pause can block every sale, a mutable fee can be raised to 100%: scanners that read only the classic mint layout miss all of these.",
  scanners: ['quick_scan', 'deep_dive'],
  facts: ['mint', 'issuer'],
  impact: 'high',
  confidence: 'high',
  options: Type.Object({
    highFeeBps: Type.Integer({ minimum: 0 }),
    feeBps: Type.Integer({ minimum: 0 }),
  }),
  // Above 10% a round trip loses over a fifth of its value; above 1% the fee is a business, not dust.
  defaults: { highFeeBps: 1_000, feeBps: 100 },
  findings: {
    PERMANENT_DELEGATE: {
      severity: 'critical',
      points: -40,
      when: 'the mint has a permanent delegate',
      why: "Anyone's tokens can be moved or burned by the delegate: the grade is capped at D",
      ceiling: 'D',
    },
    NON_TRANSFERABLE: {
      severity: 'critical',
      points: -100,
      hardFail: true,
      when: 'the mint is non-transferable',
      why: 'Nobody can sell',
    },
    TRANSFER_FEE_HIGH: {
      severity: 'high',
      points: -30,
      when: 'the transfer fee (current or scheduled) is at least `highFeeBps`',
      why: 'A 10% fee costs a fifth of a round trip',
    },
    TRANSFER_FEE: {
      severity: 'medium',
      points: -10,
      when: 'the transfer fee is at least `feeBps`',
      why: 'Above 1% the fee is a business, not dust',
    },
    TRANSFER_FEE_MUTABLE: {
      severity: 'medium',
      points: -10,
      when: 'a fee authority can change the transfer fee',
      why: 'The fee authority can raise it to 100% after you buy: the grade is capped at C',
      ceiling: 'C',
    },
    TRANSFER_HOOK: {
      severity: 'high',
      points: -20,
      when: 'a transfer hook program is set',
      why: "A program of the issuer's choice runs on, and can refuse, every transfer: the grade is capped at C",
      ceiling: 'C',
    },
    DEFAULT_FROZEN: {
      severity: 'high',
      points: -30,
      when: 'new token accounts start frozen',
      why: 'Buyers cannot move tokens until the issuer thaws them: the grade is capped at D',
      ceiling: 'D',
    },
    PAUSED: {
      severity: 'critical',
      points: -100,
      hardFail: true,
      when: 'the pausable extension is paused',
      why: 'No transfer can succeed',
    },
    PAUSABLE: {
      severity: 'high',
      points: -20,
      when: 'a pause authority is set and the mint is not paused (a pausable extension whose authority is revoked can never be paused: nothing to report)',
      why: "One signature pauses the mint and every holder's sale with it, at any time: the grade is capped at C, as a live freeze authority's",
      ceiling: 'C',
    },
    MINT_CLOSE_AUTHORITY: {
      severity: 'low',
      points: -5,
      when: 'a mint close authority is set',
      why: 'The mint can be closed and re-created at the same address',
    },
    ISSUER_CONTROLS: {
      severity: 'info',
      points: 0,
      when: 'a registered issuer-controlled asset (`AUTHORITY_EXEMPT`) has a permanent delegate, a pause authority, a transfer hook, frozen-by-default accounts, a mutable fee or a close authority: listed here instead of scored',
      why: "The issuer's compliance controls are its design; penalising them grades every tokenized stock F",
    },
  },
})

/** The findings that are an issuer's controls when the issuer is registered (`ISSUER_CONTROLS`). */
const ISSUER_CONTROLS: ReadonlySet<string> = new Set([
  'PERMANENT_DELEGATE',
  'PAUSABLE',
  'TRANSFER_HOOK',
  'DEFAULT_FROZEN',
  'TRANSFER_FEE_MUTABLE',
  'MINT_CLOSE_AUTHORITY',
])

export default defineSignal({
  meta,
  detect(facts, options) {
    const mint = facts.get('mint')
    if (!mint) return unknownOutcome(meta, ['mint'], { token_extensions: null })
    const x = mint.extensions
    const found: Factor[] = []
    if (x.permanentDelegate)
      found.push(
        finding(
          meta,
          options,
          'PERMANENT_DELEGATE',
          'Permanent delegate',
          "A permanent delegate can transfer or burn tokens from any holder's account without consent.",
          { delegate: x.permanentDelegate },
        ),
      )
    if (x.nonTransferable)
      found.push(
        finding(
          meta,
          options,
          'NON_TRANSFERABLE',
          'Non-transferable token',
          'Tokens cannot be transferred at all: nobody can sell.',
        ),
      )
    if (x.transferFee) {
      const bps = Math.max(x.transferFee.basisPoints, x.transferFee.newerBasisPoints)
      if (bps >= options.highFeeBps)
        found.push(
          finding(
            meta,
            options,
            'TRANSFER_FEE_HIGH',
            `Transfer fee ${pct(bps / 100)}`,
            `Every transfer pays ${pct(bps / 100)} to the fee authority.`,
            { basis_points: bps },
          ),
        )
      else if (bps >= options.feeBps)
        found.push(
          finding(
            meta,
            options,
            'TRANSFER_FEE',
            `Transfer fee ${pct(bps / 100)}`,
            `Every transfer pays ${pct(bps / 100)}.`,
            {
              basis_points: bps,
            },
          ),
        )
      if (x.transferFee.configAuthority)
        found.push(
          finding(
            meta,
            options,
            'TRANSFER_FEE_MUTABLE',
            'Transfer fee can be changed',
            'The fee authority can raise the fee (up to 100%) after you buy.',
            { authority: x.transferFee.configAuthority },
          ),
        )
    }
    if (x.transferHook?.programId)
      found.push(
        finding(
          meta,
          options,
          'TRANSFER_HOOK',
          'Transfer hook',
          'Every transfer runs a program chosen by the issuer, which can refuse it.',
          { program: x.transferHook.programId, authority: x.transferHook.authority },
        ),
      )
    if (x.defaultAccountState === 'frozen')
      found.push(
        finding(
          meta,
          options,
          'DEFAULT_FROZEN',
          'Accounts frozen by default',
          'New token accounts start frozen: buyers cannot move tokens until the issuer thaws them.',
        ),
      )
    // Paused, it blocks now whoever holds the switch (none: for good); not paused, only a live authority can pause it.
    if (x.pausable && (x.pausable.paused || x.pausable.authority !== null))
      found.push(
        x.pausable.paused
          ? finding(meta, options, 'PAUSED', 'Transfers paused', 'The token is paused: no transfer can succeed.', {
              authority: x.pausable.authority,
            })
          : finding(meta, options, 'PAUSABLE', 'Pausable', 'The pause authority can stop every transfer at any time.', {
              authority: x.pausable.authority,
            }),
      )
    if (x.mintCloseAuthority)
      found.push(
        finding(
          meta,
          options,
          'MINT_CLOSE_AUTHORITY',
          'Mint close authority',
          'The mint can be closed (once supply is zero) and re-created at the same address.',
          { authority: x.mintCloseAuthority },
        ),
      )
    const codes = mint.program === 'spl-token-2022' ? found.map((entry) => entry.code) : []
    // A registered issuer's controls (a stock issuer's pause and delegate, a stablecoin's frozen-by-default
    // accounts) are its design: one informational finding lists them. A fee is a cost whoever charges
    // it, and a token paused or non-transferable cannot be sold now: those stay.
    if (!tokenExemption(facts).exempt) return ok(found, { token_extensions: codes })
    const controls = found.filter((entry) => ISSUER_CONTROLS.has(entry.code))
    if (controls.length === 0) return ok(found, { token_extensions: codes })
    const issuer = facts.get('issuer')!
    const kept = found.filter((entry) => !ISSUER_CONTROLS.has(entry.code))
    const listed = controls.map((entry) => entry.code)
    const exempted = finding(
      meta,
      options,
      'ISSUER_CONTROLS',
      `Issuer controls (${issuer.issuer}): ${listed.join(', ')}`,
      `Registered as ${issuer.issuer}'s ${issuer.symbol}: these controls are how the issuer meets its obligations (redemptions, sanctions, corporate actions); not penalised.`,
      { issuer: issuer.issuer, controls: Object.fromEntries(controls.map((entry) => [entry.code, entry.evidence])) },
    )
    return ok([...kept, exempted], { token_extensions: codes })
  },
})
