import type { Address, ReadonlyUint8Array } from '@solana/kit'
import { anchorAccountDiscriminator, startsWith } from './anchor.ts'
import { encodeBase58 } from './base58.ts'
import {
  JUPITER_LOCK_PROGRAM_ADDRESS,
  METEORA_DAMM_V1_PROGRAM_ADDRESS,
  RAYDIUM_LOCK_CPMM_AUTHORITY_ADDRESS,
} from './programs.ts'

/**
 * The LP lock programs: how a token account's owner tells that its tokens are locked, and until when.
 * Layouts from each program's source (docs/data-layer.md, "LP locks"):
 *
 * - Jupiter Lock `VestingEscrow` (jup-ag/jup-lock programs/locker/src/state/vesting_escrow.rs, zero_copy,
 *   296 bytes): the locked tokens sit in the escrow PDA's associated account; fully unlocked at
 *   `cliff_time + frequency × number_of_period` (unix seconds), at `cliff_time` when either is 0;
 *   `cancelled_at` ≠ 0 means the rest went back to its creator. `cancel_mode` (u8 at 138: 0 neither,
 *   1 only the creator, 2 only the recipient, 3 either) other than 0 lets one of them cancel at any
 *   time, the rest going back to the creator: no lock at all. The first release is the cliff's
 *   (`cliff_unlock_amount` at `cliff_time`), else the first period's (`cliff_time + frequency`).
 * - Raydium Burn & Earn (raydium-io/raydium-cpi programs/locking-cpi/src/states.rs): the LP sits in the
 *   lock program's CPMM authority's associated account; there is no unlock instruction — permanent.
 * - Meteora DAMM v1 `LockEscrow` (MeteoraAg/damm-v1-sdk programs/dynamic-amm/src/state.rs): the LP sits in
 *   the escrow PDA's associated account; only `lock` and `claim_fee` exist — permanent.
 *
 * Streamflow's escrow token accounts are owned by a PDA without data (its stream account is found only by
 * a program scan), so a Streamflow lock is not recognised: its LP counts as a wallet's.
 */
export interface LpLock {
  program: 'jupiter_lock' | 'raydium_burn_and_earn' | 'meteora_lock_escrow'
  /** True when no instruction can ever release it. */
  permanent: boolean
  /** When everything it holds is unlocked (unix seconds); null for a permanent lock or one not decoded. */
  unlocksAt: number | null
}

/** `sha256("account:VestingEscrow")[0..8]` = f477b704497487c3. */
export const VESTING_ESCROW_DISCRIMINATOR = anchorAccountDiscriminator('VestingEscrow')
/** `sha256("account:LockEscrow")[0..8]` = be6a7906c8b6154b. */
export const LOCK_ESCROW_DISCRIMINATOR = anchorAccountDiscriminator('LockEscrow')
export const VESTING_ESCROW_SIZE = 296

export interface VestingEscrow {
  recipient: Address
  tokenMint: Address
  creator: Address
  cliffTime: bigint
  frequency: bigint
  cliffUnlockAmount: bigint
  amountPerPeriod: bigint
  numberOfPeriod: bigint
  totalClaimedAmount: bigint
  cancelledAt: bigint
  /** 0: nobody can cancel; 1 the creator, 2 the recipient, 3 either. */
  cancelMode: number
}

const addressAt = (data: ReadonlyUint8Array, offset: number) =>
  encodeBase58(data.subarray(offset, offset + 32)) as Address
const u64 = (data: ReadonlyUint8Array, offset: number) =>
  new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true)

/** A Jupiter Lock `VestingEscrow`, or undefined when the data is not one. */
export function decodeVestingEscrow(data: ReadonlyUint8Array): VestingEscrow | undefined {
  if (data.length < VESTING_ESCROW_SIZE || !startsWith(data, VESTING_ESCROW_DISCRIMINATOR)) return undefined
  return {
    recipient: addressAt(data, 8),
    tokenMint: addressAt(data, 40),
    creator: addressAt(data, 72),
    cliffTime: u64(data, 144),
    frequency: u64(data, 152),
    cliffUnlockAmount: u64(data, 160),
    amountPerPeriod: u64(data, 168),
    numberOfPeriod: u64(data, 176),
    totalClaimedAmount: u64(data, 184),
    cancelledAt: u64(data, 200),
    cancelMode: data[138]!,
  }
}

/**
 * When a vesting escrow first releases any of what it holds (unix seconds): the LP it holds starts to
 * leave then, so that is when a trader must count it unlocked — not when the last period vests.
 */
export function firstRelease(escrow: VestingEscrow): number {
  if (escrow.cliffUnlockAmount > 0n || escrow.frequency === 0n || escrow.amountPerPeriod === 0n)
    return escrow.cliffUnlockAmount > 0n ? Number(escrow.cliffTime) : vestingEnd(escrow)
  return Number(escrow.cliffTime + escrow.frequency)
}

/** When a vesting escrow has released everything (unix seconds). */
export function vestingEnd(escrow: VestingEscrow): number {
  const periods = escrow.frequency === 0n ? 0n : escrow.numberOfPeriod
  return Number(escrow.cliffTime + escrow.frequency * periods)
}

/**
 * The lock a token account's owner stands for: `owner` is the account's owner address, `ownerAccount`
 * that address's own account (program and data) when it has one. Undefined: not a lock we recognise.
 */
export function lockOf(
  owner: string,
  ownerAccount: { owner: string; data: ReadonlyUint8Array } | undefined,
): LpLock | undefined {
  if (owner === RAYDIUM_LOCK_CPMM_AUTHORITY_ADDRESS)
    return { program: 'raydium_burn_and_earn', permanent: true, unlocksAt: null }
  if (!ownerAccount) return undefined
  if (
    ownerAccount.owner === METEORA_DAMM_V1_PROGRAM_ADDRESS &&
    startsWith(ownerAccount.data, LOCK_ESCROW_DISCRIMINATOR)
  )
    return { program: 'meteora_lock_escrow', permanent: true, unlocksAt: null }
  if (ownerAccount.owner === JUPITER_LOCK_PROGRAM_ADDRESS) {
    const escrow = decodeVestingEscrow(ownerAccount.data)
    // A cancelled escrow released what it held, and one its creator or recipient may cancel holds
    // nothing for good: neither is a lock (its LP counts as a wallet's). An account of another kind is
    // not a lock we can date.
    if (escrow?.cancelledAt === 0n && escrow.cancelMode === 0)
      return { program: 'jupiter_lock', permanent: false, unlocksAt: firstRelease(escrow) }
    return escrow ? undefined : { program: 'jupiter_lock', permanent: false, unlocksAt: null }
  }
  return undefined
}
