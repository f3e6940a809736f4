import { describe, expect, test } from 'bun:test'
import { getProgramDerivedAddress } from '@solana/kit'
import { SYSTEM_PROGRAM_ADDRESS as SYSTEM_FROM_PACKAGE } from '@solana-program/system'
import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS as ATA_FROM_PACKAGE,
  TOKEN_PROGRAM_ADDRESS as TOKEN_FROM_PACKAGE,
} from '@solana-program/token'
import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  BURN_ADDRESSES,
  INCINERATOR_ADDRESS,
  RAYDIUM_AMM_V4_AUTHORITY_ADDRESS,
  RAYDIUM_AMM_V4_PROGRAM_ADDRESS,
  SYSTEM_PROGRAM_ADDRESS,
  TOKEN_PROGRAM_ADDRESS,
} from './programs.ts'

describe('program ids', () => {
  test('agree with the ids the official program clients export', () => {
    expect(TOKEN_PROGRAM_ADDRESS).toBe(TOKEN_FROM_PACKAGE)
    expect(ASSOCIATED_TOKEN_PROGRAM_ADDRESS).toBe(ATA_FROM_PACKAGE)
    expect(SYSTEM_PROGRAM_ADDRESS).toBe(SYSTEM_FROM_PACKAGE)
  })

  test('the Raydium AMM v4 authority is the ["amm authority"] PDA of the AMM v4 program', async () => {
    const [authority] = await getProgramDerivedAddress({
      programAddress: RAYDIUM_AMM_V4_PROGRAM_ADDRESS,
      seeds: ['amm authority'],
    })
    expect(authority).toBe(RAYDIUM_AMM_V4_AUTHORITY_ADDRESS)
  })

  test('burn addresses include the incinerator and the all-zero key', () => {
    expect(BURN_ADDRESSES).toContain(INCINERATOR_ADDRESS)
    expect(BURN_ADDRESSES).toContain(SYSTEM_PROGRAM_ADDRESS)
  })
})
