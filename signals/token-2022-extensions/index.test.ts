import { describe, expect, test } from 'bun:test'
import { normaliseExtensions } from '../../src/facts/mint.ts'
import type { MintExtensions, MintFact } from '../../src/facts/types.ts'
import type { Factor, Severity } from '../../src/pipeline/signal.ts'
import { issuerEntry, MINT, NOW, run, tokenList } from '../../test/support/facts/index.ts'
import token2022Extensions from './index.ts'

const DELEGATE = 'De1egate111111111111111111111111111111111111'
const AUTHORITY = 'Auth1111111111111111111111111111111111111111'
const HOOK = 'Hook1111111111111111111111111111111111111111'

/** A mint without extensions, as the data layer reads one. */
const NO_EXTENSIONS: MintExtensions = normaliseExtensions([])

const mint = (extensions: Partial<MintExtensions> = {}, program: MintFact['program'] = 'spl-token-2022'): MintFact => ({
  program,
  supply: 1_000_000_000_000n,
  decimals: 6,
  mintAuthority: null,
  freezeAuthority: null,
  extensions: { ...NO_EXTENSIONS, ...extensions },
})

const fee = (basisPoints: number, configAuthority: string | null = null, newerBasisPoints = basisPoints) => ({
  transferFee: { basisPoints, maximumFee: 10n ** 18n, configAuthority, newerBasisPoints, newerEpoch: 700n },
})

type Expected = Pick<Factor, 'code' | 'severity' | 'impact' | 'hard_fail' | 'evidence'>
const finding = (
  code: string,
  severity: Severity,
  impact: number,
  evidence: Record<string, unknown> = {},
  hard_fail = false,
): Expected => ({
  code,
  severity,
  impact,
  hard_fail,
  evidence,
})
const picked = (outcome: ReturnType<typeof run>) =>
  outcome.factors.map(({ code, severity, impact, hard_fail, evidence }) => ({
    code,
    severity,
    impact,
    hard_fail,
    evidence,
  }))

describe('token-2022-extensions: each extension against the default fee thresholds (1%, 10%)', () => {
  const cases: { name: string; mint: MintFact; factors: Expected[] }[] = [
    { name: 'classic SPL token: clean', mint: mint({}, 'spl-token'), factors: [] },
    { name: 'Token-2022 mint without extensions: clean', mint: mint(), factors: [] },
    {
      name: 'harmless extensions only (metadata pointer, token metadata, others): clean',
      mint: mint({
        metadataPointer: { authority: AUTHORITY, metadataAddress: MINT },
        tokenMetadata: { name: 'Token', symbol: 'TOK', uri: 'https://example.com', updateAuthority: AUTHORITY },
        other: ['interestBearingConfig', 'memoTransfer'],
      }),
      factors: [],
    },
    {
      name: 'permanent delegate: critical, not a hard fail',
      mint: mint({ permanentDelegate: DELEGATE }),
      factors: [finding('PERMANENT_DELEGATE', 'critical', -40, { delegate: DELEGATE })],
    },
    {
      name: 'non-transferable: critical hard fail',
      mint: mint({ nonTransferable: true }),
      factors: [finding('NON_TRANSFERABLE', 'critical', -100, {}, true)],
    },
    { name: 'transfer fee 0.5%, fixed: below 1%, clean', mint: mint(fee(50)), factors: [] },
    {
      name: 'transfer fee exactly 1%: a medium finding',
      mint: mint(fee(100)),
      factors: [finding('TRANSFER_FEE', 'medium', -10, { basis_points: 100 })],
    },
    {
      name: 'transfer fee 9.99%: still medium',
      mint: mint(fee(999)),
      factors: [finding('TRANSFER_FEE', 'medium', -10, { basis_points: 999 })],
    },
    {
      name: 'transfer fee exactly 10%: high',
      mint: mint(fee(1_000)),
      factors: [finding('TRANSFER_FEE_HIGH', 'high', -30, { basis_points: 1_000 })],
    },
    {
      name: 'transfer fee 100%: high',
      mint: mint(fee(10_000)),
      factors: [finding('TRANSFER_FEE_HIGH', 'high', -30, { basis_points: 10_000 })],
    },
    {
      name: 'a scheduled raise counts: 0.5% now, 25% next epoch',
      mint: mint(fee(50, null, 2_500)),
      factors: [finding('TRANSFER_FEE_HIGH', 'high', -30, { basis_points: 2_500 })],
    },
    {
      name: 'a scheduled cut does not hide the current fee: 20% now, 0% next epoch',
      mint: mint(fee(2_000, null, 0)),
      factors: [finding('TRANSFER_FEE_HIGH', 'high', -30, { basis_points: 2_000 })],
    },
    {
      name: 'a 0% fee with a config authority: only the mutable fee',
      mint: mint(fee(0, AUTHORITY)),
      factors: [finding('TRANSFER_FEE_MUTABLE', 'medium', -10, { authority: AUTHORITY })],
    },
    {
      name: 'a 5% fee with a config authority: the fee and its mutability',
      mint: mint(fee(500, AUTHORITY)),
      factors: [
        finding('TRANSFER_FEE', 'medium', -10, { basis_points: 500 }),
        finding('TRANSFER_FEE_MUTABLE', 'medium', -10, { authority: AUTHORITY }),
      ],
    },
    {
      name: 'transfer hook with a program: high',
      mint: mint({ transferHook: { programId: HOOK, authority: AUTHORITY } }),
      factors: [finding('TRANSFER_HOOK', 'high', -20, { program: HOOK, authority: AUTHORITY })],
    },
    {
      name: 'transfer hook with a program and no authority: still high',
      mint: mint({ transferHook: { programId: HOOK, authority: null } }),
      factors: [finding('TRANSFER_HOOK', 'high', -20, { program: HOOK, authority: null })],
    },
    {
      name: 'transfer hook extension with no program set: clean',
      mint: mint({ transferHook: { programId: null, authority: null } }),
      factors: [],
    },
    {
      name: 'accounts frozen by default: high',
      mint: mint({ defaultAccountState: 'frozen' }),
      factors: [finding('DEFAULT_FROZEN', 'high', -30)],
    },
    {
      name: 'accounts initialized by default: clean',
      mint: mint({ defaultAccountState: 'initialized' }),
      factors: [],
    },
    {
      name: 'pausable, not paused: high',
      mint: mint({ pausable: { authority: AUTHORITY, paused: false } }),
      factors: [finding('PAUSABLE', 'high', -20, { authority: AUTHORITY })],
    },
    {
      name: 'pausable, its authority revoked, not paused: it can never be paused, nothing to report',
      mint: mint({ pausable: { authority: null, paused: false } }),
      factors: [],
    },
    {
      name: 'paused with its authority revoked: paused for good, a critical hard fail',
      mint: mint({ pausable: { authority: null, paused: true } }),
      factors: [finding('PAUSED', 'critical', -100, { authority: null }, true)],
    },
    {
      name: 'paused: critical hard fail (and not also reported as pausable)',
      mint: mint({ pausable: { authority: AUTHORITY, paused: true } }),
      factors: [finding('PAUSED', 'critical', -100, { authority: AUTHORITY }, true)],
    },
    {
      name: 'mint close authority: low',
      mint: mint({ mintCloseAuthority: AUTHORITY }),
      factors: [finding('MINT_CLOSE_AUTHORITY', 'low', -5, { authority: AUTHORITY })],
    },
    {
      name: 'everything at once: every finding, in a fixed order',
      mint: mint({
        ...fee(1_500, AUTHORITY),
        permanentDelegate: DELEGATE,
        nonTransferable: true,
        transferHook: { programId: HOOK, authority: AUTHORITY },
        defaultAccountState: 'frozen',
        pausable: { authority: AUTHORITY, paused: true },
        mintCloseAuthority: AUTHORITY,
      }),
      factors: [
        finding('PERMANENT_DELEGATE', 'critical', -40, { delegate: DELEGATE }),
        finding('NON_TRANSFERABLE', 'critical', -100, {}, true),
        finding('TRANSFER_FEE_HIGH', 'high', -30, { basis_points: 1_500 }),
        finding('TRANSFER_FEE_MUTABLE', 'medium', -10, { authority: AUTHORITY }),
        finding('TRANSFER_HOOK', 'high', -20, { program: HOOK, authority: AUTHORITY }),
        finding('DEFAULT_FROZEN', 'high', -30),
        finding('PAUSED', 'critical', -100, { authority: AUTHORITY }, true),
        finding('MINT_CLOSE_AUTHORITY', 'low', -5, { authority: AUTHORITY }),
      ],
    },
  ]

  test.each(cases)('$name', ({ mint, factors }) => {
    const outcome = run(token2022Extensions, { mint })
    expect(outcome.status).toBe('ok')
    expect(picked(outcome)).toEqual(factors)
    expect(outcome.fields).toEqual({ token_extensions: factors.map((entry) => entry.code) })
    for (const entry of outcome.factors) expect(entry.signal).toBe('token-2022-extensions')
  })
})

describe('token-2022-extensions: fee thresholds come from the options', () => {
  const options = { highFeeBps: 500, feeBps: 10 }
  const cases: { name: string; bps: number; codes: string[] }[] = [
    { name: '0.09% is below a 0.1% threshold', bps: 9, codes: [] },
    { name: '0.1% meets a 0.1% threshold', bps: 10, codes: ['TRANSFER_FEE'] },
    { name: '5% meets a 5% high threshold', bps: 500, codes: ['TRANSFER_FEE_HIGH'] },
  ]
  test.each(cases)('$name', ({ bps, codes }) => {
    const outcome = token2022Extensions.detect(
      { get: (name) => (name === 'mint' ? mint(fee(bps)) : undefined) as never },
      options,
      { mint: MINT, now: NOW },
    )
    expect(outcome.status).toBe('ok')
    expect(outcome.fields).toEqual({ token_extensions: codes })
  })
})

describe('token-2022-extensions: missing facts', () => {
  test('mint not read: unknown, naming mint, no penalty, field null', () => {
    expect(run(token2022Extensions, {})).toEqual({
      status: 'unknown',
      missing: ['mint'],
      factors: [
        {
          code: 'UNKNOWN',
          signal: 'token-2022-extensions',
          severity: 'info',
          impact: 0,
          hard_fail: false,
          grade_ceiling: null,
          title: 'Token-2022 extensions: not assessed',
          detail: 'Could not be assessed: mint could not be gathered.',
          evidence: { missing: ['mint'] },
        },
      ],
      fields: { token_extensions: null },
    })
  })
})

describe('token-2022-extensions: a live pause switch caps the grade', () => {
  test('PAUSABLE holds the grade at C (one signature stops every sale, as a freeze authority can); PAUSED fails it', () => {
    const pausable = run(token2022Extensions, { mint: mint({ pausable: { authority: AUTHORITY, paused: false } }) })
    expect(pausable.factors.map((entry) => [entry.code, entry.grade_ceiling])).toEqual([['PAUSABLE', 'C']])
    const paused = run(token2022Extensions, { mint: mint({ pausable: { authority: AUTHORITY, paused: true } }) })
    expect(paused.factors.map((entry) => [entry.code, entry.hard_fail])).toEqual([['PAUSED', true]])
  })
})

describe('token-2022-extensions: a registered issuer-controlled asset (a tokenized stock)', () => {
  const stock = issuerEntry({ kind: 'tokenized_stock', symbol: 'TSTx', issuer: 'Stock Issuer' })
  const controls = { permanentDelegate: DELEGATE, pausable: { authority: AUTHORITY, paused: false } }

  test('its delegate and pause are listed as issuer controls, not scored', () => {
    const outcome = run(token2022Extensions, { mint: mint(controls), issuer: stock })
    expect(picked(outcome)).toEqual([
      finding('ISSUER_CONTROLS', 'info', 0, {
        issuer: 'Stock Issuer',
        controls: { PERMANENT_DELEGATE: { delegate: DELEGATE }, PAUSABLE: { authority: AUTHORITY } },
      }),
    ])
    // The field still lists what the mint carries.
    expect(outcome.fields).toEqual({ token_extensions: ['PERMANENT_DELEGATE', 'PAUSABLE'] })
  })

  test('the same mint unregistered, though verified on the token list: scored', () => {
    const outcome = run(token2022Extensions, {
      mint: mint(controls),
      issuer: null,
      token_list: tokenList(true, ['verified', 'stocks']),
    })
    expect(outcome.factors.map((entry) => [entry.code, entry.impact])).toEqual([
      ['PERMANENT_DELEGATE', -40],
      ['PAUSABLE', -20],
    ])
  })

  test('paused is still a hard fail, and a fee still a cost, for a registered issuer', () => {
    const outcome = run(token2022Extensions, {
      mint: mint({ pausable: { authority: AUTHORITY, paused: true }, ...fee(1_500) }),
      issuer: stock,
    })
    expect(outcome.factors.map((entry) => [entry.code, entry.hard_fail])).toEqual([
      ['TRANSFER_FEE_HIGH', false],
      ['PAUSED', true],
    ])
  })
})
