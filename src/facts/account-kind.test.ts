import { describe, expect, test } from 'bun:test'
import { encodeBase58 } from '../onchain/base58.ts'
import { SYSTEM_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '../onchain/programs.ts'
import { type AccountKind, accountKindOf, type RpcAccount } from './account-kind.ts'

const MINT = 'JCq6s2NxVi1V8aCHPskbwDj8MpX6WAj2QwoPzReTLYZi'
const WALLET = 'FM1UVURCpv59rSZJidvXHzwMvZXrcedroeA9Za5hvbmo'
const POOL_PROGRAM = 'pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA'

const account = (owner: string, data: unknown, executable = false): RpcAccount => ({ owner, data, executable })
const base64 = (bytes: Uint8Array) => [Buffer.from(bytes).toString('base64'), 'base64']
const mintKey = crypto.getRandomValues(new Uint8Array(32))
const walletKey = crypto.getRandomValues(new Uint8Array(32))

/** Token program bytes as the node sends them when it cannot parse them (a token account whose mint it cannot read). */
function tokenAccountBytes(length = 165, type?: number): Uint8Array {
  const bytes = new Uint8Array(length)
  bytes.set(mintKey, 0)
  bytes.set(walletKey, 32)
  bytes[108] = 1 // initialized
  if (type !== undefined) bytes[165] = type
  return bytes
}
function mintBytes(length = 82, type?: number): Uint8Array {
  const bytes = new Uint8Array(length)
  bytes[45] = 1 // initialized
  if (type !== undefined) bytes[165] = type
  return bytes
}

describe('accountKindOf: what lives at an address, from getAccountInfo (jsonParsed, or base64 where the node falls back)', () => {
  const cases: [string, RpcAccount | null, AccountKind][] = [
    ['no account', null, { kind: 'none' }],
    ['a wallet: the System Program, no data', account(SYSTEM_PROGRAM_ADDRESS, ['', 'base64']), { kind: 'wallet' }],
    [
      'a durable nonce: the System Program with data',
      account(SYSTEM_PROGRAM_ADDRESS, { program: 'nonce', parsed: { type: 'initialized' } }),
      { kind: 'program_account', owner: SYSTEM_PROGRAM_ADDRESS },
    ],
    [
      'a parsed mint',
      account(TOKEN_PROGRAM_ADDRESS, { program: 'spl-token', parsed: { type: 'mint', info: {} } }),
      { kind: 'token_mint' },
    ],
    [
      'a parsed token account names its mint and wallet',
      account(TOKEN_2022_PROGRAM_ADDRESS, {
        program: 'spl-token-2022',
        parsed: { type: 'account', info: { mint: MINT, owner: WALLET } },
      }),
      { kind: 'token_account', mint: MINT, owner: WALLET },
    ],
    [
      'a token multisig',
      account(TOKEN_PROGRAM_ADDRESS, { program: 'spl-token', parsed: { type: 'multisig', info: {} } }),
      { kind: 'program_account', owner: TOKEN_PROGRAM_ADDRESS },
    ],
    ['a mint in base64 (82 bytes)', account(TOKEN_PROGRAM_ADDRESS, base64(mintBytes())), { kind: 'token_mint' }],
    [
      'a Token-2022 mint with extensions in base64 (account type 1)',
      account(TOKEN_2022_PROGRAM_ADDRESS, base64(mintBytes(300, 1))),
      { kind: 'token_mint' },
    ],
    [
      'a token account in base64 (165 bytes): its mint read from its bytes',
      account(TOKEN_PROGRAM_ADDRESS, base64(tokenAccountBytes())),
      { kind: 'token_account', mint: encodeBase58(mintKey), owner: encodeBase58(walletKey) },
    ],
    [
      'a Token-2022 token account with extensions in base64 (account type 2)',
      account(TOKEN_2022_PROGRAM_ADDRESS, base64(tokenAccountBytes(182, 2))),
      { kind: 'token_account', mint: encodeBase58(mintKey), owner: encodeBase58(walletKey) },
    ],
    [
      'a token multisig in base64 (355 bytes)',
      account(TOKEN_PROGRAM_ADDRESS, base64(mintBytes(355, 1))),
      { kind: 'program_account', owner: TOKEN_PROGRAM_ADDRESS },
    ],
    [
      'an uninitialised token-program account',
      account(TOKEN_PROGRAM_ADDRESS, base64(new Uint8Array(165))),
      { kind: 'program_account', owner: TOKEN_PROGRAM_ADDRESS },
    ],
    [
      'a program (executable)',
      account('BPFLoaderUpgradeab1e11111111111111111111111', ['', 'base64'], true),
      { kind: 'program' },
    ],
    [
      "another program's account (a pool)",
      account(POOL_PROGRAM, base64(new Uint8Array(301))),
      { kind: 'program_account', owner: POOL_PROGRAM },
    ],
  ]
  test.each(cases)('%s', (_name, answer, kind) => {
    expect(accountKindOf(answer)).toEqual(kind)
  })
})
