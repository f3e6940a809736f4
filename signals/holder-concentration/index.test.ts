import { describe, expect, test } from 'bun:test'
import type { Severity } from '../../src/pipeline/signal.ts'
import type { HolderAccount, HolderKind, HoldersFact } from '../../src/facts/types.ts'
import { codesOf, run } from '../../test/support/facts/index.ts'
import holderConcentration from './index.ts'

const SUPPLY = 1_000_000_000n

const account = (pct: number, kind: HolderKind = 'wallet', owner = `owner-${kind}-${pct}`): HolderAccount => ({
  address: `account-${owner}`,
  owner,
  amount: BigInt(Math.round(pct * 10_000_000)),
  pct,
  kind,
})

const holders = (top10WalletPct: number, accounts: HolderAccount[]): HoldersFact => ({
  source: 'rpc',
  supply: SUPPLY,
  accounts,
  top10WalletPct,
  excludedPct: accounts.filter((entry) => entry.kind !== 'wallet').reduce((sum, entry) => sum + entry.pct, 0),
})

/** Ten wallets of `each` percent: top 10 = 10 × each, largest = each. */
const spread = (each: number) => Array.from({ length: 10 }, (_, index) => account(each, 'wallet', `w${index}`))

type Expected = { code: string; severity: Severity; impact: number; evidence: Record<string, unknown> }

const extreme = (pct: number): Expected => ({
  code: 'TOP10_EXTREME',
  severity: 'critical',
  impact: -35,
  evidence: { top_10_holder_pct: pct, source: 'rpc' },
})
const high = (pct: number): Expected => ({
  code: 'TOP10_HIGH',
  severity: 'high',
  impact: -20,
  evidence: { top_10_holder_pct: pct, source: 'rpc' },
})
const single = (pct: number): Expected => ({
  code: 'SINGLE_HOLDER_DOMINANT',
  severity: 'high',
  impact: -10,
  evidence: { largest_pct: pct },
})

describe('holder-concentration', () => {
  const cases: { name: string; fact: HoldersFact; factors: Expected[] }[] = [
    { name: 'spread supply: clean', fact: holders(25, spread(2.5)), factors: [] },
    { name: 'no holder accounts at all: clean', fact: holders(0, []), factors: [] },
    { name: 'top 10 exactly at 60%: not over the high band', fact: holders(60, spread(6)), factors: [] },
    { name: 'top 10 just over 60%: high', fact: holders(60.01, spread(6.001)), factors: [high(60.01)] },
    { name: 'top 10 exactly at 90%: still high, not extreme', fact: holders(90, spread(9)), factors: [high(90)] },
    { name: 'top 10 just over 90%: extreme', fact: holders(90.01, spread(9.001)), factors: [extreme(90.01)] },
    {
      name: 'top 10 at 100%: extreme only (no double count with high)',
      fact: holders(100, spread(10)),
      factors: [extreme(100)],
    },
    {
      name: 'one wallet exactly at 30%: not dominant',
      fact: holders(40, [account(30), account(10)]),
      factors: [],
    },
    {
      name: 'one wallet just over 30%: dominant',
      fact: holders(40.01, [account(30.01), account(10)]),
      factors: [single(30.01)],
    },
    {
      name: 'a dominant wallet inside a high top 10: both findings, top 10 first',
      fact: holders(75, [account(50), account(25)]),
      factors: [high(75), single(50)],
    },
    {
      name: 'a dominant wallet inside an extreme top 10: both findings',
      fact: holders(95, [account(80), account(15)]),
      factors: [extreme(95), single(80)],
    },
    {
      name: 'pool vaults, burns and lockers are not wallets: never the dominant holder',
      fact: holders(20, [account(45, 'pool'), account(35, 'burn'), account(31, 'locker'), account(20)]),
      factors: [],
    },
    {
      name: 'the largest wallet counts even when listed after larger excluded accounts',
      fact: holders(55, [account(40, 'pool'), account(35, 'wallet', 'whale'), account(20)]),
      factors: [single(35)],
    },
  ]

  test.each(cases)('$name', ({ fact, factors }) => {
    const outcome = run(holderConcentration, { holders: fact })
    expect(outcome.status).toBe('ok')
    expect(outcome.fields).toEqual({ top_10_holder_pct: fact.top10WalletPct, holders_source: 'rpc' })
    expect(
      outcome.factors.map(({ code, severity, impact, evidence }) => ({ code, severity, impact, evidence })),
    ).toEqual(factors)
    for (const entry of outcome.factors) {
      expect(entry.signal).toBe('holder-concentration')
      expect(entry.hard_fail).toBe(false)
    }
  })

  test('the findings name the shares in their titles', () => {
    const outcome = run(holderConcentration, { holders: holders(95, [account(80), account(15)]) })
    expect(outcome.factors.map((entry) => entry.title)).toEqual(['Top 10 wallets hold 95%', 'One wallet holds 80%'])
  })

  test("from the token list: its top holders' share against the same bands, the source named", () => {
    const fromList: HoldersFact = { ...holders(72.5, []), source: 'token_list' }
    const outcome = run(holderConcentration, { holders: fromList })
    expect(outcome.fields).toEqual({ top_10_holder_pct: 72.5, holders_source: 'token_list' })
    expect(outcome.factors.map(({ code, title, evidence }) => ({ code, title, evidence }))).toEqual([
      {
        code: 'TOP10_HIGH',
        title: 'Top holders (token list) hold 72.5%',
        evidence: { top_10_holder_pct: 72.5, source: 'token_list' },
      },
    ])
  })

  test('thresholds come from the options', () => {
    const outcome = holderConcentration.detect(
      { get: (name) => (name === 'holders' ? holders(50, [account(25), account(25)]) : undefined) as never },
      { extremePct: 45, highPct: 30, singlePct: 20 },
      { mint: 'm', now: 0 },
    )
    expect(codesOf(outcome)).toEqual(['TOP10_EXTREME', 'SINGLE_HOLDER_DOMINANT'])
  })

  test('holders missing: unknown naming them, the share null, no penalty', () => {
    const outcome = run(holderConcentration, {})
    expect(outcome).toMatchObject({
      status: 'unknown',
      missing: ['holders'],
      fields: { top_10_holder_pct: null, holders_source: null },
    })
    expect(outcome.factors).toEqual([
      expect.objectContaining({ code: 'UNKNOWN', severity: 'info', impact: 0, evidence: { missing: ['holders'] } }),
    ])
  })
})
