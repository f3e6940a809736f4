import { describe, expect, test } from 'bun:test'
import { getAddressDecoder, type Address } from '@solana/kit'
import { anchorAccountDiscriminator } from './anchor.ts'
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS, WRAPPED_SOL_MINT_ADDRESS } from './programs.ts'
import {
  CPMM_POOL_STATE_DISCRIMINATOR,
  CPMM_POOL_STATE_SIZE,
  decodeCpmmPoolState,
  getCpmmPoolStateCodec,
  type CpmmPoolState,
} from './raydium-cpmm.ts'

const key = (n: number): Address => getAddressDecoder().decode(new Uint8Array(32).fill(n))

const pool: CpmmPoolState = {
  ammConfig: key(1),
  poolCreator: key(2),
  token0Vault: key(3),
  token1Vault: key(4),
  lpMint: key(5),
  token0Mint: WRAPPED_SOL_MINT_ADDRESS,
  token1Mint: key(7),
  token0Program: TOKEN_PROGRAM_ADDRESS,
  token1Program: TOKEN_2022_PROGRAM_ADDRESS,
  observationKey: key(10),
  authBump: 253,
  status: 4,
  lpMintDecimals: 9,
  mint0Decimals: 9,
  mint1Decimals: 6,
  lpSupply: 4_242_640_687n,
  protocolFeesToken0: 1n,
  protocolFeesToken1: 2n,
  fundFeesToken0: 3n,
  fundFeesToken1: 4n,
  openTime: 1_735_689_600n,
  recentEpoch: 812n,
  creatorFeeOn: 1,
  enableCreatorFee: true,
  padding1: new Uint8Array(6),
  creatorFeesToken0: 5n,
  creatorFeesToken1: 6n,
  padding: Array.from({ length: 28 }, () => 0n),
}

describe('CPMM PoolState layout', () => {
  test('discriminator is sha256("account:PoolState")[0..8]', () => {
    expect([...CPMM_POOL_STATE_DISCRIMINATOR]).toEqual([...anchorAccountDiscriminator('PoolState')])
  })

  test('is PoolState::LEN = 637 bytes', () => {
    expect(getCpmmPoolStateCodec().fixedSize).toBe(CPMM_POOL_STATE_SIZE)
    expect(CPMM_POOL_STATE_SIZE).toBe(637)
  })

  test('round-trips every field', () => {
    expect(decodeCpmmPoolState(getCpmmPoolStateCodec().encode(pool))).toEqual(pool)
  })

  test('places fields at their packed offsets', () => {
    const bytes = getCpmmPoolStateCodec().encode(pool)
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    expect(getAddressDecoder().decode(bytes.slice(136, 168))).toBe(pool.lpMint)
    expect(getAddressDecoder().decode(bytes.slice(168, 200))).toBe(pool.token0Mint)
    expect(bytes[328]).toBe(253) // auth_bump, after ten keys
    expect(bytes[329]).toBe(4) // status: swap disabled
    expect(view.getBigUint64(333, true)).toBe(pool.lpSupply)
    expect(view.getBigUint64(397, true)).toBe(5n) // creator_fees_token_0, after creator_fee_on, the flag and 6 padding bytes
  })

  test('returns undefined for a wrong discriminator or a short account', () => {
    const bytes = getCpmmPoolStateCodec().encode(pool)
    expect(decodeCpmmPoolState(bytes.slice(0, CPMM_POOL_STATE_SIZE - 1))).toBeUndefined()
    expect(decodeCpmmPoolState(bytes.map((b, i) => (i === 3 ? b ^ 0xff : b)))).toBeUndefined()
  })
})
