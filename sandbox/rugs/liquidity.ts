/** The rug controls on a token's market: liquidity pulled, the developer's sell, the LP unlocked, sells blocked. */

import { getTransferCheckedInstruction } from '@solana-program/token'
import { decodeVestingEscrow, VESTING_ESCROW_SIZE } from '../../src/onchain/locks.ts'
import { JUPITER_LOCK_PROGRAM_ADDRESS } from '../../src/onchain/programs.ts'
import { TOKEN_PROGRAM } from '../chain/token-balances.ts'
import { trusted as address } from '../world/addresses.ts'
import type { World } from '../world/world.ts'
import {
  accountState,
  balanceOf,
  developerOf,
  freezeAccount,
  keyOf,
  landed,
  lpAccounts,
  mainPool,
  mintView,
  reservesOf,
  RugRefusal,
  share,
  tokenOf,
  type RugOutcome,
} from './chain-view.ts'
import { setPaused } from './token-2022.ts'

/**
 * Removes `percent` of the main pool's liquidity for the wallet holding its LP tokens, burning that share
 * of them (World.removeLiquidity: the vaults are moved by the sandbox operator, as the venue's program
 * moves them on a withdrawal). Refused when no wallet holds LP: burned, or locked (unlock it first).
 */
export async function pullLiquidity(world: World, mint: string, percent: number): Promise<RugOutcome> {
  tokenOf(world, mint)
  const pool = mainPool(world, mint)
  if (!pool.lpMint)
    throw new RugRefusal('NOT_POSSIBLE', `pool ${pool.address} (${pool.kind}) has no LP token the sandbox can withdraw`)
  const holders = lpAccounts(world, pool.lpMint)
  const wallets = []
  for (const holder of holders) {
    const owner = world.chain.getAccount(holder.owner)
    const signer = await world.signerOf(holder.owner)
    if (signer && (!owner || owner.programAddress === '11111111111111111111111111111111'))
      wallets.push({ ...holder, signer })
  }
  const provider = wallets.sort((a, b) => Number(b.amount - a.amount))[0]
  if (!provider) {
    const locked = holders.some(
      (holder) => world.chain.getAccount(holder.owner)?.programAddress === JUPITER_LOCK_PROGRAM_ADDRESS,
    )
    throw new RugRefusal(
      'NOT_POSSIBLE',
      locked
        ? `the LP of pool ${pool.address} is locked in an escrow: unlock it first (event unlock-lp)`
        : `the LP of pool ${pool.address} is burned: nobody can withdraw its liquidity`,
    )
  }
  const before = { ...reservesOf(world, pool), lp_held: provider.amount.toString(), provider: provider.owner }
  const signature = await world.removeLiquidity(pool, provider.signer, percent / 100)
  const after = {
    ...reservesOf(world, pool),
    lp_held: (await balanceOf(world, pool.lpMint, provider.owner)).toString(),
    provider: provider.owner,
  }
  return { ...landed(world, signature), before, after }
}

/** Sells `percent` of the developer's holding into the main pool: a real swap, as any trader's. */
export async function developerDump(world: World, mint: string, percent: number): Promise<RugOutcome> {
  tokenOf(world, mint)
  const dev = await developerOf(world, mint)
  const pool = mainPool(world, mint)
  const held = await balanceOf(world, mint, dev.address)
  const amount = share(held, percent)
  if (amount === 0n) throw new RugRefusal('NOT_POSSIBLE', `the developer ${dev.address} holds none of ${mint}`)
  const before = { developer: dev.address, holding: held.toString(), ...reservesOf(world, pool) }
  const trade = await world.swap(dev, pool, mint, amount)
  const after = {
    developer: dev.address,
    holding: (await balanceOf(world, mint, dev.address)).toString(),
    ...reservesOf(world, pool),
    sold: trade.baseAmount.toString(),
    received: trade.quoteAmount.toString(),
  }
  return { ...landed(world, trade.signature), before, after }
}

/**
 * Releases the LP locked in a Jupiter Lock escrow to its recipient: the escrow's schedule is rewritten
 * as fully claimed (setAccount: the lock program cannot run offline) and the LP tokens move out of the
 * escrow's token account in a real transfer, signed with the escrow's sandbox key where on mainnet the
 * lock program signs for its escrow.
 */
export async function unlockLp(world: World, mint: string): Promise<RugOutcome> {
  tokenOf(world, mint)
  const pool = mainPool(world, mint)
  if (!pool.lpMint) throw new RugRefusal('NOT_POSSIBLE', `pool ${pool.address} has no LP token`)
  const locked = lpAccounts(world, pool.lpMint).find(
    (holder) => world.chain.getAccount(holder.owner)?.programAddress === JUPITER_LOCK_PROGRAM_ADDRESS,
  )
  if (!locked) throw new RugRefusal('NOT_POSSIBLE', `no LP of pool ${pool.address} is locked`)
  const escrowAccount = world.chain.getAccount(locked.owner)!
  const escrow = decodeVestingEscrow(escrowAccount.data)
  if (!escrow) throw new RugRefusal('NOT_POSSIBLE', `${locked.owner} is not a vesting escrow the sandbox reads`)
  const escrowKey = await keyOf(world, locked.owner, 'escrow', mint)
  const recipient = await keyOf(world, escrow.recipient, 'escrow recipient', mint)
  const now = BigInt(Math.floor(world.chain.unixS))
  const data = Uint8Array.from(escrowAccount.data).subarray(0, VESTING_ESCROW_SIZE)
  const view = new DataView(data.buffer, data.byteOffset)
  view.setBigUint64(144, now, true) // cliff_time: now
  view.setBigUint64(192, now, true) // vesting_start_time
  view.setBigUint64(184, locked.amount, true) // total_claimed_amount: all of it
  world.chain.setAccount({ ...escrowAccount, data })
  const lp = tokenOf(world, pool.lpMint)
  const destination = await world.ata(pool.lpMint, recipient.address)
  const { getCreateAssociatedTokenIdempotentInstruction } = await import('@solana-program/token')
  const signature = await world.run(recipient, [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: recipient,
      ata: destination,
      owner: recipient.address,
      mint: address(pool.lpMint),
      tokenProgram: address(TOKEN_PROGRAM),
    }),
    getTransferCheckedInstruction({
      source: address(locked.key),
      mint: address(pool.lpMint),
      destination,
      authority: escrowKey,
      amount: locked.amount,
      decimals: lp.decimals,
    }),
  ])
  return {
    ...landed(world, signature),
    before: { escrow: locked.owner, locked: locked.amount.toString(), cliff_time: escrow.cliffTime.toString() },
    after: {
      escrow: locked.owner,
      locked: (await balanceOf(world, pool.lpMint, locked.owner)).toString(),
      cliff_time: now.toString(),
      released_to: recipient.address,
    },
    stateWritten: 'the escrow schedule (Jupiter Lock cannot run offline); the LP transfer is a real transaction',
  }
}

/**
 * Makes selling impossible: the freeze authority freezes the main pool's token vault, so every swap
 * through the pool fails on chain and the aggregator stand-in offers no route through it (Jupiter's
 * COULD_NOT_FIND_ANY_ROUTE). A mint without a freeze authority but with the Pausable extension is paused.
 */
export async function failSellRoute(world: World, mint: string): Promise<RugOutcome> {
  tokenOf(world, mint)
  const view = mintView(world, mint)
  const pool = mainPool(world, mint)
  if (view.freezeAuthority === null) {
    if (view.extensions.some((entry) => entry.extension === 'pausableConfig')) return setPaused(world, mint, true)
    throw new RugRefusal(
      'NOT_POSSIBLE',
      `${mint} has no freeze authority and no pause switch: its developer cannot block sells`,
    )
  }
  const before = { pool: pool.address, vault: pool.baseVault, state: accountState(world, pool.baseVault) }
  const signature = await freezeAccount(world, mint, pool.baseVault)
  return { ...landed(world, signature), before, after: { ...before, state: accountState(world, pool.baseVault) } }
}
