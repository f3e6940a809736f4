import { describe, expect, test } from 'bun:test'
import { normaliseExtensions } from '../../src/facts/mint.ts'
import type { TokenListFact } from '../../src/facts/types.ts'
import type { Factor } from '../../src/pipeline/signal.ts'
import { run, tokenList } from '../../src/pipeline/derive/test-facts.ts'
import authorityExemption from './index.ts'

const list = tokenList

const exempt = (shown: string, tags: string[]): Factor => ({
  code: 'AUTHORITY_EXEMPT',
  signal: 'authority-exemption',
  severity: 'info',
  impact: 0,
  hard_fail: false,
  title: 'Issuer-controlled asset',
  detail: `Verified on the token list as ${shown}: its live authorities are expected and not penalised.`,
  evidence: { tags },
})

describe('authority-exemption', () => {
  const cases: { name: string; list: TokenListFact; factors: Factor[]; exempt: boolean }[] = [
    { name: 'not on the token list: no exemption', list: list(false, [], false), factors: [], exempt: false },
    {
      name: 'listed, unverified, no tags: no exemption',
      list: list(false, []),
      factors: [],
      exempt: false,
    },
    {
      name: 'verified without an exempt tag: no exemption',
      list: list(true, ['verified', 'community']),
      factors: [],
      exempt: false,
    },
    {
      name: 'tagged stablecoin but not verified: no exemption',
      list: list(false, ['stablecoin']),
      factors: [],
      exempt: false,
    },
    {
      name: 'tagged wrapped and lst but not verified: no exemption',
      list: list(false, ['wrapped', 'lst']),
      factors: [],
      exempt: false,
    },
    {
      name: 'verified stablecoin: exempt',
      list: list(true, ['stablecoin']),
      factors: [exempt('stablecoin', ['stablecoin'])],
      exempt: true,
    },
    {
      name: 'verified wrapped asset: exempt',
      list: list(true, ['wrapped']),
      factors: [exempt('wrapped', ['wrapped'])],
      exempt: true,
    },
    {
      name: 'verified liquid staking token: exempt',
      list: list(true, ['lst']),
      factors: [exempt('lst', ['lst'])],
      exempt: true,
    },
    {
      name: 'the detail names only the exempt tags; the evidence keeps every tag',
      list: list(true, ['verified', 'lst', 'community', 'wrapped']),
      factors: [exempt('lst, wrapped', ['verified', 'lst', 'community', 'wrapped'])],
      exempt: true,
    },
  ]

  test.each(cases)('$name', ({ list, factors, exempt }) => {
    expect(run(authorityExemption, { token_list: list })).toEqual({
      status: 'ok',
      factors,
      fields: { authority_exempt: exempt },
    })
  })

  test('reads only the token list: a mint with live authorities changes nothing', () => {
    const mint = {
      program: 'spl-token' as const,
      supply: 1n,
      decimals: 6,
      mintAuthority: 'Mint3r1111111111111111111111111111111111111',
      freezeAuthority: 'Freez3r111111111111111111111111111111111111',
      extensions: normaliseExtensions([]),
    }
    expect(run(authorityExemption, { mint, token_list: list(true, ['stablecoin']) })).toEqual({
      status: 'ok',
      factors: [exempt('stablecoin', ['stablecoin'])],
      fields: { authority_exempt: true },
    })
    expect(run(authorityExemption, { mint, token_list: list(true, ['community']) })).toEqual({
      status: 'ok',
      factors: [],
      fields: { authority_exempt: false },
    })
  })

  test('token list not gathered: unknown, naming token_list, and no exemption granted (false, not null)', () => {
    expect(run(authorityExemption, {})).toEqual({
      status: 'unknown',
      missing: ['token_list'],
      factors: [
        {
          code: 'UNKNOWN',
          signal: 'authority-exemption',
          severity: 'info',
          impact: 0,
          hard_fail: false,
          title: 'Issuer-controlled asset: not assessed',
          detail: 'Could not be assessed: token_list could not be gathered.',
          evidence: { missing: ['token_list'] },
        },
      ],
      fields: { authority_exempt: false },
    })
  })
})
