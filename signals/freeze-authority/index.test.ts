import { describe, expect, test } from 'bun:test'
import { normaliseExtensions } from '../../src/facts/mint.ts'
import type { MintFact, TokenListFact } from '../../src/facts/types.ts'
import type { Factor } from '../../src/pipeline/signal.ts'
import { MINT, NOW, run } from '../../src/pipeline/derive/test-facts.ts'
import freezeAuthority from './index.ts'

const FREEZER = 'Freez3r111111111111111111111111111111111111'
const MINTER = 'Mint3r1111111111111111111111111111111111111'

const mint = (freezeAuthority: string | null, mintAuthority: string | null = null): MintFact => ({
  program: 'spl-token',
  supply: 1_000_000_000_000n,
  decimals: 6,
  mintAuthority,
  freezeAuthority,
  extensions: normaliseExtensions([]),
})

const list = (verified: boolean, tags: string[], listed = true): TokenListFact => ({
  listed,
  verified,
  tags,
  logoUri: null,
})

const live = (authority: string, impact = -15): Factor => ({
  code: 'FREEZE_AUTHORITY_LIVE',
  signal: 'freeze-authority',
  severity: 'high',
  impact,
  hard_fail: false,
  title: 'Freeze authority live',
  detail: "A wallet can freeze any holder's account, stopping it from selling.",
  evidence: { authority },
})

const exempt = (authority: string): Factor => ({
  code: 'FREEZE_AUTHORITY_LIVE_EXEMPT',
  signal: 'freeze-authority',
  severity: 'info',
  impact: 0,
  hard_fail: false,
  title: 'Freeze authority live (issuer-controlled asset)',
  detail: 'The issuer can freeze accounts, as a regulated stablecoin must; not penalised.',
  evidence: { authority },
})

describe('freeze-authority', () => {
  const cases: { name: string; mint: MintFact; list?: TokenListFact; factors: Factor[]; revoked: boolean }[] = [
    { name: 'revoked, no token list: clean', mint: mint(null), factors: [], revoked: true },
    {
      name: 'revoked on a verified stablecoin: clean, no exemption note',
      mint: mint(null),
      list: list(true, ['stablecoin']),
      factors: [],
      revoked: true,
    },
    {
      name: 'revoked while the mint authority is live: clean (not this signal)',
      mint: mint(null, MINTER),
      factors: [],
      revoked: true,
    },
    {
      name: 'live, token list not gathered: penalised (no exemption without the list)',
      mint: mint(FREEZER),
      factors: [live(FREEZER)],
      revoked: false,
    },
    {
      name: 'live, not on the token list: penalised',
      mint: mint(FREEZER),
      list: list(false, [], false),
      factors: [live(FREEZER)],
      revoked: false,
    },
    {
      name: 'live, verified without an exempt tag: penalised',
      mint: mint(FREEZER),
      list: list(true, ['verified', 'community']),
      factors: [live(FREEZER)],
      revoked: false,
    },
    {
      name: 'live, tagged stablecoin but not verified: penalised',
      mint: mint(FREEZER),
      list: list(false, ['stablecoin']),
      factors: [live(FREEZER)],
      revoked: false,
    },
    {
      name: 'live on a verified stablecoin: info, not penalised',
      mint: mint(FREEZER),
      list: list(true, ['stablecoin']),
      factors: [exempt(FREEZER)],
      revoked: false,
    },
    {
      name: 'live on a verified wrapped asset: info, not penalised',
      mint: mint(FREEZER),
      list: list(true, ['verified', 'wrapped']),
      factors: [exempt(FREEZER)],
      revoked: false,
    },
    {
      name: 'live on a verified liquid staking token: info, not penalised',
      mint: mint(FREEZER),
      list: list(true, ['lst']),
      factors: [exempt(FREEZER)],
      revoked: false,
    },
    {
      name: 'the evidence names the freeze authority, not the mint authority',
      mint: mint(FREEZER, MINTER),
      factors: [live(FREEZER)],
      revoked: false,
    },
  ]

  test.each(cases)('$name', ({ mint, list, factors, revoked }) => {
    const outcome = run(freezeAuthority, list ? { mint, token_list: list } : { mint })
    expect(outcome).toEqual({ status: 'ok', factors, fields: { freeze_authority_revoked: revoked } })
  })

  test.each([
    { penalty: -30, impact: -30 },
    { penalty: 0, impact: 0 },
  ])('the penalty comes from the options ($penalty)', ({ penalty, impact }) => {
    const outcome = freezeAuthority.detect(
      { get: (name) => (name === 'mint' ? mint(FREEZER) : undefined) as never },
      { penalty },
      { mint: MINT, now: NOW },
    )
    expect(outcome).toEqual({
      status: 'ok',
      factors: [live(FREEZER, impact)],
      fields: { freeze_authority_revoked: false },
    })
  })

  test('the exemption ignores the penalty option: always 0', () => {
    const outcome = freezeAuthority.detect(
      {
        get: (name) =>
          (name === 'mint' ? mint(FREEZER) : name === 'token_list' ? list(true, ['stablecoin']) : undefined) as never,
      },
      { penalty: -30 },
      { mint: MINT, now: NOW },
    )
    expect(outcome.factors).toEqual([exempt(FREEZER)])
  })

  test.each([
    { name: 'nothing gathered', facts: {} },
    { name: 'only the token list (an exempt one)', facts: { token_list: list(true, ['stablecoin']) } },
  ])('mint not gathered ($name): unknown, naming mint, no penalty, field null', ({ facts }) => {
    expect(run(freezeAuthority, facts)).toEqual({
      status: 'unknown',
      missing: ['mint'],
      factors: [
        {
          code: 'UNKNOWN',
          signal: 'freeze-authority',
          severity: 'info',
          impact: 0,
          hard_fail: false,
          title: 'Freeze authority: not assessed',
          detail: 'Could not be assessed: mint could not be gathered.',
          evidence: { missing: ['mint'] },
        },
      ],
      fields: { freeze_authority_revoked: null },
    })
  })
})
