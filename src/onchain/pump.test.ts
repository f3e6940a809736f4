import { describe, expect, test } from 'bun:test'
import { address } from '@solana/kit'
import { anchorAccountDiscriminator } from './anchor.ts'
import { findAssociatedTokenAddress } from './pda.ts'
import { SYSTEM_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from './programs.ts'
import {
  BONDING_CURVE_DISCRIMINATOR,
  BONDING_CURVE_MIN_SIZE,
  BONDING_CURVE_SIZE,
  decodeBondingCurve,
  findAssociatedBondingCurveAddress,
  findBondingCurveAddress,
  getBondingCurveCodec,
  type BondingCurve,
} from './pump.ts'

/** A curve mid-way: reserves as in pump's docs example after a 13-lamport buy. */
const curve: BondingCurve = {
  virtualTokenReserves: 1_072_999_999_992_855n,
  virtualQuoteReserves: 30_000_000_013n,
  realTokenReserves: 793_099_999_992_855n,
  realQuoteReserves: 13n,
  tokenTotalSupply: 1_000_000_000_000_000n,
  complete: false,
  creator: address('3WNi4g2ftVvRyYW68xyDxCBVrfXHbHjJUpdwHs7WsXcC'),
  isMayhemMode: true,
  isCashbackCoin: false,
  quoteMint: SYSTEM_PROGRAM_ADDRESS,
  creatorFeeBps: 30n,
  canEditCreatorFee: true,
  isHolderReward: true,
}

describe('BondingCurve layout', () => {
  test('discriminator is sha256("account:BondingCurve")[0..8]', () => {
    expect([...BONDING_CURVE_DISCRIMINATOR]).toEqual([...anchorAccountDiscriminator('BondingCurve')])
  })

  test('the codec writes exactly the documented layout size', () => {
    expect(getBondingCurveCodec().fixedSize).toBe(BONDING_CURVE_SIZE)
    expect(getBondingCurveCodec().encode(curve).length).toBe(125)
    expect(BONDING_CURVE_MIN_SIZE).toBe(49)
  })

  test('round-trips every field', () => {
    expect(decodeBondingCurve(getBondingCurveCodec().encode(curve))).toEqual(curve)
  })

  test('places fields at their IDL offsets', () => {
    const bytes = getBondingCurveCodec().encode(curve)
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    expect(view.getBigUint64(8, true)).toBe(curve.virtualTokenReserves)
    expect(view.getBigUint64(40, true)).toBe(curve.tokenTotalSupply)
    expect(bytes[48]).toBe(0) // complete
    expect(bytes[81]).toBe(1) // is_mayhem_mode, after the 32-byte creator at 49
    expect(view.getBigUint64(115, true)).toBe(30n) // creator_fee_bps, after quote_mint at 83
  })

  test('reads an old 49-byte curve with the later fields as zero', () => {
    const full = getBondingCurveCodec().encode({ ...curve, complete: true })
    const decoded = decodeBondingCurve(full.slice(0, BONDING_CURVE_MIN_SIZE))
    expect(decoded).toEqual({
      ...curve,
      complete: true,
      creator: SYSTEM_PROGRAM_ADDRESS,
      isMayhemMode: false,
      isHolderReward: false,
      creatorFeeBps: 0n,
      canEditCreatorFee: false,
    })
  })

  test('reads an account extended past the layout (151 bytes) and ignores the zero tail', () => {
    const extended = new Uint8Array(151)
    extended.set(getBondingCurveCodec().encode(curve))
    expect(decodeBondingCurve(extended)).toEqual(curve)
  })

  test.each([
    [
      'another discriminator',
      () =>
        getBondingCurveCodec()
          .encode(curve)
          .map((b, i) => (i === 0 ? b ^ 1 : b)),
    ],
    ['data shorter than the original layout', () => getBondingCurveCodec().encode(curve).slice(0, 48)],
    ['no data', () => new Uint8Array(0)],
  ])('returns undefined for %s', (_name, data) => {
    expect(decodeBondingCurve(data())).toBeUndefined()
  })
})

describe('bonding curve PDAs', () => {
  test('derives ["bonding-curve", mint] as mainnet has it', async () => {
    // A live read of mainnet (pump SDK mainnet verification note, 2026-05-08) found this curve for this coin.
    const [curveAddress] = await findBondingCurveAddress(address('2SC3yZyeHSjUMcWqQ89j5pmr6cNsC3KftR9X6APkpump'))
    expect(curveAddress).toBe(address('64m1i2ynsvz9wphz9PeFS22WNipBLCeBocKTXzjTkdDd'))
  })

  test("the associated bonding curve is the curve PDA's token account under the given token program", async () => {
    const mint = address('2SC3yZyeHSjUMcWqQ89j5pmr6cNsC3KftR9X6APkpump')
    const [curveAddress] = await findBondingCurveAddress(mint)
    for (const tokenProgram of [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS]) {
      const [expected] = await findAssociatedTokenAddress(curveAddress, mint, tokenProgram)
      expect((await findAssociatedBondingCurveAddress(mint, tokenProgram))[0]).toBe(expected)
    }
  })
})
