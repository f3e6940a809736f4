import { Type } from '@sinclair/typebox'
import { defineSignal, factor, ok, signalMeta, unknownOutcome, type Factor } from '../../src/pipeline/signal.ts'

const meta = signalMeta({
  id: 'token-2022-extensions',
  riskGroup: 'contract_risk',
  version: '1.0.0',
  title: 'Token-2022 extensions',
  risk: "Token-2022 extensions that let the issuer take, tax, block or freeze holders' tokens.",
  why: "A permanent delegate can move anyone's tokens, a transfer hook or a pause can block every sale, a mutable fee can be raised to 100%: scanners that read only the classic mint layout miss all of these.",
  scanners: ['quick_scan', 'deep_dive'],
  facts: ['mint'],
  impact: 'high',
  confidence: 'high',
  options: Type.Object({
    highFeeBps: Type.Integer({ minimum: 0 }),
    feeBps: Type.Integer({ minimum: 0 }),
  }),
  // Above 10% a round trip loses over a fifth of its value; above 1% the fee is a business, not dust.
  defaults: { highFeeBps: 1_000, feeBps: 100 },
})

export default defineSignal({
  meta,
  detect(facts, options) {
    const mint = facts.get('mint')
    if (!mint) return unknownOutcome(meta, ['mint'], { token_extensions: null })
    const x = mint.extensions
    const found: Factor[] = []
    if (x.permanentDelegate)
      found.push(
        factor(
          meta,
          'PERMANENT_DELEGATE',
          'critical',
          -40,
          'Permanent delegate',
          "A permanent delegate can transfer or burn tokens from any holder's account without consent.",
          { delegate: x.permanentDelegate },
        ),
      )
    if (x.nonTransferable)
      found.push(
        factor(
          meta,
          'NON_TRANSFERABLE',
          'critical',
          -100,
          'Non-transferable token',
          'Tokens cannot be transferred at all: nobody can sell.',
          {},
          true,
        ),
      )
    if (x.transferFee) {
      const bps = Math.max(x.transferFee.basisPoints, x.transferFee.newerBasisPoints)
      if (bps >= options.highFeeBps)
        found.push(
          factor(
            meta,
            'TRANSFER_FEE_HIGH',
            'high',
            -30,
            `Transfer fee ${bps / 100}%`,
            `Every transfer pays ${bps / 100}% to the fee authority.`,
            { basis_points: bps },
          ),
        )
      else if (bps >= options.feeBps)
        found.push(
          factor(
            meta,
            'TRANSFER_FEE',
            'medium',
            -10,
            `Transfer fee ${bps / 100}%`,
            `Every transfer pays ${bps / 100}%.`,
            { basis_points: bps },
          ),
        )
      if (x.transferFee.configAuthority)
        found.push(
          factor(
            meta,
            'TRANSFER_FEE_MUTABLE',
            'medium',
            -10,
            'Transfer fee can be changed',
            'The fee authority can raise the fee (up to 100%) after you buy.',
            { authority: x.transferFee.configAuthority },
          ),
        )
    }
    if (x.transferHook?.programId)
      found.push(
        factor(
          meta,
          'TRANSFER_HOOK',
          'high',
          -20,
          'Transfer hook',
          'Every transfer runs a program chosen by the issuer, which can refuse it.',
          { program: x.transferHook.programId, authority: x.transferHook.authority },
        ),
      )
    if (x.defaultAccountState === 'frozen')
      found.push(
        factor(
          meta,
          'DEFAULT_FROZEN',
          'high',
          -30,
          'Accounts frozen by default',
          'New token accounts start frozen: buyers cannot move tokens until the issuer thaws them.',
        ),
      )
    if (x.pausable)
      found.push(
        x.pausable.paused
          ? factor(
              meta,
              'PAUSED',
              'critical',
              -100,
              'Transfers paused',
              'The token is paused: no transfer can succeed.',
              { authority: x.pausable.authority },
              true,
            )
          : factor(
              meta,
              'PAUSABLE',
              'high',
              -20,
              'Pausable',
              'The pause authority can stop every transfer at any time.',
              { authority: x.pausable.authority },
            ),
      )
    if (x.mintCloseAuthority)
      found.push(
        factor(
          meta,
          'MINT_CLOSE_AUTHORITY',
          'low',
          -5,
          'Mint close authority',
          'The mint can be closed (once supply is zero) and re-created at the same address.',
          { authority: x.mintCloseAuthority },
        ),
      )
    return ok(found, { token_extensions: mint.program === 'spl-token-2022' ? found.map((entry) => entry.code) : [] })
  },
})
