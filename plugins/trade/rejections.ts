/**
 * Every reason a trade does not go ahead, in one catalogue (as ERROR_CATALOGUE is for errors): the
 * code, the job status it leaves, whether it is refundable, and when it happens. Call sites name a
 * code and say why in this case; the status and `refundable` come from here, and docs/trade.md's
 * table is generated from it (a test keeps them in step).
 *
 * `refundable` is true when nothing of the caller's was spent: no fee charged and no transaction
 * landed on chain.
 */
import type { Rejection, TradeStatus } from './schemas.ts'

interface RejectionSpec {
  status: TradeStatus
  refundable: boolean
  /** When it happens (for docs/trade.md). */
  when: string
}

export const TRADE_REJECTIONS = {
  SAME_MINT: { status: 'REJECTED_SAME_MINT', refundable: true, when: 'quote: input and output are the same token' },
  SLIPPAGE_OUT_OF_RANGE: {
    status: 'REJECTED_SLIPPAGE_OUT_OF_RANGE',
    refundable: true,
    when: 'quote: `slippage_bps` outside 1–1000',
  },
  AMOUNT_OUT_OF_RANGE: {
    status: 'REJECTED_VALIDATION',
    refundable: true,
    when: 'quote: `amount_in` is 0 or above 2^64 − 1',
  },
  AGGREGATOR_REFUSED: {
    status: 'REJECTED_VALIDATION',
    refundable: true,
    when: 'quote: the aggregator refuses an amount or mint',
  },
  TRANSACTION_UNREADABLE: {
    status: 'REJECTED_VALIDATION',
    refundable: true,
    when: 'execute: not a base64 Solana transaction (the job stays `QUOTED`)',
  },
  TRANSACTION_MISMATCH: {
    status: 'REJECTED_VALIDATION',
    refundable: true,
    when: 'execute: not the quoted transaction (the job stays `QUOTED`)',
  },
  SIGNATURE_MISSING: {
    status: 'REJECTED_VALIDATION',
    refundable: true,
    when: 'execute: a signature is missing (the job stays `QUOTED`)',
  },
  SIGNATURE_INVALID: {
    status: 'REJECTED_VALIDATION',
    refundable: true,
    when: 'execute: a signature does not verify (the job stays `QUOTED`)',
  },
  TRANSACTION_OF_ANOTHER_JOB: {
    status: 'REJECTED_VALIDATION',
    refundable: true,
    when: "execute: the signed transaction is already another job's (the job stays `QUOTED`)",
  },
  RISK_GATE: { status: 'REJECTED_RISK_GATE', refundable: true, when: 'quote: the risk gate blocks the token bought' },
  NO_ROUTE: { status: 'REJECTED_NO_ROUTE', refundable: true, when: 'quote: no route between the mints' },
  PRICE_IMPACT: { status: 'REJECTED_PRICE_IMPACT', refundable: true, when: 'quote: the price impact is above 15 %' },
  INSUFFICIENT_BALANCE: {
    status: 'REJECTED_INSUFFICIENT_BALANCE',
    refundable: true,
    when: 'quote: the wallet holds less than `amount_in`',
  },
  NOT_CONFIGURED: {
    status: 'REJECTED_INTERNAL',
    refundable: true,
    when: 'quote: no aggregator or Solana RPC is configured',
  },
  AGGREGATOR_UNAVAILABLE: {
    status: 'REJECTED_INTERNAL',
    refundable: true,
    when: 'quote: the aggregator cannot be reached; quote again',
  },
  SWAP_BUILD_FAILED: {
    status: 'REJECTED_INTERNAL',
    refundable: true,
    when: 'quote: the aggregator cannot build the transaction; quote again',
  },
  SWAP_BUILD_INVALID: {
    status: 'REJECTED_INTERNAL',
    refundable: true,
    when: 'quote: the built transaction is not paid and signed by the user',
  },
  INTERNAL: {
    status: 'REJECTED_INTERNAL',
    refundable: true,
    when: 'execute: the chain could not be read before sending (the quote is kept); execute again',
  },
  QUOTE_EXPIRED: { status: 'EXPIRED', refundable: true, when: "the quote's blockhash expired before execute" },
  BLOCKHASH_EXPIRED: {
    status: 'FAILED',
    refundable: true,
    when: "execute: the signed transaction's blockhash expired before it was sent",
  },
  SIMULATION_FAILED: { status: 'FAILED', refundable: true, when: 'execute: it fails in simulation (not sent)' },
  NOT_CONFIRMED: { status: 'FAILED', refundable: true, when: 'sent, never landed before its blockhash expired' },
  TRANSACTION_FAILED: { status: 'FAILED', refundable: false, when: 'landed and failed on chain (network fee spent)' },
  INTERRUPTED: {
    status: 'FAILED',
    refundable: true,
    when: 'the service stopped before sending (resolved after a restart)',
  },
  CONFIRMATION_UNKNOWN: {
    status: 'EXECUTING',
    refundable: false,
    when: 'sent, but the chain could not be read for 150 s: poll the status',
  },
} as const satisfies Record<string, RejectionSpec>

export type RejectionCode = keyof typeof TRADE_REJECTIONS

/** The rejection of `code` with why it happened in this case; status and refundability from the catalogue. */
export function rejection(code: RejectionCode, reason: string): Rejection {
  return { code, reason, refundable: TRADE_REJECTIONS[code].refundable }
}

/** The job status a rejection leaves. */
export function statusOf<C extends RejectionCode>(code: C): (typeof TRADE_REJECTIONS)[C]['status'] {
  return TRADE_REJECTIONS[code].status
}

/** docs/trade.md's table of rejection codes, generated from the catalogue (a test keeps it current). */
export function rejectionTable(): string {
  const rows = Object.entries(TRADE_REJECTIONS).map(
    ([code, spec]) => `| \`${spec.status}\` | \`${code}\` | ${spec.refundable ? 'yes' : '**no**'} | ${spec.when} |`,
  )
  return ['| Status | `rejection.code` | Refundable | When |', '|---|---|---|---|', ...rows].join('\n')
}
