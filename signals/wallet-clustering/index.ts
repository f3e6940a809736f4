import { Type } from '@sinclair/typebox'
import {
  defineSignal,
  finding,
  missingOf,
  ok,
  signalMeta,
  unknownOutcome,
  type Factor,
} from '../../src/pipeline/signal.ts'
import { linkWallets } from '../../src/pipeline/derive/wallet-links.ts'
import { count, pct } from '../../src/rendering/format.ts'

const meta = signalMeta({
  id: 'wallet-clustering',
  riskGroup: 'behavioral_risk',
  version: '1.1.0',
  title: 'Wallet clustering',
  risk: 'Largest holders and first buyers that share a funder, or were funded by the developer: one operator behind many wallets.',
  why: 'Supply spread over wallets one person controls looks distributed but sells as one; developer-funded wallets are the developer.',
  scanners: ['deep_dive'],
  facts: ['funding', 'holders', 'launch'],
  impact: 'high',
  confidence: 'medium',
  options: Type.Object({
    clusterWallets: Type.Integer({ minimum: 1 }),
    insiderPct: Type.Number({ minimum: 0, maximum: 100 }),
    insiderExtremePct: Type.Number({ minimum: 0, maximum: 100 }),
  }),
  // Three linked wallets is a deliberate set-up; insiders with a fifth of the supply can halve the
  // price on exit, with half they own the market.
  defaults: { clusterWallets: 3, insiderPct: 20, insiderExtremePct: 50 },
  findings: {
    DEV_LINKED_WALLETS: {
      severity: 'high',
      points: -15,
      when: 'traced wallets were funded by, or funded, the creator',
      why: 'The developer holds more than its own wallet shows',
    },
    WALLET_CLUSTER: {
      severity: 'medium',
      points: -10,
      when: 'at least `clusterWallets` wallets share a non-creator funder in one sitting',
      why: 'One operator behind several "holders"',
    },
    INSIDER_CONTROL_EXTREME: {
      severity: 'critical',
      points: -20,
      when: 'linked wallets and the creator hold at least `insiderExtremePct`',
      why: 'Insiders can take the pool on exit',
    },
    INSIDER_CONTROL_HIGH: {
      severity: 'medium',
      points: -10,
      when: 'linked wallets and the creator hold at least `insiderPct`',
      why: 'A fifth of the supply can halve the price on exit',
    },
  },
})

const round2 = (value: number) => Math.round(value * 100) / 100

export default defineSignal({
  meta,
  detect(facts, options) {
    const missing = missingOf(facts, meta.facts)
    if (missing.length > 0) return unknownOutcome(meta, missing)
    const funding = facts.get('funding')!
    const holders = facts.get('holders')!
    const creator = facts.get('launch')!.creator
    const links = linkWallets(funding, creator)
    const insiders = new Set([creator, ...links.linked])
    // Shares of the largest accounts only (the holders fact): a lower bound of what insiders hold. From
    // the token list no account is known, so what insiders hold is not measured (null, as the spec allows).
    const measured = holders.source === 'rpc'
    const insiderPct = round2(
      holders.accounts
        .filter((account) => account.kind === 'wallet' && account.owner !== null && insiders.has(account.owner))
        .reduce((sum, account) => sum + account.pct, 0),
    )
    const clustered = links.linked.size
    const devLinked = links.creatorLinked.size > 0
    const found: Factor[] = []
    const evidence = {
      clusters: links.clusters.map((cluster) => ({
        funder: cluster.funder,
        link: cluster.link,
        wallets: cluster.wallets.length,
        creator: cluster.creator,
      })),
      wallets_traced: funding.wallets.length,
    }
    if (devLinked)
      found.push(
        finding(
          meta,
          options,
          'DEV_LINKED_WALLETS',
          `${count(links.creatorLinked.size, 'wallet')} tied to the developer`,
          "Holders or first buyers got their first SOL from the developer wallet (or funded it): they are the developer's wallets.",
          { ...evidence, dev_linked_wallets: [...links.creatorLinked] },
        ),
      )
    const sharedFunder = links.clusters.filter(
      (cluster) => !cluster.creator && cluster.wallets.length >= options.clusterWallets,
    )
    if (sharedFunder.length > 0) {
      const wallets = new Set(sharedFunder.flatMap((cluster) => cluster.wallets))
      found.push(
        finding(
          meta,
          options,
          'WALLET_CLUSTER',
          `${count(wallets.size, 'wallet')} ${wallets.size === 1 ? 'shares' : 'share'} a funder`,
          'Several holders or first buyers were funded by one wallet in one sitting: one operator behind them.',
          { ...evidence, clustered_wallets: [...wallets] },
        ),
      )
    }
    if (measured && clustered > 0 && insiderPct >= options.insiderExtremePct)
      found.push(
        finding(
          meta,
          options,
          'INSIDER_CONTROL_EXTREME',
          `Insiders hold ${pct(insiderPct)}`,
          'The developer and its linked wallets hold half the supply or more.',
          { insider_control_percent: insiderPct },
        ),
      )
    else if (measured && clustered > 0 && insiderPct >= options.insiderPct)
      found.push(
        finding(
          meta,
          options,
          'INSIDER_CONTROL_HIGH',
          `Insiders hold ${pct(insiderPct)}`,
          'The developer and its linked wallets hold a fifth of the supply or more.',
          { insider_control_percent: insiderPct },
        ),
      )
    return ok(found, {
      wallet_analysis: {
        clustered_wallets: clustered,
        insider_control_percent: measured ? insiderPct : null,
        dev_wallet_linked: devLinked,
        wallets_traced: funding.wallets.length,
      },
    })
  },
})
