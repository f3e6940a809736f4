import { describe, expect, test } from 'bun:test'
import { realNumberStringTrimmed, tokenAmountToUiAmount, type InterestBearingRates } from './ui-amount.ts'

// Cases mirror agave's own tests in account-decoder/src/parse_token.rs.
describe('realNumberStringTrimmed', () => {
  test.each([
    [1n, 0, '1'],
    [10n, 0, '10'],
    [1n, 9, '0.000000001'],
    [1_000_000_000n, 9, '1'],
    [1_234_567_890n, 3, '1234567.89'],
    [1_234_567_890n, 25, '0.000000000000000123456789'],
    [0n, 9, '0'],
    [0n, 0, '0'],
    [18_446_744_073_709_551_615n, 6, '18446744073709.551615'],
  ])('%p with %p decimals is %s', (amount, decimals, text) => {
    expect(realNumberStringTrimmed(amount, decimals)).toBe(text)
  })
})

describe('tokenAmountToUiAmount without amount scaling', () => {
  test('divides by 10^decimals in f64 and keeps the raw amount as a string', () => {
    expect(tokenAmountToUiAmount(1_234_567_890n, { decimals: 3 })).toEqual({
      uiAmount: 1234567.89,
      decimals: 3,
      amount: '1234567890',
      uiAmountString: '1234567.89',
    })
    expect(tokenAmountToUiAmount(1n, { decimals: 9 }).uiAmount).toBe(0.000000001)
  })

  test('has no uiAmount once 10^decimals overflows a u64 (20 decimals and more)', () => {
    expect(tokenAmountToUiAmount(1_234_567_890n, { decimals: 19 }).uiAmount).toBe(1.23456789e-10)
    const amount = tokenAmountToUiAmount(1_234_567_890n, { decimals: 20 })
    expect(amount.uiAmount).toBeNull()
    expect(amount.uiAmountString).toBe('0.0000000000123456789')
  })
})

const INT_SECONDS_PER_YEAR = 6n * 6n * 24n * 36524n
const ONE = 1_000_000_000_000_000_000n
const TEN = 10_000_000_000_000_000_000n

describe('tokenAmountToUiAmount on an interest-bearing mint', () => {
  const fivePercent: InterestBearingRates = {
    initializationTimestamp: 0n,
    preUpdateAverageRate: 500,
    lastUpdateTimestamp: INT_SECONDS_PER_YEAR,
    currentRate: 500,
  }

  test('compounds continuously from initialization to the clock', () => {
    const info = { decimals: 18, interestBearing: { config: fivePercent, unixTimestamp: INT_SECONDS_PER_YEAR } }
    const one = tokenAmountToUiAmount(ONE, info)
    expect(one.uiAmountString.startsWith('1.051271096376024117')).toBe(true)
    expect(one.uiAmount).toBeCloseTo(1.0512710963760241, 15)
    expect(one.amount).toBe(ONE.toString())
    expect(tokenAmountToUiAmount(TEN, info).uiAmountString.startsWith('10.512710963760241611')).toBe(true)
  })

  test('prints inf and a null uiAmount when the interest overflows f64', () => {
    const huge: InterestBearingRates = {
      initializationTimestamp: 0n,
      preUpdateAverageRate: 32767,
      lastUpdateTimestamp: 0n,
      currentRate: 32767,
    }
    const info = { decimals: 0, interestBearing: { config: huge, unixTimestamp: INT_SECONDS_PER_YEAR * 1000n } }
    expect(tokenAmountToUiAmount(18_446_744_073_709_551_615n, info)).toMatchObject({
      uiAmount: null,
      uiAmountString: 'inf',
    })
  })

  test('prints an empty string when the i64 timespan overflows', () => {
    const config = { ...fivePercent, lastUpdateTimestamp: -(1n << 63n) }
    const info = { decimals: 2, interestBearing: { config, unixTimestamp: 1n << 62n } }
    expect(tokenAmountToUiAmount(100n, info)).toMatchObject({ uiAmount: null, uiAmountString: '' })
  })
})

describe('tokenAmountToUiAmount on a scaled-UI-amount mint', () => {
  const doubling = { multiplier: 0, newMultiplierEffectiveTimestamp: 0n, newMultiplier: 2 }

  test('applies the new multiplier once its timestamp is reached', () => {
    const info = { decimals: 18, scaledUiAmount: { config: doubling, unixTimestamp: 0n } }
    expect(tokenAmountToUiAmount(ONE, info)).toMatchObject({ uiAmount: 2, uiAmountString: '2' })
    expect(tokenAmountToUiAmount(TEN, info).uiAmountString.startsWith('20')).toBe(true)
  })

  test('uses the old multiplier before that', () => {
    const config = { multiplier: 1.5, newMultiplierEffectiveTimestamp: 100n, newMultiplier: 3 }
    const info = { decimals: 2, scaledUiAmount: { config, unixTimestamp: 99n } }
    expect(tokenAmountToUiAmount(1_000n, info)).toMatchObject({ uiAmount: 15, uiAmountString: '15' })
  })

  test('prints inf for an infinite multiplier', () => {
    const config = { multiplier: 0, newMultiplierEffectiveTimestamp: 0n, newMultiplier: Infinity }
    const info = { decimals: 0, scaledUiAmount: { config, unixTimestamp: 0n } }
    expect(tokenAmountToUiAmount(18_446_744_073_709_551_615n, info)).toMatchObject({
      uiAmount: null,
      uiAmountString: 'inf',
    })
  })
})
