import { Type } from '@sinclair/typebox'
import { defineSignal, finding, ok, signalMeta, unknownOutcome, type Factor } from '../../src/pipeline/signal.ts'
import { count as counted, num } from '../../src/rendering/format.ts'

const LAMPORTS_PER_SOL = 1_000_000_000

const meta = signalMeta({
  id: 'dev-history',
  riskGroup: 'behavioral_risk',
  version: '1.2.0',
  title: 'Developer wallet history',
  risk: 'The wallet that created the token pulled the liquidity of its earlier tokens, or mass-produces tokens.',
  why: 'A developer who rugged before is the best predictor of a rug; a wallet minting token after token launches and abandons them.',
  scanners: ['deep_dive'],
  facts: ['dev_history'],
  impact: 'high',
  confidence: 'high',
  options: Type.Object({
    serialRugs: Type.Integer({ minimum: 1 }),
    factoryTokens: Type.Integer({ minimum: 1 }),
  }),
  // One pull of an own token can be a migration; two are a pattern (hard fail). Five other tokens is
  // beyond what a project team launches and what a launch factory does weekly.
  defaults: { serialRugs: 2, factoryTokens: 5 },
  findings: {
    DEV_SERIAL_RUGGER: {
      severity: 'critical',
      points: -40,
      hardFail: true,
      when: 'the creator pulled the liquidity of at least `serialRugs` earlier tokens',
      why: 'A pattern: the strongest single predictor of a rug',
    },
    DEV_PREVIOUS_RUG: {
      severity: 'critical',
      points: -40,
      when: 'the creator pulled the liquidity of one earlier token',
      why: 'One pull can be a migration, so no hard fail; the grade is capped at D',
      ceiling: 'D',
    },
    DEV_TOKEN_FACTORY: {
      severity: 'medium',
      points: -10,
      when: 'the creator initialised at least `factoryTokens` other tokens',
      why: 'More than a project launches; launch factories abandon most',
    },
    DEV_HISTORY_PARTIAL: { severity: 'info', points: 0, when: "the creator's history was longer than what is read" },
  },
})

export default defineSignal({
  meta,
  detect(facts, options) {
    const history = facts.get('dev_history')
    if (!history) return unknownOutcome(meta, ['dev_history'])
    const created = history.createdTokens.length
    const rugs = history.previousRugs.length
    // A complete history gives an exact count (zero included). An incomplete one gives a floor when
    // something was found, and null when nothing was: a zero there would be made up.
    const count = history.complete || created > 0 ? created : null
    const found: Factor[] = []
    const rugged = history.earlierTokens.filter((token) => token.pulled)
    if (rugs >= options.serialRugs)
      found.push(
        finding(
          meta,
          options,
          'DEV_SERIAL_RUGGER',
          `Developer rugged ${counted(rugs, 'earlier token')}`,
          'The creator pulled the liquidity of its own earlier tokens again and again.',
          { rugged_tokens: history.previousRugs, earlier_tokens: rugged },
        ),
      )
    else if (rugs > 0)
      found.push(
        finding(
          meta,
          options,
          'DEV_PREVIOUS_RUG',
          'Developer rugged an earlier token',
          'The creator pulled the liquidity of one of its own earlier tokens.',
          { rugged_tokens: history.previousRugs, earlier_tokens: rugged },
        ),
      )
    if (created >= options.factoryTokens)
      found.push(
        finding(
          meta,
          options,
          'DEV_TOKEN_FACTORY',
          `Developer created ${num(created)}${history.complete ? '' : '+'} other ${created === 1 && history.complete ? 'token' : 'tokens'}`,
          'The creator mass-produces tokens: most such launches are abandoned.',
          { created_tokens_count: created, history_complete: history.complete },
        ),
      )
    if (!history.complete)
      found.push(
        finding(
          meta,
          options,
          'DEV_HISTORY_PARTIAL',
          'Developer history read in part',
          'The wallet has more transactions than are read: earlier tokens and rugs may be unseen.',
          { created_tokens_seen: created, rugs_seen: rugs },
        ),
      )
    return ok(found, {
      dev_wallet_analysis: {
        address: history.wallet,
        address_source: history.walletSource,
        sol_balance: Math.round((Number(history.solBalance) / LAMPORTS_PER_SOL) * 10_000) / 10_000,
        created_tokens_count: count,
        previous_rugs: rugs > 0,
        history_complete: history.complete,
      },
    })
  },
})
