import { Type } from '@sinclair/typebox'
import {
  defineSignal,
  finding,
  notAssessed,
  missingOf,
  ok,
  signalMeta,
  unknownOutcome,
  type Factor,
} from '../../src/pipeline/signal.ts'
import { tokenExemption } from '../../src/pipeline/derive/exemption.ts'

const meta = signalMeta({
  id: 'honeypot',
  riskGroup: 'contract_risk',
  version: '2.1.0',
  title: 'Honeypot',
  risk: 'A holder cannot sell: the token cannot move, accounts start frozen, transfers are paused, or nothing trades it.',
  why: "A honeypot takes buyers' money and gives them a token that cannot be sold at any price.",
  scanners: ['deep_dive'],
  facts: ['mint', 'issuer', 'market', 'pools', 'launchpad'],
  impact: 'high',
  confidence: 'high',
  options: Type.Object({}),
  defaults: {},
  findings: {
    HONEYPOT: {
      severity: 'critical',
      points: 0,
      hardFail: true,
      when: 'selling is blocked now: non-transferable, paused, accounts frozen by default, or no sell route',
      why: "The conditions' points are their own signals'; the hard fail makes it F",
    },
    SELL_BLOCKABLE: {
      severity: 'info',
      points: 0,
      when: 'holders can sell today but the issuer can block it (freeze, pause, hook, delegate)',
    },
  },
})

/**
 * What stops a sale today, from the chain (certain), and what lets the issuer stop one at will
 * (a risk, not yet a honeypot). The points of each condition are taken by the signal that owns it
 * (token-2022-extensions, freeze-authority, liquidity); this one adds the verdict and the hard fail.
 */
export default defineSignal({
  meta,
  detect(facts, options) {
    const mint = facts.get('mint')
    if (!mint) return unknownOutcome(meta, ['mint'])
    const exempt = tokenExemption(facts).exempt
    const x = mint.extensions
    const blockers: string[] = []
    if (x.nonTransferable) blockers.push('NON_TRANSFERABLE')
    if (x.pausable?.paused) blockers.push('PAUSED')
    // A permissioned asset (verified stablecoin, LST) may start accounts frozen by design.
    if (x.defaultAccountState === 'frozen' && !exempt) blockers.push('DEFAULT_FROZEN')

    const market = facts.get('market')
    const pools = facts.get('pools')
    const launchpad = facts.get('launchpad')
    const curveLive = launchpad?.pumpFun ? !launchpad.pumpFun.complete : false
    const routeKnown = market !== undefined && pools !== undefined && launchpad !== undefined
    const hasRoute = (market?.pairs.length ?? 0) > 0 || (pools?.pools.length ?? 0) > 0 || curveLive
    if (routeKnown && !hasRoute) blockers.push('NO_SELL_ROUTE')

    // The issuer can block sales at will, but holders can sell today.
    const risks: string[] = []
    if (mint.freezeAuthority !== null && !exempt) risks.push('FREEZE_AUTHORITY')
    // A registered issuer's controls are its design (the exemption); paused or frozen-by-default still block now.
    if (x.pausable && !x.pausable.paused && x.pausable.authority !== null && !exempt) risks.push('PAUSABLE')
    // Whether the hook's program is deployed is not read, so a hook is a risk, not a certainty.
    if (x.transferHook?.programId && !exempt) risks.push('TRANSFER_HOOK_UNVERIFIED')
    if (x.permanentDelegate && !exempt) risks.push('PERMANENT_DELEGATE')

    const found: Factor[] = []
    if (blockers.length > 0)
      found.push(
        finding(
          meta,
          options,
          'HONEYPOT',
          'Honeypot: holders cannot sell',
          `Selling is blocked: ${blockers.join(', ')}.`,
          { blockers, issuer_can_block: risks },
        ),
      )
    else if (risks.length > 0)
      found.push(
        finding(
          meta,
          options,
          'SELL_BLOCKABLE',
          'The issuer can block sales',
          `Holders can sell today, but ${risks.join(', ')} lets the issuer stop them.`,
          { issuer_can_block: risks },
        ),
      )
    // Without market, pool and launchpad data a missing sell route cannot be ruled out: no "sellable" verdict.
    if (blockers.length === 0 && !routeKnown) {
      const missing = missingOf(facts, ['market', 'pools', 'launchpad'])
      const unknown = notAssessed(
        meta,
        `No transfer blocker on the mint, but whether anything trades the token (a pool, a pair or a live curve) could not be read: ${missing.join(', ')} could not be gathered.`,
        { missing },
      )
      return { status: 'unknown', missing, factors: [...found, unknown], fields: {} }
    }
    return ok(found, { is_honeypot: blockers.length > 0 })
  },
})
