import type { ServiceContext } from '../context.ts'
import { readAccountKind } from '../facts/account-kind.ts'
import { refusalOf } from '../facts/account-refusal.ts'
import { checkSolanaAddress } from '../onchain/address.ts'
import type { RouteSpec } from '../kernel/manifest.ts'

export { refusalOf }

/**
 * How long a route waits for the account it was given, in ms: a third of the shortest route deadline
 * (the quick scan's and the exit check's 4.5 s). Past it the route goes on without knowing, as it did
 * before it asked (its facts then say what could not be read); the read itself carries on for them.
 */
export const ACCOUNT_READ_MS = 1_500

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
