import { describe, expect, test } from 'bun:test'
import { normaliseExtensions } from '../../src/facts/mint.ts'
import type { MintFact, TokenListFact } from '../../src/facts/types.ts'
import type { Factor } from '../../src/pipeline/signal.ts'
import { MINT, NOW, run } from '../../src/pipeline/derive/test-facts.ts'
import mintAuthority from './index.ts'

const MINTER = 'Mint3r1111111111111111111111111111111111111'
const FREEZER = 'Freez3r111111111111111111111111111111111111'

const mint = (mintAuthority: string | null, freezeAuthority: string | null = null): MintFact => ({
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

const live = (authority: string, impact = -25): Factor => ({
  code: 'MINT_AUTHORITY_LIVE',
  signal: 'mint-authority',
  severity: 'high',
  impact,
  hard_fail: false,
  title: 'Mint authority live',
  detail: 'A wallet can still mint new tokens and dilute holders.',
  evidence: { authority },
})

const exempt = (authority: string): Factor => ({
  code: 'MINT_AUTHORITY_LIVE_EXEMPT',
  signal: 'mint-authority',
  severity: 'info',
  impact: 0,
  hard_fail: false,
  title: 'Mint authority live (issuer-controlled asset)',
  detail: 'The issuer can mint, as a verified stablecoin or wrapped asset must; not penalised.',
  evidence: { authority },
})

describe('mint-authority', () => {
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
      name: 'revoked while the freeze authority is live: clean (not this signal)',
      mint: mint(null, FREEZER),
      factors: [],
      revoked: true,
    },
    {
      name: 'live, token list not gathered: penalised (no exemption without the list)',
      mint: mint(MINTER),
      factors: [live(MINTER)],
      revoked: false,
    },
    {
      name: 'live, not on the token list: penalised',
      mint: mint(MINTER),
      list: list(false, [], false),
      factors: [live(MINTER)],
      revoked: false,
    },
    {
      name: 'live, verified without an exempt tag: penalised',
      mint: mint(MINTER),
      list: list(true, ['verified', 'community']),
      factors: [live(MINTER)],
      revoked: false,
    },
    {
      name: 'live, tagged stablecoin but not verified: penalised',
      mint: mint(MINTER),
      list: list(false, ['stablecoin']),
      factors: [live(MINTER)],
      revoked: false,
    },
    {
      name: 'live on a verified stablecoin: info, not penalised',
      mint: mint(MINTER),
      list: list(true, ['stablecoin']),
      factors: [exempt(MINTER)],
      revoked: false,
    },
    {
      name: 'live on a verified wrapped asset: info, not penalised',
      mint: mint(MINTER),
      list: list(true, ['verified', 'wrapped']),
      factors: [exempt(MINTER)],
      revoked: false,
    },
    {
      name: 'live on a verified liquid staking token: info, not penalised',
      mint: mint(MINTER),
      list: list(true, ['lst']),
      factors: [exempt(MINTER)],
      revoked: false,
    },
    {
      name: 'the evidence names the mint authority, not the freeze authority',
      mint: mint(MINTER, FREEZER),
      factors: [live(MINTER)],
      revoked: false,
    },
  ]

  test.each(cases)('$name', ({ mint, list, factors, revoked }) => {
    const outcome = run(mintAuthority, list ? { mint, token_list: list } : { mint })
    expect(outcome).toEqual({ status: 'ok', factors, fields: { mint_authority_revoked: revoked } })
  })

  test.each([
    { penalty: -40, impact: -40 },
    { penalty: 0, impact: 0 },
  ])('the penalty comes from the options ($penalty)', ({ penalty, impact }) => {
    const outcome = mintAuthority.detect(
      { get: (name) => (name === 'mint' ? mint(MINTER) : undefined) as never },
      { penalty },
      { mint: MINT, now: NOW },
    )
    expect(outcome).toEqual({
      status: 'ok',
      factors: [live(MINTER, impact)],
      fields: { mint_authority_revoked: false },
    })
  })

  test('the exemption ignores the penalty option: always 0', () => {
    const outcome = mintAuthority.detect(
      {
        get: (name) =>
          (name === 'mint' ? mint(MINTER) : name === 'token_list' ? list(true, ['stablecoin']) : undefined) as never,
      },
      { penalty: -40 },
      { mint: MINT, now: NOW },
    )
    expect(outcome.factors).toEqual([exempt(MINTER)])
  })

  test.each([
    { name: 'nothing gathered', facts: {} },
    { name: 'only the token list (an exempt one)', facts: { token_list: list(true, ['stablecoin']) } },
  ])('mint not gathered ($name): unknown, naming mint, no penalty, field null', ({ facts }) => {
    const outcome = run(mintAuthority, facts)
    expect(outcome).toEqual({
      status: 'unknown',
      missing: ['mint'],
      factors: [
        {
          code: 'UNKNOWN',
          signal: 'mint-authority',
          severity: 'info',
          impact: 0,
          hard_fail: false,
          title: 'Mint authority: not assessed',
          detail: 'Could not be assessed: mint could not be gathered.',
          evidence: { missing: ['mint'] },
        },
      ],
      fields: { mint_authority_revoked: null },
    })
  })
})
