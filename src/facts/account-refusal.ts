/**
 * What a route needing a token mint, or a wallet, answers for an address that is another kind of
 * account: the refusals of the route's account check (src/http/account-check.ts) and of a batch's items
 * (plugins/quick-scan-batch), in the same words. Nothing is charged for a refused address, so it says so.
 */
import { ApiError } from '../kernel/errors.ts'
import type { AccountRole } from '../kernel/manifest.ts'
import { type AccountKind, PROGRAM_NAMES } from './account-kind.ts'

/** What a refused address is told it was; nothing is settled for a refused call, so it says so. */
const NOTHING_CHARGED = 'nothing was charged'

/** The refusal of `address` (the request's `field`) for a route needing `role`, or null when it fits. */
export function refusalOf(role: AccountRole, field: string, address: string, account: AccountKind): ApiError | null {
  return role === 'token_mint' ? notAMint(field, address, account) : notAWallet(field, address, account)
}

function notAMint(field: string, address: string, account: AccountKind): ApiError | null {
  const refuse = (message: string, details: Record<string, unknown> = {}) =>
    new ApiError('NOT_A_TOKEN_MINT', {
      message: `${address} is ${message}; ${NOTHING_CHARGED}`,
      details: { field, account_kind: account.kind, ...details },
    })
  switch (account.kind) {
    case 'token_mint':
      return null
    case 'none':
      return new ApiError('TOKEN_NOT_FOUND', {
        message: `no account exists at ${address} on Solana, so it is no token: check the address (a token's mint, not a transaction signature or an address of another chain); ${NOTHING_CHARGED}`,
        details: { field, account_kind: account.kind },
      })
    case 'wallet':
      return refuse(
        'a wallet (an account of the System Program), not a token mint: send the mint of the token (a wallet is read with POST /wallet/intel)',
      )
    case 'token_account': {
      const instead = field === 'token_address' ? `scan ${account.mint} instead` : `send ${account.mint} as ${field}`
      const holder = account.owner ? `, held by the wallet ${account.owner}` : ''
      return refuse(`a token account of mint ${account.mint}${holder}, not a mint: ${instead}`, {
        mint: account.mint,
        wallet: account.owner,
      })
    }
    case 'program':
      return refuse(`${programNamed(address)}, not a token mint`, { program: address })
    case 'program_account':
      return refuse(`${accountOf(account.owner)}, not a token mint`, { program: account.owner })
  }
}

function notAWallet(field: string, address: string, account: AccountKind): ApiError | null {
  const refuse = (message: string, details: Record<string, unknown> = {}) =>
    new ApiError('NOT_A_WALLET', {
      message: `${address} is ${message}; ${NOTHING_CHARGED}`,
      details: { field, account_kind: account.kind, ...details },
    })
  switch (account.kind) {
    // No account: a wallet that holds nothing yet, and has no history to read.
    case 'none':
    case 'wallet':
      return null
    case 'token_mint':
      return refuse('a token mint, not a wallet: scan it with POST /scan/quick (or POST /scan/deep)')
    case 'token_account': {
      const holder = account.owner ? `: its wallet is ${account.owner}, ask about that one instead` : ''
      return refuse(`a token account of mint ${account.mint}, not a wallet${holder}`, {
        mint: account.mint,
        wallet: account.owner,
      })
    }
    case 'program':
      return refuse(`${programNamed(address)}, not a wallet`, { program: address })
    case 'program_account':
      return refuse(`${accountOf(account.owner)}, not a wallet`, { program: account.owner })
  }
}

/** `the SPL Token program`, or `a program` for one without a known name. */
function programNamed(id: string): string {
  const name = PROGRAM_NAMES[id]
  return name ? `the ${name} program` : 'a program (executable code)'
}

/** An account a program keeps: `an account of the PumpSwap program (pAMM…)`, a token multisig, a nonce. */
function accountOf(owner: string): string {
  const name = PROGRAM_NAMES[owner]
  return `an account of ${name ? `the ${name} program (${owner})` : `the program ${owner}`}`
}
