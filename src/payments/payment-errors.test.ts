import { describe, expect, test } from 'bun:test'
import { invalidReasonCode, type PaymentErrorCode } from './payment-errors.ts'

describe("invalidReasonCode: a facilitator's refusal as the gate's machine code", () => {
  // Reasons of the official schemes (@x402/svm, @x402/evm), with the message where the reason is broad.
  const cases: [string | undefined, string | undefined, PaymentErrorCode][] = [
    ['invalid_exact_evm_insufficient_balance', undefined, 'INSUFFICIENT_FUNDS'],
    ['insufficient_funds', undefined, 'INSUFFICIENT_FUNDS'],
    ['invalid_exact_svm_transaction_simulation_failed', 'custom program error: 0x1', 'INSUFFICIENT_FUNDS'],
    ['invalid_exact_evm_nonce_already_used', undefined, 'DUPLICATE_NONCE'],
    ['invalid_exact_evm_payload_authorization_valid_before', undefined, 'EXPIRED_PAYMENT'],
    ['invalid_exact_svm_transaction_simulation_failed', 'Simulation failed: "BlockhashNotFound"', 'EXPIRED_PAYMENT'],
    ['invalid_exact_svm_network_mismatch', undefined, 'NETWORK_MISMATCH'],
    ['invalid_exact_svm_payload_amount_mismatch', undefined, 'INVALID_AMOUNT'],
    ['invalid_exact_evm_payload_authorization_value_mismatch', undefined, 'INVALID_AMOUNT'],
    ['invalid_exact_evm_signature', undefined, 'INVALID_SIGNATURE'],
    ['invalid_exact_svm_payload_signature_invalid', undefined, 'INVALID_SIGNATURE'],
    ['invalid_exact_svm_payload_memo_mismatch', undefined, 'PAYMENT_REFUSED'],
    [undefined, undefined, 'PAYMENT_REFUSED'],
  ]
  for (const [reason, message, code] of cases)
    test(`${code}: ${reason} ${message ?? ''}`, () => expect(invalidReasonCode(reason, message)).toBe(code))
})
