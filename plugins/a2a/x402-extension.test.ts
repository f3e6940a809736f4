import { describe, expect, test } from 'bun:test'
import { payloadNetwork, refusalCode } from './x402-extension.ts'

describe("refusalCode: the extension's code of a refused payment, from the gate's machine code", () => {
  test('a coded 402 body: its code', () => {
    for (const code of [
      'DUPLICATE_NONCE',
      'INVALID_AMOUNT',
      'NETWORK_MISMATCH',
      'INSUFFICIENT_FUNDS',
      'INVALID_PAYLOAD',
    ])
      expect(refusalCode({ code: 'PAYMENT_REQUIRED', payment_error: code, message: 'whatever the words' })).toBe(code)
  })
  test('no code, or one the gate does not give: PAYMENT_REFUSED, whatever the words say', () => {
    expect(refusalCode({ code: 'PAYMENT_REQUIRED', message: 'this payment was already used' })).toBe('PAYMENT_REFUSED')
    expect(refusalCode({ payment_error: 'toString' })).toBe('PAYMENT_REFUSED')
    expect(refusalCode(null)).toBe('PAYMENT_REFUSED')
  })
})

describe('payloadNetwork', () => {
  test('reads x402 v2 (accepted.network) and v1 (network); anything else is empty', () => {
    expect(payloadNetwork({ x402Version: 2, accepted: { network: 'eip155:8453' } })).toBe('eip155:8453')
    expect(payloadNetwork({ x402Version: 1, network: 'base' })).toBe('base')
    expect(payloadNetwork('garbage')).toBe('')
    expect(payloadNetwork({ accepted: { network: 7 } })).toBe('')
  })
})
