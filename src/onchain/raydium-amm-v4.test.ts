import { describe, expect, test } from 'bun:test'
import { address, getAddressDecoder, type Address } from '@solana/kit'
import { WRAPPED_SOL_MINT_ADDRESS } from './programs.ts'
import { AMM_INFO_SIZE, AMM_STATUS, decodeAmmInfo, getAmmInfoCodec, type AmmInfo } from './raydium-amm-v4.ts'

/** Distinct keys, so a field read from the wrong offset shows up as the wrong key. */
const key = (n: number): Address => getAddressDecoder().decode(new Uint8Array(32).fill(n))

const amm: AmmInfo = {
  status: AMM_STATUS.SwapOnly,
  nonce: 254n,
  orderNum: 7n,
  depth: 3n,
  coinDecimals: 6n,
  pcDecimals: 9n,
  state: 1n,
  resetFlag: 0n,
  minSize: 1_000_000n,
  volMaxCutRatio: 500n,
  amountWave: 5_000_000n,
  coinLotSize: 1n,
  pcLotSize: 1n,
  minPriceMultiplier: 1n,
  maxPriceMultiplier: 1_000_000_000n,
  sysDecimalValue: 1_000_000_000n,
  fees: {
    minSeparateNumerator: 5n,
    minSeparateDenominator: 10_000n,
    tradeFeeNumerator: 25n,
    tradeFeeDenominator: 10_000n,
    pnlNumerator: 12n,
    pnlDenominator: 100n,
    swapFeeNumerator: 25n,
    swapFeeDenominator: 10_000n,
  },
  stateData: {
    needTakePnlCoin: 11n,
    needTakePnlPc: 12n,
    totalPnlPc: 0n,
    totalPnlCoin: 0n,
    poolOpenTime: 1_735_689_600n,
    padding: [0n, 0n],
    orderbookToInitTime: 0n,
    swapCoinInAmount: 2n ** 100n,
    swapPcOutAmount: 3n,
    swapAccPcFee: 4n,
    swapPcInAmount: 5n,
    swapCoinOutAmount: 6n,
    swapAccCoinFee: 7n,
  },
  coinVault: key(1),
  pcVault: key(2),
  coinVaultMint: key(3),
  pcVaultMint: WRAPPED_SOL_MINT_ADDRESS,
  lpMint: key(5),
  openOrders: key(6),
  market: key(7),
  marketProgram: address('srmqPvymJeFKQ4zGQed1GFppgkRHL9kaELCbyksJtPX'),
  targetOrders: key(9),
  padding1: [0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n],
  ammOwner: key(10),
  lpAmount: 123_456_789n,
  clientOrderId: 0n,
  recentEpoch: 800n,
  padding2: 0n,
}

describe('AmmInfo layout', () => {
  test('is the 752-byte size_of::<AmmInfo>()', () => {
    expect(getAmmInfoCodec().fixedSize).toBe(AMM_INFO_SIZE)
    expect(AMM_INFO_SIZE).toBe(752)
  })

  test('round-trips every field', () => {
    expect(decodeAmmInfo(getAmmInfoCodec().encode(amm))).toEqual(amm)
  })

  // Offsets follow from the packed struct: 16 u64 (128), Fees (64), StateData (144), then the keys.
  test.each([
    ['coinVault', 336],
    ['pcVault', 368],
    ['coinVaultMint', 400],
    ['pcVaultMint', 432],
    ['lpMint', 464],
    ['openOrders', 496],
    ['market', 528],
    ['marketProgram', 560],
    ['targetOrders', 592],
    ['ammOwner', 688],
  ] as const)('%s sits at byte %i', (field, offset) => {
    const bytes = getAmmInfoCodec().encode(amm)
    expect(getAddressDecoder().decode(bytes.slice(offset, offset + 32))).toBe(amm[field])
  })

  test('numbers sit at their packed offsets', () => {
    const bytes = getAmmInfoCodec().encode(amm)
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    expect(view.getBigUint64(0, true)).toBe(AMM_STATUS.SwapOnly)
    expect(view.getBigUint64(144, true)).toBe(25n) // fees.trade_fee_numerator
    expect(view.getBigUint64(224, true)).toBe(amm.stateData.poolOpenTime)
    expect(view.getBigUint64(720, true)).toBe(amm.lpAmount)
    expect(view.getBigUint64(736, true)).toBe(amm.recentEpoch)
  })

  test.each([751, 753, 0])('returns undefined for %i bytes (the program requires exactly 752)', (size) => {
    const data = new Uint8Array(size)
    data.set(getAmmInfoCodec().encode(amm).slice(0, size))
    expect(decodeAmmInfo(data)).toBeUndefined()
  })
})
