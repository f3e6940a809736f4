import { describe, expect, test } from 'bun:test'
import type { Facts, FundingFact, HolderAccount } from '../../src/facts/types.ts'
import type { FactView } from '../../src/pipeline/signal.ts'
import walletClustering from './index.ts'
import { FUNDING_BURST_SLOTS, linkWallets } from '../../src/pipeline/derive/wallet-links.ts'

const view = (facts: Partial<Facts>): FactView => ({ get: (name) => facts[name] as never })
const funded = (wallet: string, funder: string | null, slot: bigint | null = 100n) => ({
  wallet,
  funder,
  amount: 1_000_000_000n,
  slot,
})
const funding = (...wallets: FundingFact['wallets']): FundingFact => ({ wallets })
const holder = (owner: string, pct: number): HolderAccount => ({
  address: `${owner}-ata`,
  owner,
  amount: 0n,
  pct,
  kind: 'wallet',
})

describe('linkWallets', () => {
  const cases: { name: string; funding: FundingFact; linked: string[]; creatorLinked: string[] }[] = [
    {
      name: "creator-funded wallets are the creator's, whatever the timing",
      funding: funding(funded('a', 'dev', 1n), funded('b', 'dev', 9_000n)),
      linked: ['a', 'b'],
      creatorLinked: ['a', 'b'],
    },
    {
      name: "a traced wallet that funded the creator is the creator's",
      funding: funding(funded('dev', 'a'), funded('a', 'cex', 5n)),
      linked: ['a'],
      creatorLinked: ['a'],
    },
    {
      name: 'three wallets paid by one funder in one sitting are linked',
      funding: funding(funded('a', 'op', 100n), funded('b', 'op', 101n), funded('c', 'op', 100n + FUNDING_BURST_SLOTS)),
      linked: ['a', 'b', 'c'],
      creatorLinked: [],
    },
    {
      name: 'two wallets paid together are not enough',
      funding: funding(funded('a', 'op', 100n), funded('b', 'op', 101n)),
      linked: [],
      creatorLinked: [],
    },
    {
      name: 'a funder paying at unrelated times is a public source (exchange, faucet)',
      funding: funding(
        funded('a', 'cex', 100n),
        funded('b', 'cex', 101n),
        funded('c', 'cex', 102n),
        funded('d', 'cex', 90_000n),
      ),
      linked: [],
      creatorLinked: [],
    },
    {
      name: 'a sitting that also paid the creator links the wallets to it',
      funding: funding(funded('dev', 'op', 100n), funded('a', 'op', 101n), funded('b', 'op', 102n)),
      linked: ['a', 'b'],
      creatorLinked: ['a', 'b'],
    },
    {
      name: 'a traced wallet paying another links both',
      funding: funding(funded('a', 'cex', 5n), funded('b', 'a', 9n)),
      linked: ['a', 'b'],
      creatorLinked: [],
    },
    {
      name: 'unknown funders link nobody',
      funding: funding(funded('a', null, null), funded('b', null, null), funded('c', null, null)),
      linked: [],
      creatorLinked: [],
    },
  ]
  for (const entry of cases)
    test(entry.name, () => {
      const links = linkWallets(entry.funding, 'dev')
      expect([...links.linked].sort()).toEqual(entry.linked)
      expect([...links.creatorLinked].sort()).toEqual(entry.creatorLinked)
    })
})

describe('wallet-clustering signal', () => {
  const detect = (facts: Partial<Facts>) =>
    walletClustering.detect(view(facts), walletClustering.meta.defaults, { mint: 'm', now: 0 })
  const launch = { creator: 'dev' } as Facts['launch']

  test('unknown without funding, holders or launch (no invented zero)', () => {
    const outcome = detect({
      holders: { source: 'rpc', supply: 1n, accounts: [], top10WalletPct: 0, excludedPct: 0 },
      launch,
    })
    expect(outcome).toMatchObject({ status: 'unknown', missing: ['funding'], fields: {} })
  })

  test('developer-funded wallets: linked, insiders are the creator plus them', () => {
    const outcome = detect({
      funding: funding(
        funded('a', 'dev'),
        funded('b', 'dev'),
        funded('c', 'dev'),
        funded('x', 'cex', 5n),
        funded('y', 'cex', 90_000n),
      ),
      holders: {
        source: 'rpc',
        supply: 1n,
        accounts: [holder('dev', 10), holder('a', 8), holder('b', 4), holder('x', 30)],
        top10WalletPct: 52,
        excludedPct: 0,
      },
      launch,
    })
    expect(outcome.fields.wallet_analysis).toEqual({
      clustered_wallets: 3,
      insider_control_percent: 22,
      dev_wallet_linked: true,
      wallets_traced: 5,
    })
    expect(outcome.factors.map((entry) => entry.code)).toEqual(['DEV_LINKED_WALLETS', 'INSIDER_CONTROL_HIGH'])
  })

  test("holders from the token list (no account known): links still found, insiders' share not measured (null)", () => {
    const outcome = detect({
      funding: funding(funded('a', 'dev'), funded('b', 'dev'), funded('c', 'dev')),
      holders: { source: 'token_list', supply: 1n, accounts: [], top10WalletPct: 52, excludedPct: 0 },
      launch,
    })
    expect(outcome.fields.wallet_analysis).toEqual({
      clustered_wallets: 3,
      insider_control_percent: null,
      dev_wallet_linked: true,
      wallets_traced: 3,
    })
    expect(outcome.factors.map((entry) => entry.code)).toEqual(['DEV_LINKED_WALLETS'])
  })

  test("the creator's own share without any linked wallet is reported but left to holder-concentration", () => {
    const outcome = detect({
      funding: funding(funded('x', 'cex', 5n)),
      holders: { source: 'rpc', supply: 1n, accounts: [holder('dev', 40)], top10WalletPct: 40, excludedPct: 0 },
      launch,
    })
    expect(outcome).toMatchObject({
      status: 'ok',
      factors: [],
      fields: { wallet_analysis: { clustered_wallets: 0, insider_control_percent: 40, dev_wallet_linked: false } },
    })
  })
})
