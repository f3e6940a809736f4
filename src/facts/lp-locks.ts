import type { Address } from '@solana/kit'
import { encodeBase58 } from '../onchain/base58.ts'
import { BURN_ADDRESSES } from '../onchain/programs.ts'
import { need, type TokenContext } from './context.ts'
import { LOCKER_PROGRAMS } from './holders.ts'
import { readAccounts } from './onchain-accounts.ts'
import type { LpLocksFact } from './types.ts'

const BURNS: ReadonlySet<string> = new Set(BURN_ADDRESSES)
const OWNER_OFFSET = 32

/**
 * For each traditional pool whose LP is not all burned: its largest LP accounts, their owners, and
 * whether those owners are lock programs' accounts. Shares are of the LP the pool minted, so burned +
 * locked + held add up to 100.
 */
export async function loadLpLocks(ctx: TokenContext): Promise<LpLocksFact> {
  const { pools } = await need(ctx, 'pools')
  const open = pools.filter((pool) => pool.lp && pool.lp.supply > 0n)
  const results = await Promise.all(
    open.map(async (pool) => {
      const lp = pool.lp!
      const { value: largest } = await ctx.rpc.getTokenLargestAccounts(lp.mint as Address).send()
      const accounts = await readAccounts(
        ctx,
        largest.map((entry) => entry.address),
      )
      const owners = accounts.map((account) =>
        account ? encodeBase58(account.data.subarray(OWNER_OFFSET, OWNER_OFFSET + 32)) : null,
      )
      const ownerAccounts = await readAccounts(ctx, [
        ...new Set(owners.filter((owner): owner is string => owner !== null)),
      ])
      const program = new Map(ownerAccounts.flatMap((account) => (account ? [[account.address, account.owner]] : [])))
      const share = (amount: bigint) => (lp.minted > 0n ? Number((amount * 10_000n) / lp.minted) / 100 : 0)
      const holders = largest.map((entry, index) => {
        const owner = owners[index] ?? null
        const kind: 'locker' | 'burn' | 'wallet' =
          owner && BURNS.has(owner)
            ? 'burn'
            : owner && LOCKER_PROGRAMS.has(program.get(owner) ?? '')
              ? 'locker'
              : 'wallet'
        return { owner, kind, pct: share(BigInt(entry.amount)) }
      })
      const sum = (kind: string) =>
        holders.filter((holder) => holder.kind === kind).reduce((total, holder) => total + holder.pct, 0)
      return {
        pool: pool.address,
        lpMint: lp.mint,
        burnedPct: Math.round((lp.burnedPct + sum('burn')) * 100) / 100,
        lockedPct: Math.round(sum('locker') * 100) / 100,
        largestHolderPct: Math.max(
          0,
          ...holders.filter((holder) => holder.kind === 'wallet').map((holder) => holder.pct),
        ),
        holders,
      }
    }),
  )
  return { pools: results }
}
