import { describe, expect, test } from 'bun:test'
import { getProgramDerivedAddress } from '@solana/kit'
import RECORDED from '../../test/fixtures/recorded/accounts/jupiter-lock-vesting-escrow.json' with { type: 'json' }
import {
  decodeVestingEscrow,
  LOCK_ESCROW_DISCRIMINATOR,
  lockOf,
  VESTING_ESCROW_DISCRIMINATOR,
  vestingEnd,
} from './locks.ts'
import {
  JUPITER_LOCK_PROGRAM_ADDRESS,
  METEORA_DAMM_V1_PROGRAM_ADDRESS,
  RAYDIUM_LOCK_CPMM_AUTHORITY_ADDRESS,
  RAYDIUM_LOCK_PROGRAM_ADDRESS,
} from './programs.ts'

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const escrowData = new Uint8Array(Buffer.from(RECORDED.answer, 'base64'))

describe('Jupiter Lock VestingEscrow', () => {
  test('the discriminators are the published ones', () => {
    expect(hex(VESTING_ESCROW_DISCRIMINATOR)).toBe('f477b704497487c3')
    expect(hex(LOCK_ESCROW_DISCRIMINATOR)).toBe('be6a7906c8b6154b')
  })

  test('decodes a recorded escrow (taken from mainnet, as its test asserts it)', () => {
    const escrow = decodeVestingEscrow(escrowData)!
    expect({ ...escrow } as Record<string, unknown>).toEqual({
      recipient: 'GWU4gnhaGPdhh4mcXudMpBXRUVJxqRPPXaSc8UkU2D3u',
      tokenMint: '91vg3y8HsmcShJARjpEMZBu5z2W5BwY4fdCj46QZCCnk',
      creator: 'FhVo3mqL8PW5pH5U2CN4XE33DokiyZnUwuGpH2hmHLuM',
      cliffTime: 1_760_730_049n,
      frequency: 86_400n,
      cliffUnlockAmount: 0n,
      amountPerPeriod: 273_972_602_739_726n,
      numberOfPeriod: 1_825n,
      totalClaimedAmount: 6n,
      cancelledAt: 0n,
      // Its creator may cancel it at any time (and take back what has not vested).
      cancelMode: 1,
    })
    // Daily releases for 1 825 days after the cliff: fully released five years on.
    expect(vestingEnd(escrow)).toBe(1_760_730_049 + 86_400 * 1_825)
  })

  test('refuses data of another account kind or length', () => {
    expect(decodeVestingEscrow(escrowData.subarray(0, 200))).toBeUndefined()
    expect(decodeVestingEscrow(new Uint8Array(296))).toBeUndefined()
  })
})

describe('lockOf', () => {
  test("the Raydium lock's CPMM authority is the PDA its program derives: a permanent lock", async () => {
    const [authority] = await getProgramDerivedAddress({
      programAddress: RAYDIUM_LOCK_PROGRAM_ADDRESS,
      seeds: ['lock_cp_authority_seed'],
    })
    expect(authority).toBe(RAYDIUM_LOCK_CPMM_AUTHORITY_ADDRESS)
    expect(lockOf(authority, undefined)).toEqual({ program: 'raydium_burn_and_earn', permanent: true, unlocksAt: null })
  })

  test('a Jupiter Lock escrow is dated by its first release; one its creator may cancel, or cancelled, locks nothing', () => {
    // The recorded escrow: its creator may cancel it at any time, so it holds nothing for sure.
    const escrow = { owner: JUPITER_LOCK_PROGRAM_ADDRESS, data: escrowData }
    expect(lockOf('escrow', escrow)).toBeUndefined()
    // Nobody may cancel: locked until its first daily release, a day after the cliff (not five years on).
    const uncancellable = new Uint8Array(escrowData)
    uncancellable[138] = 0
    expect(lockOf('escrow', { ...escrow, data: uncancellable })).toEqual({
      program: 'jupiter_lock',
      permanent: false,
      unlocksAt: 1_760_730_049 + 86_400,
    })
    // A cliff that releases an amount: locked until the cliff.
    const cliff = new Uint8Array(uncancellable)
    new DataView(cliff.buffer).setBigUint64(160, 1_000n, true)
    expect(lockOf('escrow', { ...escrow, data: cliff })?.unlocksAt).toBe(1_760_730_049)
    const cancelled = new Uint8Array(uncancellable)
    new DataView(cancelled.buffer).setBigUint64(200, 1_770_000_000n, true)
    expect(lockOf('escrow', { ...escrow, data: cancelled })).toBeUndefined()
    // Another account of the lock program (its root escrow): locked, but not datable.
    expect(lockOf('root', { ...escrow, data: new Uint8Array(300) })).toEqual({
      program: 'jupiter_lock',
      permanent: false,
      unlocksAt: null,
    })
  })

  test("a Meteora DAMM v1 lock escrow is permanent; a wallet's account is no lock", () => {
    const data = new Uint8Array(160)
    data.set(LOCK_ESCROW_DISCRIMINATOR)
    expect(lockOf('escrow', { owner: METEORA_DAMM_V1_PROGRAM_ADDRESS, data })?.permanent).toBe(true)
    expect(lockOf('wallet', { owner: '11111111111111111111111111111111', data: new Uint8Array() })).toBeUndefined()
    expect(lockOf('wallet', undefined)).toBeUndefined()
  })
})
