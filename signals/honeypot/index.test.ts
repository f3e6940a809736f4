import { issuerEntry, tokenList } from '../../test/support/facts/index.ts'
import { describe, expect, test } from 'bun:test'
import { normaliseExtensions } from '../../src/facts/mint.ts'
import type { Facts, MintExtensions, MintFact } from '../../src/facts/types.ts'
import type { FactView } from '../../src/pipeline/signal.ts'
import honeypot from './index.ts'

/** A mint without extensions, as the data layer reads one. */
const NO_EXTENSIONS: MintExtensions = normaliseExtensions([])
const mint = (extensions: Partial<MintExtensions> = {}, freezeAuthority: string | null = null): MintFact => ({
  program: 'spl-token-2022',
  supply: 1n,
  decimals: 6,
  mintAuthority: null,
  freezeAuthority,
  extensions: { ...NO_EXTENSIONS, ...extensions },
})
const pair = { pairAddress: 'p' } as Facts['market']['pairs'][number]
const traded = { market: { pairs: [pair] }, pools: { pools: [] }, launchpad: { pumpFun: null } }
const untraded = { market: { pairs: [] }, pools: { pools: [] }, launchpad: { pumpFun: null } }
const registered = issuerEntry()
const view = (facts: Partial<Facts>): FactView => ({ get: (name) => facts[name] as never })
const detect = (facts: Partial<Facts>) => honeypot.detect(view(facts), {}, { mint: 'm', now: 0 })

describe('honeypot', () => {
  const cases: { name: string; facts: Partial<Facts>; honeypot: boolean; code: string | null }[] = [
    { name: 'plain token with a market', facts: { mint: mint(), ...traded }, honeypot: false, code: null },
    {
      name: 'non-transferable',
      facts: { mint: mint({ nonTransferable: true }), ...traded },
      honeypot: true,
      code: 'HONEYPOT',
    },
    {
      name: 'paused',
      facts: { mint: mint({ pausable: { authority: 'x', paused: true } }), ...traded },
      honeypot: true,
      code: 'HONEYPOT',
    },
    {
      name: 'paused with its authority revoked: paused for good',
      facts: { mint: mint({ pausable: { authority: null, paused: true } }), ...traded },
      honeypot: true,
      code: 'HONEYPOT',
    },
    {
      name: 'accounts frozen by default',
      facts: { mint: mint({ defaultAccountState: 'frozen' }, 'x'), ...traded },
      honeypot: true,
      code: 'HONEYPOT',
    },
    {
      name: 'frozen by default but a registered issuer-controlled asset (permissioned by design)',
      facts: { mint: mint({ defaultAccountState: 'frozen' }, 'x'), issuer: registered, ...traded },
      honeypot: false,
      code: null,
    },
    {
      name: 'frozen by default and verified, tagged stablecoin on the list, but not registered: a honeypot',
      facts: {
        mint: mint({ defaultAccountState: 'frozen' }, 'x'),
        token_list: tokenList(true, ['verified', 'stablecoin']),
        ...traded,
      },
      honeypot: true,
      code: 'HONEYPOT',
    },
    {
      name: 'nothing to sell into: no pair, no pool, no live curve',
      facts: { mint: mint(), ...untraded },
      honeypot: true,
      code: 'HONEYPOT',
    },
    {
      name: 'a live bonding curve is a sell route',
      facts: {
        mint: mint(),
        ...untraded,
        launchpad: {
          pumpFun: { bondingCurve: 'c', complete: false, realQuoteReserves: 1n, creator: null, graduatedPool: null },
        },
      },
      honeypot: false,
      code: null,
    },
    {
      name: 'freeze authority live: sellable today, blockable at will',
      facts: { mint: mint({}, 'x'), ...traded },
      honeypot: false,
      code: 'SELL_BLOCKABLE',
    },
    {
      name: 'a live pause switch: sellable today, blockable at will',
      facts: { mint: mint({ pausable: { authority: 'x', paused: false } }), ...traded },
      honeypot: false,
      code: 'SELL_BLOCKABLE',
    },
    {
      name: 'a pause switch whose authority is revoked, not paused: nobody can pause it',
      facts: { mint: mint({ pausable: { authority: null, paused: false } }), ...traded },
      honeypot: false,
      code: null,
    },
    {
      name: 'transfer hook: its program is not read, so a risk, not a certainty',
      facts: { mint: mint({ transferHook: { programId: 'h', authority: null } }), ...traded },
      honeypot: false,
      code: 'SELL_BLOCKABLE',
    },
  ]
  for (const entry of cases)
    test(entry.name, () => {
      const outcome = detect(entry.facts)
      expect(outcome).toMatchObject({ status: 'ok', fields: { is_honeypot: entry.honeypot } })
      expect(outcome.factors.map((factor) => factor.code)).toEqual(entry.code ? [entry.code] : [])
      expect(outcome.factors.some((factor) => factor.hard_fail)).toBe(entry.honeypot)
    })

  test('a blocker on the mint is certain even without market data', () => {
    expect(detect({ mint: mint({ nonTransferable: true }) })).toMatchObject({
      status: 'ok',
      fields: { is_honeypot: true },
    })
  })

  test('no blocker but the sell route unreadable: unknown, no verdict', () => {
    expect(detect({ mint: mint(), market: { pairs: [] } })).toMatchObject({
      status: 'unknown',
      missing: ['pools', 'launchpad'],
      fields: {},
    })
    expect(detect({})).toMatchObject({ status: 'unknown', missing: ['mint'], fields: {} })
  })
})
