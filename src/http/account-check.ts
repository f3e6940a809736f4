import type { ServiceContext } from '../context.ts'
import { type AccountKind, PROGRAM_NAMES, readAccountKind } from '../facts/account-kind.ts'
import { checkSolanaAddress } from '../onchain/address.ts'
import { ApiError } from '../kernel/errors.ts'
import type { AccountRole, RouteSpec } from '../kernel/manifest.ts'

/**
 * How long a route waits for the account it was given, in ms: a third of the shortest route deadline
 * (the quick scan's and the exit check's 4.5 s). Past it the route goes on without knowing, as it did
 * before it asked (its facts then say what could not be read); the read itself carries on for them.
 */
export const ACCOUNT_READ_MS = 1_500

/** What a refused address is told it was; nothing is settled for a refused call, so it says so. */
const NOTHING_CHARGED = 'nothing was charged'

/**
 * The account check of a route that declares `accounts` in its manifest (undefined for one that does
 * not): a `beforeHandle` hook, run after the payment's admission and before the handler, that reads
 * each declared member's account through the Solana source (cached and coalesced: the quick scan's
 * mint fact reuses the read) and throws the refusal when it is not what the route needs. A thrown
 * refusal reaches the core's error hook, which releases the admitted payment: a refused call is never
 * charged. Without a Solana source, or when the RPC cannot say in time, nothing is refused. `beside`
 * starts the route's own work with the reads (BesideCheck).
 */
export function accountCheck(ctx: ServiceContext, spec: Pick<RouteSpec, 'accounts'>, beside?: BesideCheck) {
  const members = Object.entries(spec.accounts ?? {})
  if (members.length === 0) return undefined
  return async function checkAccounts({ body, request }: { body?: unknown; request: Request }): Promise<void> {
    const solana = ctx.sources.solana
    if (!solana) return
    const given = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
    // A member holding no address (an optional one left out, a news query's ticker) names no account.
    const asked = members.filter(([field]) => checkSolanaAddress(given[field], field).ok)
    const deadlineAt = Date.now() + ACCOUNT_READ_MS
    const reads = asked.map(([field]) => readAccountKind(solana, given[field] as string, deadlineAt))
    // Started after the account reads, in the same tick: its first reads ride in the same round trip.
    const work = beside?.({ body, request })
    try {
      const kinds = await Promise.all(reads)
      for (const [index, [field, role]] of asked.entries()) {
        const kind = kinds[index]
        const refusal = kind && refusalOf(role, field, given[field] as string, kind)
        if (refusal) throw refusal
      }
    } catch (error) {
      work?.abandon()
      throw error
    }
  }
}

/**
 * Work a route starts beside its account check (a scanner's facts), so its first upstream reads go out
 * with the check's: only reads overlap, the answer still waits for the check. A refusal abandons it
 * before the refusal is thrown; otherwise the route's handler takes it up.
 */
export type BesideCheck = (input: { body: unknown; request: Request }) => { abandon(): void }

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
