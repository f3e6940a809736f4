/** The rug controls of Token-2022 extensions: fee, transfer hook, permanent delegate, default state, pause. */

import { getTransferCheckedInstruction } from '@solana-program/token'
import { readTokenAccount } from '../chain/token-balances.ts'
import {
  getSetPausedInstruction,
  getSetTransferFeeInstruction,
  getUpdateDefaultAccountStateInstruction,
  getUpdateTransferHookInstruction,
} from '../token/instructions.ts'
import { trusted as address } from '../world/addresses.ts'
import type { World } from '../world/world.ts'
import {
  extension,
  holderAccount,
  keyOf,
  landed,
  mintView,
  RugRefusal,
  share,
  tokenOf,
  type RugOutcome,
} from './chain-view.ts'

/** A program id where no program is deployed: a transfer hook pointing at it fails every transfer. */
export const ABSENT_HOOK_PROGRAM = 'HooKAbsentProgram11111111111111111111111111'
const U64_MAX = 0xffff_ffff_ffff_ffffn
/** Token-2022 stores a transfer fee's cap as a u64 of raw units; "no cap" is its maximum. */
const NO_FEE_CAP = U64_MAX

function feeOf(world: World, mint: string) {
  const state = extension(world, mint, 'transferFeeConfig')
  const fee = state.newerTransferFee
  return {
    transfer_fee_bps: fee.transferFeeBasisPoints,
    maximum_fee: fee.maximumFee.toString(),
    epoch: fee.epoch.toString(),
    authority: state.transferFeeConfigAuthority,
  }
}

/**
 * Raises the Token-2022 transfer fee to `bps` (capped at `maximumFee` raw units, default none) with the
 * fee authority. Token-2022 applies it from two epochs on: `newerTransferFee` shows it at once.
 */
export async function raiseTransferFee(
  world: World,
  mint: string,
  bps: number,
  maximumFee = NO_FEE_CAP,
): Promise<RugOutcome> {
  tokenOf(world, mint)
  const before = feeOf(world, mint)
  const authority = await keyOf(world, before.authority, 'transfer fee authority', mint)
  const signature = await world.run(authority, [
    getSetTransferFeeInstruction({ mint: address(mint), authority, transferFeeBasisPoints: bps, maximumFee }),
  ])
  return { ...landed(world, signature), before, after: feeOf(world, mint) }
}

/** Points the Token-2022 transfer hook at `program` (default: one that is not deployed, so transfers fail). */
export async function setTransferHook(world: World, mint: string, program: string | null): Promise<RugOutcome> {
  tokenOf(world, mint)
  const before = extension(world, mint, 'transferHook')
  const authority = await keyOf(world, before.authority, 'transfer hook authority', mint)
  const signature = await world.run(authority, [
    getUpdateTransferHookInstruction({
      mint: address(mint),
      authority,
      programId: program === null ? null : address(program),
    }),
  ])
  return {
    ...landed(world, signature),
    before: { program_id: before.programId },
    after: { program_id: extension(world, mint, 'transferHook').programId },
  }
}

/**
 * Moves `percent` of a holder's tokens to the developer with the permanent delegate's signature alone
 * (a TransferChecked whose authority is the delegate, not the owner).
 */
export async function permanentDelegateTransfer(
  world: World,
  mint: string,
  percent: number,
  holder?: string,
): Promise<RugOutcome> {
  const token = tokenOf(world, mint)
  const { delegate } = extension(world, mint, 'permanentDelegate')
  const signer = await keyOf(world, delegate, 'permanent delegate', mint)
  const target = await holderAccount(world, mint, holder)
  const held = readTokenAccount(world.chain.getAccount(target.account)!.data).amount
  const amount = share(held, percent)
  if (amount === 0n) throw new RugRefusal('NOT_POSSIBLE', `${target.account} holds nothing to move`)
  const destination = await world.ata(mint, signer.address)
  const { getCreateAssociatedTokenIdempotentInstruction } = await import('@solana-program/token')
  const signature = await world.run(signer, [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: signer,
      ata: destination,
      owner: signer.address,
      mint: address(mint),
      tokenProgram: address(token.program),
    }),
    getTransferCheckedInstruction(
      {
        source: address(target.account),
        mint: address(mint),
        destination,
        authority: signer,
        amount,
        decimals: token.decimals,
      },
      { programAddress: address(token.program) },
    ),
  ])
  const balance = () => readTokenAccount(world.chain.getAccount(target.account)!.data).amount.toString()
  return {
    ...landed(world, signature),
    before: { account: target.account, owner: target.owner, amount: held.toString() },
    after: { account: target.account, owner: target.owner, amount: balance(), moved_to: destination },
  }
}

/** Sets the state new token accounts start in (default frozen), with the freeze authority. */
export async function setDefaultAccountState(
  world: World,
  mint: string,
  state: 'initialized' | 'frozen',
): Promise<RugOutcome> {
  tokenOf(world, mint)
  const before = extension(world, mint, 'defaultAccountState').accountState
  const authority = await keyOf(world, mintView(world, mint).freezeAuthority, 'freeze authority', mint)
  const signature = await world.run(authority, [
    getUpdateDefaultAccountStateInstruction({ mint: address(mint), freezeAuthority: authority, state }),
  ])
  return {
    ...landed(world, signature),
    before: { default_account_state: before },
    after: { default_account_state: extension(world, mint, 'defaultAccountState').accountState },
  }
}

/** Pauses (or resumes) every transfer, mint and burn of a Token-2022 mint with the Pausable extension. */
export async function setPaused(world: World, mint: string, paused: boolean): Promise<RugOutcome> {
  tokenOf(world, mint)
  const before = extension(world, mint, 'pausableConfig')
  const authority = await keyOf(world, before.authority, 'pause authority', mint)
  const signature = await world.run(authority, [getSetPausedInstruction({ mint: address(mint), authority, paused })])
  return {
    ...landed(world, signature),
    before: { paused: before.paused },
    after: { paused: extension(world, mint, 'pausableConfig').paused },
  }
}
