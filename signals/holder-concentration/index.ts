import { Type } from '@sinclair/typebox'
import { defineSignal, finding, ok, signalMeta, unknownOutcome, type Factor } from '../../src/pipeline/signal.ts'
import { pct } from '../../src/rendering/format.ts'

const meta = signalMeta({
  id: 'holder-concentration',
  riskGroup: 'market_risk',
  version: '1.1.0',
  title: 'Holder concentration',
  risk: 'A few wallets hold most of the supply (pool vaults, burns and lockers excluded).',
  why: 'Whoever holds the float sets the price: one large holder selling can crash it, and concentrated supply is how insiders exit on buyers.',
  scanners: ['quick_scan', 'deep_dive'],
  facts: ['holders'],
  impact: 'high',
  confidence: 'high',
  options: Type.Object({ extremePct: Type.Number(), highPct: Type.Number(), singlePct: Type.Number() }),
  // The reference scoring's bands (>90% −35, >60% −20); a single wallet over 30% can halve the price alone.
  defaults: { extremePct: 90, highPct: 60, singlePct: 30 },
  findings: {
    TOP10_EXTREME: {
      severity: 'critical',
      points: -35,
      when: 'the ten largest wallets hold more than `extremePct` of the supply',
      why: 'The reference band; wallets only (pool vaults, burns, lockers excluded) when read on chain',
    },
    TOP10_HIGH: {
      severity: 'high',
      points: -20,
      when: 'the ten largest wallets hold more than `highPct`',
      why: 'The reference band',
    },
    SINGLE_HOLDER_DOMINANT: {
      severity: 'high',
      points: -10,
      when: 'one wallet holds more than `singlePct`',
      why: 'One wallet can halve the price alone',
    },
  },
})

export default defineSignal({
  meta,
  detect(facts, options) {
    const holders = facts.get('holders')
    if (!holders) return unknownOutcome(meta, ['holders'], { top_10_holder_pct: null, holders_source: null })
    const top10 = holders.top10WalletPct
    // From the token list's audit the share is its top holders', pools not excluded, and no single
    // account is known (the RPC refused the largest accounts): said in every title and in the answer.
    const fromList = holders.source === 'token_list'
    const who = fromList ? 'Top holders (token list)' : 'Top 10 wallets'
    const evidence = { top_10_holder_pct: top10, source: holders.source }
    const largest = holders.accounts
      .filter((account) => account.kind === 'wallet')
      .reduce((max, account) => Math.max(max, account.pct), 0)
    const found: Factor[] = []
    if (top10 > options.extremePct)
      found.push(
        finding(
          meta,
          options,
          'TOP10_EXTREME',
          `${who} hold ${pct(top10)}`,
          'Almost the whole float is in ten wallets.',
          evidence,
        ),
      )
    else if (top10 > options.highPct)
      found.push(
        finding(
          meta,
          options,
          'TOP10_HIGH',
          `${who} hold ${pct(top10)}`,
          'Most of the float is in ten wallets.',
          evidence,
        ),
      )
    if (largest > options.singlePct)
      found.push(
        finding(
          meta,
          options,
          'SINGLE_HOLDER_DOMINANT',
          `One wallet holds ${pct(largest)}`,
          'A single wallet can move the price on its own.',
          { largest_pct: largest },
        ),
      )
    return ok(found, { top_10_holder_pct: top10, holders_source: holders.source })
  },
})
