import { describe, expect, test } from 'bun:test'
import { payloadNetwork, refusalCode } from './x402-extension.ts'

describe('refusalCode: the spec §9.1 code of a refusal, from its words', () => {
  // Reasons as the gate (src/payments/gate.ts, match.ts, payment-header.ts) and the facilitators word them.
  const cases: [string, string][] = [
    ['this payment was already used (settled in 4Zc5…): sign a new one for a new call', 'DUPLICATE_NONCE'],
    [
      'this payment is owed one call of POST /scan/quick (20000 atomic units) for the request it first paid for',
      'DUPLICATE_NONCE',
    ],
    [
      'this payment did not settle and never can (blockhash expired): nothing was charged; sign a new one',
      'SETTLEMENT_FAILED',
    ],
    [
      'settlement failed: transaction simulation failed; nothing was charged and the result is withheld',
      'SETTLEMENT_FAILED',
    ],
    ['the facilitator refused the payment: insufficient_funds', 'INSUFFICIENT_FUNDS'],
    ['the facilitator refused the payment: invalid_exact_evm_payload_authorization_valid_before', 'EXPIRED_PAYMENT'],
    [
      'the facilitator refused the payment: invalid_exact_svm_transaction_simulation_failed (Simulation failed: "BlockhashNotFound")',
      'EXPIRED_PAYMENT',
    ],
    ['network "solana:abc" is not offered for this call (offered: eip155:8453, solana:5eykt4…)', 'NETWORK_MISMATCH'],
    ['the payment is for 20000 atomic units; this call costs 500000', 'INVALID_AMOUNT'],
    ['the facilitator refused the payment: invalid_exact_evm_payload_signature', 'INVALID_SIGNATURE'],
    ['the payment payload must be a JSON object', 'PAYMENT_REFUSED'],
  ]
  for (const [reason, code] of cases) test(`${code}: ${reason}`, () => expect(refusalCode(reason)).toBe(code))
})

describe('payloadNetwork', () => {
  test('reads x402 v2 (accepted.network) and v1 (network); anything else is empty', () => {
    expect(payloadNetwork({ x402Version: 2, accepted: { network: 'eip155:8453' } })).toBe('eip155:8453')
    expect(payloadNetwork({ x402Version: 1, network: 'base' })).toBe('base')
    expect(payloadNetwork('garbage')).toBe('')
    expect(payloadNetwork({ accepted: { network: 7 } })).toBe('')
  })
})
