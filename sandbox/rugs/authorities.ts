/** The rug controls of the mint's base authorities: supply minted, the mint authority moved, a holder frozen. */

import { AuthorityType, getSetAuthorityInstruction } from '@solana-program/token'
import { trusted as address } from '../world/addresses.ts'
import type { World } from '../world/world.ts'
import {
  accountState,
  freezeAccount,
  holderAccount,
  keyOf,
  landed,
  mintView,
  RugRefusal,
  tokenOf,
  type RugOutcome,
} from './chain-view.ts'

/** Mints `amount` raw units (default: 10% of the supply) to `to` (default: the mint authority). */
export async function mintMore(world: World, mint: string, amount?: bigint, to?: string): Promise<RugOutcome> {
  tokenOf(world, mint)
  const view = mintView(world, mint)
  const authority = await keyOf(world, view.mintAuthority, 'mint authority', mint)
  const minted = amount ?? view.supply / 10n
  if (minted <= 0n) throw new RugRefusal('INVALID_PARAMS', 'amount must be positive')
  const recipient = to ?? authority.address
  await world.mintTo(mint, recipient, minted, authority)
  const signature = world.chain.signaturesFor(mint)[0]!
  return {
    ...landed(world, signature),
    before: { supply: view.supply.toString() },
    after: { supply: mintView(world, mint).supply.toString(), minted: minted.toString(), to: recipient },
  }
}

/** Hands the mint authority to `next`, or revokes it (`null`). */
export async function setMintAuthority(world: World, mint: string, next: string | null): Promise<RugOutcome> {
  const token = tokenOf(world, mint)
  const view = mintView(world, mint)
  const current = await keyOf(world, view.mintAuthority, 'mint authority', mint)
  const signature = await world.run(current, [
    getSetAuthorityInstruction(
      {
        owned: address(mint),
        owner: current,
        authorityType: AuthorityType.MintTokens,
        newAuthority: next === null ? null : address(next),
      },
      { programAddress: address(token.program) },
    ),
  ])
  return {
    ...landed(world, signature),
    before: { mint_authority: view.mintAuthority },
    after: { mint_authority: mintView(world, mint).mintAuthority },
  }
}

/** Freezes a holder's token account with the freeze authority. */
export async function freezeHolder(world: World, mint: string, holder?: string): Promise<RugOutcome> {
  const target = await holderAccount(world, mint, holder)
  const before = { account: target.account, owner: target.owner, state: accountState(world, target.account) }
  const signature = await freezeAccount(world, mint, target.account)
  return { ...landed(world, signature), before, after: { ...before, state: accountState(world, target.account) } }
}
