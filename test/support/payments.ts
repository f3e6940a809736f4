import type { Payments } from '../../src/payments/payments.ts'

/**
 * Payments that admit every call and settle nothing, for tests (and benches) of what a priced route
 * computes: passed to createContext as `payments`, the same way any implementation is. The service
 * itself never uses them.
 */
export const WAIVED_PAYMENTS: Payments = {
  async admit() {
    return { ok: true, ticket: { key: null, payer: null } }
  },
  async settle() {
    return { ok: true, receipt: null }
  },
  async release() {},
  challenge(_call, reason) {
    return { header: '', body: { x402Version: 1, error: reason, accepts: [] } }
  },
}
