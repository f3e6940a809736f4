import { describe, expect, test } from 'bun:test'
import type { AccountKind } from '../facts/account-kind.ts'
import { TOKEN_PROGRAM_ADDRESS } from '../onchain/programs.ts'
import { refusalOf } from './account-check.ts'
import type { AccountRole } from '../kernel/manifest.ts'

const ADDRESS = 'CWwss92riFWMFyyk9A3NHnN3iPXFEee4s4t7nrWLd1ae'
const MINT = 'JCq6s2NxVi1V8aCHPskbwDj8MpX6WAj2QwoPzReTLYZi'
const WALLET = 'FM1UVURCpv59rSZJidvXHzwMvZXrcedroeA9Za5hvbmo'
const POOL_PROGRAM = 'pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA'

const tokenAccount: AccountKind = { kind: 'token_account', mint: MINT, owner: WALLET }

describe('refusalOf: what a route needing a token mint, or a wallet, answers for each kind of account', () => {
  const cases: [AccountRole, string, AccountKind, { status: number; code: string; says: string[] } | null][] = [
    ['token_mint', 'token_address', { kind: 'token_mint' }, null],
    ['token_mint', 'token_address', { kind: 'none' }, { status: 404, code: 'TOKEN_NOT_FOUND', says: ['no account'] }],
    ['token_mint', 'token_address', { kind: 'wallet' }, { status: 422, code: 'NOT_A_TOKEN_MINT', says: ['a wallet'] }],
    [
      'token_mint',
      'token_address',
      tokenAccount,
      { status: 422, code: 'NOT_A_TOKEN_MINT', says: [`token account of mint ${MINT}`, `scan ${MINT} instead`] },
    ],
    [
      'token_mint',
      'output_mint',
      tokenAccount,
      { status: 422, code: 'NOT_A_TOKEN_MINT', says: [`send ${MINT} as output_mint`] },
    ],
    [
      'token_mint',
      'token_address',
      { kind: 'program' },
      { status: 422, code: 'NOT_A_TOKEN_MINT', says: ['is a program (executable code)'] },
    ],
    [
      'token_mint',
      'token_address',
      { kind: 'program_account', owner: POOL_PROGRAM },
      { status: 422, code: 'NOT_A_TOKEN_MINT', says: [`an account of the PumpSwap program (${POOL_PROGRAM})`] },
    ],
    ['wallet', 'wallet_address', { kind: 'wallet' }, null],
    // A wallet that never held anything has no account: answered (an empty record), not refused.
    ['wallet', 'wallet_address', { kind: 'none' }, null],
    [
      'wallet',
      'wallet_address',
      { kind: 'token_mint' },
      { status: 422, code: 'NOT_A_WALLET', says: ['a token mint', 'POST /scan/quick'] },
    ],
    [
      'wallet',
      'wallet_address',
      tokenAccount,
      { status: 422, code: 'NOT_A_WALLET', says: [`its wallet is ${WALLET}`] },
    ],
    ['wallet', 'wallet_address', { kind: 'program' }, { status: 422, code: 'NOT_A_WALLET', says: ['a program'] }],
  ]
  test.each(cases)('%s %s, %o', (role, field, kind, expected) => {
    const refusal = refusalOf(role, field, ADDRESS, kind)
    if (expected === null) return expect(refusal).toBeNull()
    expect(refusal).toMatchObject({ status: expected.status, code: expected.code })
    for (const words of [ADDRESS, ...expected.says, 'nothing was charged']) expect(refusal!.message).toContain(words)
    expect(refusal!.details).toMatchObject({ field, account_kind: kind.kind })
  })

  test('a known program is named', () => {
    expect(refusalOf('token_mint', 'token_address', TOKEN_PROGRAM_ADDRESS, { kind: 'program' })!.message).toContain(
      'is the SPL Token program, not a token mint',
    )
  })
})
