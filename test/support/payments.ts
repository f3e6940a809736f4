import { type Payments, UNCONFIGURED_PAYMENTS } from '../../src/payments/payments.ts'

/**
 * Payments that admit every call and settle nothing, for tests (and benches) of what a priced route
 * computes: passed to createContext as `payments`, the same way any implementation is. The service
 * itself never uses them. Nothing is offered or recorded, and there is nothing to start or resolve.
 */
export const WAIVED_PAYMENTS: Payments = {
  ...UNCONFIGURED_PAYMENTS,
  async admit() {
    return { kind: 'paid', ticket: { key: null, payer: null } }
  },
  async settle() {
    return { kind: 'settled', receipt: null }
  },
}
