import type { Payments } from '../../src/payments/payments.ts'

/**
 * Payments that admit every call and settle nothing, for tests (and benches) of what a priced route
 * computes: passed to createContext as `payments`, the same way any implementation is. The service
 * itself never uses them. Nothing is offered or recorded, and there is nothing to start or resolve.
 */
export const WAIVED_PAYMENTS: Payments = {
  async admit() {
    return { kind: 'paid', ticket: { key: null, payer: null } }
  },
  async settle() {
    return { kind: 'settled', receipt: null }
  },
  async release() {},
  supported: new Map(),
  offers: () => [],
  record: async () => undefined,
  consumeCredit: async () => false,
  reconcile: async () => ({ released: 0, pending: 0 }),
  async start() {},
  async stop() {},
  resolvePending: async () => ({ credited: 0, failed: 0, pending: 0 }),
}
