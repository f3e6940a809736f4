import { describe, expect, test } from 'bun:test'
import { addressesIn, atomicUnits, dollarsIn, percentIn, saysPhrase, windowIn } from './asked.ts'

const WINDOWS = ['5m', '1h', '6h', '24h'] as const
const MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263'

describe('the readers of what words state', () => {
  const windows: [string, (typeof WINDOWS)[number] | undefined][] = [
    ['Signal radar over the last 6 hours', '6h'],
    ['Top traded Solana tokens over 24 hours, graded', '24h'],
    ['trending 24h', '24h'],
    ['smart money in the last hour', '1h'],
    ['over the past day', '24h'],
    ['last 5 minutes', '5m'],
    ['over 3 hours', undefined],
    ['What is trending on Solana right now?', undefined],
    // Digits inside an address are not a window.
    [`trending ${MINT.slice(0, 30)}6h`, undefined],
  ]
  for (const [text, window] of windows)
    test(`windowIn: ${text} → ${window}`, () => expect(windowIn(text, WINDOWS)).toBe(window))

  const percents: [string, number | undefined][] = [
    ['Curves above 80% bonded', 80],
    ['above 72.5 percent', 72.5],
    ['between 60% and 90%', undefined],
    ['curves about to graduate', undefined],
  ]
  for (const [text, percent] of percents)
    test(`percentIn: ${text} → ${percent}`, () => expect(percentIn(text)).toBe(percent))

  const dollars: [string, number | undefined][] = [
    ['spending at most 0.30 USD', 0.3],
    ['up to $2', 2],
    ['no more than 1.5 usdc', 1.5],
    ['between $1 and $2', undefined],
    ['every token I hold', undefined],
  ]
  for (const [text, amount] of dollars)
    test(`dollarsIn: ${text} → ${amount}`, () => expect(dollarsIn(text)).toBe(amount))

  test('atomicUnits: exact, never past the decimals, never zero', () => {
    expect(atomicUnits('0.5', 9)).toBe('500000000')
    expect(atomicUnits('100', 6)).toBe('100000000')
    expect(atomicUnits('0.0000001', 6)).toBeUndefined()
    expect(atomicUnits('0', 6)).toBeUndefined()
    expect(atomicUnits('1e3', 6)).toBeUndefined()
  })

  test('saysPhrase: whole words, any case', () => {
    expect(saysPhrase('Quick Scan it', 'quick scan')).toBe(true)
    expect(saysPhrase('scanner', 'scan')).toBe(false)
    expect(saysPhrase('new pump.fun coins', 'pump.fun')).toBe(true)
  })

  test('addressesIn: each distinct address once, in order', () => {
    expect(addressesIn(`${MINT} or ${MINT}?`)).toEqual([MINT])
    expect(addressesIn('no address here')).toEqual([])
  })
})
