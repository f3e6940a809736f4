import { describe, expect, test } from 'bun:test'
import { identityKey, lookalikeKeys } from '../../src/facts/known-assets.ts'
import type { KnownAsset, KnownAssetsFact, MetadataFact } from '../../src/facts/types.ts'
import { codesOf, issuerEntry, MINT, run, tokenList } from '../../test/support/facts/index.ts'
import impersonation from './index.ts'

const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
const WETH_MINT = '7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs'
const USD1_MINT = 'USD1ttGY1N17NEEHLmELoaybftRBUSErhqYiQzvEmuB'
const BONK_MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263'

const registered = (mint: string, symbol: string, name: string, kind: KnownAsset['kind']): KnownAsset => ({
  mint,
  symbol,
  name,
  source: 'issuer_registry',
  issuer: 'Issuer',
  kind,
})
const verified = (mint: string, symbol: string, name: string): KnownAsset => ({
  mint,
  symbol,
  name,
  source: 'verified_list',
  issuer: null,
  kind: null,
})
const REGISTRY = [
  registered(USDC_MINT, 'USDC', 'USD Coin', 'fiat_stablecoin'),
  registered(WETH_MINT, 'WETH', 'Wrapped Ether (Wormhole)', 'wrapped'),
  registered(USD1_MINT, 'USD1', 'World Liberty Financial USD', 'fiat_stablecoin'),
]
const known = (extra: KnownAsset[] = [], list: KnownAsset[] | null = []): KnownAssetsFact => ({
  registry: [...REGISTRY, ...extra],
  verified: list,
})
const metadata = (symbol: string | null, name: string | null): MetadataFact => ({
  source: 'metaplex',
  name,
  symbol,
  uri: null,
  updateAuthority: null,
  isMutable: true,
  logoUri: null,
})
/** The quick scan's facts for a token of MINT called `symbol` / `name`, unregistered and unverified. */
const detect = (symbol: string | null, name: string | null, overrides: Record<string, unknown> = {}) =>
  run(impersonation, {
    metadata: metadata(symbol, name),
    issuer: null,
    token_list: tokenList(false, [], false),
    known_assets: known(),
    ...overrides,
  })

describe('impersonation: a registered or verified asset’s symbol or name on another mint', () => {
  test.each([
    ['the same symbol and name', 'USDC', 'USD Coin', USDC_MINT, ['symbol', 'name']],
    ['lower case', 'usdc', 'usd coin', USDC_MINT, ['symbol', 'name']],
    ['a bridge’s dotted suffix (".a")', 'USDC.a', 'Bridged Dollar', USDC_MINT, ['symbol']],
    ['a Wormhole-style ".e"', 'WETH.e', 'Ether', WETH_MINT, ['symbol']],
    ['a Cyrillic Ѕ (U+0405) for the S', 'UЅDC', 'Dollar', USDC_MINT, ['symbol']],
    ['a Cyrillic С and a Greek Ο in the name', 'USX', 'USD Сοin', USDC_MINT, ['name']],
    ['trailing digits ("USDC2")', 'USDC2', 'USDC Two', USDC_MINT, ['symbol']],
    ['a Tether sign for a T ("WE₮H")', 'WE₮H', 'Wrapped', WETH_MINT, ['symbol']],
    ['full-width letters', 'ＵＳＤＣ', 'x', USDC_MINT, ['symbol']],
    ['a cashtag and dots', '$U.S.D.C', 'x', USDC_MINT, ['symbol']],
    ['an asset whose own symbol ends in digits ("USD1")', 'USD1', 'x', USD1_MINT, ['symbol']],
    ['only the name ("USD Coin" as "XYZ")', 'XYZ', 'USD Coin', USDC_MINT, ['name']],
  ] as const)('%s: IMPERSONATES_ASSET naming the real mint', (_, symbol, name, realMint, matched) => {
    const outcome = detect(symbol, name)
    expect(outcome.status).toBe('ok')
    expect(codesOf(outcome)).toEqual(['IMPERSONATES_ASSET'])
    expect(outcome.factors[0]).toMatchObject({
      severity: 'critical',
      impact: -40,
      grade_ceiling: 'D',
      evidence: { real_mint: realMint, matched: [...matched], sources: ['issuer_registry'] },
    })
    expect(outcome.factors[0]!.title).toContain(realMint)
    expect(outcome.factors[0]!.detail).toContain(realMint)
  })

  test('a verified token’s ticker, found by the token list’s search: named as verified', () => {
    const outcome = detect('BONK', 'Dog Coin', { known_assets: known([], [verified(BONK_MINT, 'Bonk', 'Bonk')]) })
    expect(outcome.factors[0]).toMatchObject({
      code: 'IMPERSONATES_ASSET',
      evidence: { real_mint: BONK_MINT, sources: ['verified_list'], matched: ['symbol'] },
    })
    expect(outcome.factors[0]!.detail).toContain('a verified token')
  })

  test('an asset in both lists is named first, with both sources; every look-alike is in the evidence', () => {
    const sandboxUsdc = 'SandboxUsdc1111111111111111111111111111111'
    const outcome = detect('USDC', 'USD Coin', {
      known_assets: known(
        [registered(sandboxUsdc, 'USDC', 'USD Coin', 'fiat_stablecoin')],
        [verified(sandboxUsdc, 'USDC', 'USD Coin')],
      ),
    })
    expect(outcome.factors[0]!.evidence).toMatchObject({
      real_mint: sandboxUsdc,
      sources: ['issuer_registry', 'verified_list'],
      lookalike_of: [
        { mint: sandboxUsdc, sources: ['issuer_registry', 'verified_list'], matched: ['symbol', 'name'] },
        { mint: USDC_MINT, sources: ['issuer_registry'], matched: ['symbol', 'name'] },
      ],
    })
  })

  test.each([
    ['an unrelated ticker', 'BLUE', 'Blue Chip'],
    ['a longer word that contains the ticker', 'USDCX', 'USDC Extra'],
    ['a different stablecoin-like ticker', 'USDX', 'Test Dollar'],
    ['digits are not stripped from the asset ("USD" is not "USD1")', 'USD', 'Dollar'],
    ['a one-letter key says nothing', 'U', 'W'],
    ['no metadata symbol or name', null, null],
  ])('%s: no finding', (_, symbol, name) => {
    expect(detect(symbol, name)).toEqual({ status: 'ok', factors: [], fields: {} })
  })

  test('the real USDC mint itself: no finding', () => {
    const real = run(
      impersonation,
      {
        metadata: metadata('USDC', 'USD Coin'),
        issuer: issuerEntry({ mint: USDC_MINT, symbol: 'USDC', name: 'USD Coin' }),
        token_list: tokenList(true, ['verified']),
        known_assets: known(),
      },
      { mint: USDC_MINT },
    )
    expect(real).toEqual({ status: 'ok', factors: [], fields: {} })
    // Even with the registry's own entry and the list's flag unread, a mint is no look-alike of itself.
    const bare = run(
      impersonation,
      { metadata: metadata('USDC', 'USD Coin'), known_assets: known() },
      { mint: USDC_MINT },
    )
    expect(bare).toEqual({ status: 'ok', factors: [], fields: {} })
  })

  test('a token the registry or the token list vouches for is nobody’s copy (a second registered USDC, a verified namesake)', () => {
    expect(detect('USDC', 'USD Coin', { issuer: issuerEntry() }).factors).toEqual([])
    expect(detect('USDC', 'USD Coin', { token_list: tokenList(true, ['verified']) }).factors).toEqual([])
  })

  test('without metadata, or without the known assets: unknown, naming the missing fact', () => {
    expect(detect('USDC', 'USD Coin', { metadata: undefined })).toMatchObject({
      status: 'unknown',
      missing: ['metadata'],
    })
    expect(detect('USDC', 'USD Coin', { known_assets: undefined })).toMatchObject({
      status: 'unknown',
      missing: ['known_assets'],
    })
  })

  test('the token list unread: a registry match still raises the finding; no match is unknown, not clean', () => {
    expect(codesOf(detect('USDC.a', 'x', { known_assets: known([], null) }))).toEqual(['IMPERSONATES_ASSET'])
    expect(detect('BLUE', 'Blue Chip', { known_assets: known([], null) })).toMatchObject({
      status: 'unknown',
      missing: ['token_list'],
    })
  })

  test('the test mint is not one of the assets (the table above compares other mints)', () => {
    expect(REGISTRY.map((asset) => asset.mint)).not.toContain(MINT)
  })
})

describe('identity keys', () => {
  test.each([
    ['USDC', 'usdc'],
    ['USDC.a', 'usdc'],
    ['USDC.a\u0000\u0000\u0000', 'usdc'],
    ['UЅDC', 'usdc'],
    ['USD₮', 'usdt'],
    ['ÜSDC', 'usdc'],
    ['U\u200bSDC', 'usdc'],
    ['𝐔𝐒𝐃𝐂', 'usdc'],
    ['U.S.D.C', 'usdc'],
    ['$WIF', 'wif'],
    ['USD Coin', 'usdcoin'],
    ['Wrapped Ether (Wormhole)', 'wrappedetherwormhole'],
  ])('%s → %s', (text, key) => {
    expect(identityKey(text)).toBe(key)
  })

  test('a token’s keys: with and without trailing digits, none under two characters', () => {
    expect(lookalikeKeys('USDC2')).toEqual(['usdc2', 'usdc'])
    expect(lookalikeKeys('USD1')).toEqual(['usd1', 'usd'])
    expect(lookalikeKeys('W')).toEqual([])
    expect(lookalikeKeys(null)).toEqual([])
  })
})
