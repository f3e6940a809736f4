import { describe, expect, test } from 'bun:test'
import { normaliseExtensions } from '../../src/facts/mint.ts'
import type { MintFact } from '../../src/facts/types.ts'
import { issuerEntry, run, tokenList } from '../../test/support/facts/index.ts'
import authorityExemption from './index.ts'

const MINTER = 'Mint3r1111111111111111111111111111111111111'
const FREEZER = 'Freez3r111111111111111111111111111111111111'
const OTHER = 'Other11111111111111111111111111111111111111'

const mint = (mintAuthority: string | null, freezeAuthority: string | null): MintFact => ({
  program: 'spl-token',
  supply: 1n,
  decimals: 6,
  mintAuthority,
  freezeAuthority,
  extensions: normaliseExtensions([]),
})
const registered = issuerEntry({ mintAuthority: MINTER, freezeAuthority: FREEZER })
const codes = (outcome: ReturnType<typeof run>) => outcome.factors.map((entry) => entry.code)

describe('authority-exemption: the issuer registry decides, the token list never does', () => {
  test.each([
    ['a verified token tagged stablecoin that is not registered', null, tokenList(true, ['verified', 'stablecoin'])],
    ['a token tagged lst that is not registered', null, tokenList(true, ['lst'])],
  ])('%s: no exemption', (_, issuer, list) => {
    expect(run(authorityExemption, { issuer, mint: mint(MINTER, FREEZER), token_list: list })).toEqual({
      status: 'ok',
      factors: [],
      fields: { authority_exempt: false },
    })
  })

  test('registered, its authorities the registered ones: exempt, the list as supporting evidence only', () => {
    const outcome = run(authorityExemption, {
      issuer: registered,
      mint: mint(MINTER, FREEZER),
      token_list: tokenList(true, ['community', 'strict', 'verified']),
    })
    expect(outcome.fields).toEqual({ authority_exempt: true })
    expect(outcome.factors).toEqual([
      expect.objectContaining({
        code: 'AUTHORITY_EXEMPT',
        severity: 'info',
        impact: 0,
        title: 'Issuer-controlled asset (Test Issuer)',
        evidence: { issuer: 'Test Issuer', kind: 'fiat_stablecoin', symbol: 'USDX', token_list_verified: true },
      }),
    ])
  })

  test('registered and unlisted (or the list missing): still exempt — the list is not needed', () => {
    expect(run(authorityExemption, { issuer: registered, mint: mint(MINTER, null) }).fields).toEqual({
      authority_exempt: true,
    })
  })

  test('registered with revoked authorities, or without registered authorities: exempt', () => {
    expect(run(authorityExemption, { issuer: registered, mint: mint(null, null) }).fields.authority_exempt).toBe(true)
    expect(run(authorityExemption, { issuer: issuerEntry(), mint: mint(OTHER, OTHER) }).fields.authority_exempt).toBe(
      true,
    )
  })

  test('a registered mint whose live authority is not the registered one: flagged, not exempt', () => {
    const outcome = run(authorityExemption, { issuer: registered, mint: mint(MINTER, OTHER) })
    expect(outcome.fields).toEqual({ authority_exempt: false })
    expect(codes(outcome)).toEqual(['ISSUER_AUTHORITY_CHANGED'])
    expect(outcome.factors[0]).toMatchObject({
      severity: 'high',
      impact: 0,
      evidence: { mismatched: [{ authority: 'freeze', registered: FREEZER, live: OTHER }] },
    })
    expect(outcome.factors[0]!.detail).toContain(`its freeze authority is ${OTHER}, not the registered ${FREEZER}`)
  })

  test('no registry loaded: unknown naming issuer, no exemption (false, not null)', () => {
    expect(run(authorityExemption, { mint: mint(MINTER, FREEZER) })).toMatchObject({
      status: 'unknown',
      missing: ['issuer'],
      fields: { authority_exempt: false },
    })
  })

  test.each([
    ['registered', registered],
    ['not registered', null],
  ])('%s but the mint unread: unknown naming mint, no exemption', (_, issuer) => {
    expect(run(authorityExemption, { issuer })).toMatchObject({
      status: 'unknown',
      missing: ['mint'],
      fields: { authority_exempt: false },
    })
  })
})
