import type { Address } from '@solana/kit'
import { BURN_ADDRESSES } from '../onchain/programs.ts'
import { need, type TokenContext } from './token-context.ts'
import { lockOf } from '../onchain/locks.ts'
import { readAccounts, tokenAccountOwner } from './onchain-accounts.ts'
import { decodedPools } from './pools.ts'
import type { LpLocksFact } from './types.ts'

const BURNS: ReadonlySet<string> = new Set(BURN_ADDRESSES)
const DAY_S = 24 * 60 * 60
const round2 = (value: number) => Math.round(value * 100) / 100

/**
 * For each traditional pool whose LP is not all burned: its largest LP accounts, their owners, and
 * whether those owners are lock programs' accounts (src/onchain/locks.ts: Jupiter Lock escrows dated by
 * their schedule; Raydium Burn & Earn and Meteora lock escrows permanent). Shares are of the LP the pool
 * minted, so burned + locked + held add up to 100.
 */
export async function loadLpLocks(facts: TokenContext): Promise<LpLocksFact> {
  const asked = await earlyLpHolders(facts)
  const { pools } = await need(facts, 'pools')
  const open = pools.filter((pool) => pool.lp && pool.lp.supply > 0n)
  const results = await Promise.all(
    open.map(async (pool) => {
      const lp = pool.lp!
      const { value: largest } = await (asked.get(lp.mint) ?? largestAccounts(facts, lp.mint))
      const accounts = await readAccounts(
        facts,
        largest.map((entry) => entry.address),
      )
      const owners = accounts.map((account) => (account ? tokenAccountOwner(account) : null))
      const ownerAccounts = await readAccounts(facts, [
        ...new Set(owners.filter((owner): owner is string => owner !== null)),
      ])
      const ownerAccount = new Map(ownerAccounts.flatMap((account) => (account ? [[account.address, account]] : [])))
      const share = (amount: bigint) => (lp.minted > 0n ? Number((amount * 10_000n) / lp.minted) / 100 : 0)
      const holders = largest.map((entry, index) => {
        const owner = owners[index] ?? null
        const lock = owner ? (lockOf(owner, ownerAccount.get(owner)) ?? null) : null
        const kind: 'locker' | 'burn' | 'wallet' = owner && BURNS.has(owner) ? 'burn' : lock ? 'locker' : 'wallet'
        return { owner, kind, pct: share(BigInt(entry.amount)), lock }
      })
      const sum = (list: typeof holders) => list.reduce((total, holder) => total + holder.pct, 0)
      const lockers = holders.filter((holder) => holder.kind === 'locker')
      const now = Date.now() / 1000
      return {
        pool: pool.address,
        lpMint: lp.mint,
        burnedPct: round2(lp.burnedPct + sum(holders.filter((holder) => holder.kind === 'burn'))),
        lockedPct: round2(sum(lockers)),
        permanentLockedPct: round2(sum(lockers.filter((holder) => holder.lock?.permanent))),
        largestHolderPct: Math.max(
          0,
          ...holders.filter((holder) => holder.kind === 'wallet').map((holder) => holder.pct),
        ),
        unlocks: lockers
          .filter((holder) => !holder.lock!.permanent)
          .map((holder) => ({
            inDays:
              holder.lock!.unlocksAt === null
                ? null
                : Math.round(Math.max(0, (holder.lock!.unlocksAt - now) / DAY_S) * 10) / 10,
            pct: holder.pct,
            program: holder.lock!.program,
          }))
          .sort((a, b) => (a.inDays ?? Number.POSITIVE_INFINITY) - (b.inDays ?? Number.POSITIVE_INFINITY)),
        holders,
      }
    }),
  )
  return { pools: results }
}

const largestAccounts = (facts: TokenContext, mint: string) => facts.rpc.getTokenLargestAccounts(mint as Address).send()

/**
 * The largest accounts of every LP mint the pool accounts name, asked as soon as those are decoded:
 * beside the read of the LP mints' supply that says whether any LP is left (one round trip earlier, for
 * one call spent on an LP all burned). Not asked early of a provider known to refuse the method.
 */
async function earlyLpHolders(facts: TokenContext): Promise<Map<string, ReturnType<typeof largestAccounts>>> {
  const early = new Map<string, ReturnType<typeof largestAccounts>>()
  if (facts.sources.solana?.refuses('getTokenLargestAccounts')) return early
  for (const pool of await decodedPools(facts).catch(() => [])) {
    if (!pool.lp || early.has(pool.lp.mint)) continue
    const asked = largestAccounts(facts, pool.lp.mint)
    // Read only when the LP is not all burned; an unread failure is no unhandled rejection.
    asked.catch(() => undefined)
    early.set(pool.lp.mint, asked)
  }
  return early
}
