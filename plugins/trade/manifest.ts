import { defineManifest } from '../../src/kernel/manifest.ts'
import { SIWX_MAX_AGE_MS } from '../../src/payments/sign-in.ts'
import {
  CurrenciesResult,
  ExecuteRequest,
  ExecuteResult,
  JobView,
  PairsResult,
  QuoteRequest,
  QuoteResult,
  StatusParams,
  TradeRejectedBody,
} from './schemas.ts'
import { readTrade } from './words.ts'

export const manifest = defineManifest({
  name: 'trade',
  // An exit ready to sign (service.ts) carries the exit check's rating.
  dependsOn: ['exit-check'],
  skill: {
    id: 'sol_trade',
    name: 'Solana swap with a risk gate',
    description:
      'Bring-your-own-wallet swaps: a free quote with a risk gate on the token being bought and an unsigned transaction, then a paid broadcast of the signed transaction, charged only when it confirms.',
    tags: ['solana', 'swap', 'trade', 'risk'],
    examples: [
      // A quote is built for a wallet: an example names one, so it runs as written.
      'Swap 0.5 SOL for DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263 from wallet 7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU if it is safe',
      'Sell 100 USDC for SOL from wallet 7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
    ],
  },
  routes: {
    quote: {
      method: 'POST',
      path: '/trade/quote',
      summary: 'Swap quote with a risk gate',
      description: `Quotes the swap through the aggregator, runs the risk gate (a quick scan of output_mint; BLOCK stops the trade), checks the wallet's balance and builds the unsigned transaction for user_public_key. 200: status QUOTED, quote, risk_gate, unsigned_transaction_b64. A trade that cannot go ahead: 422 TRADE_REJECTED with status REJECTED_* and rejection {code, reason, refundable}. A job_id of your own is optional; quoting an existing job again (one never broadcast) needs proof of its wallet: a SIGN-IN-WITH-X header (CAIP-122, Solana ed25519) signed by the job's user_public_key, for this URL (domain = its host, uri = it), issued within ${SIWX_MAX_AGE_MS / 60_000} minutes — else 403 JOB_OWNER_PROOF_REQUIRED and the job is unchanged; a job executing or executed: 409 JOB_CONFLICT. Never charged.`,
      price: 'free',
      accounts: { input_mint: 'token_mint', output_mint: 'token_mint' },
      body: QuoteRequest,
      response: QuoteResult,
      errors: ['TRADE_REJECTED', 'JOB_OWNER_PROOF_REQUIRED', 'JOB_CONFLICT', 'UPSTREAM_UNAVAILABLE'],
      errorBodies: { 422: TradeRejectedBody },
      rateLimit: 'scanner',
      tags: ['trade'],
      callOrder: { step: 4, when: 'to get a risk-gated swap quote and an unsigned transaction' },
      askedBy: { phrases: ['swap', 'sell', 'trade', 'exchange'], read: readTrade },
    },
    execute: {
      method: 'POST',
      path: '/trade/execute',
      summary: 'Broadcast the signed swap',
      description:
        'Checks that the signed transaction is the quoted one (byte for byte) with a valid signature, verifies the payment and holds it, then simulates, sends and confirms the transaction. CONFIRMED: 200 with execution {tx_signature, slot}, and the fee settles. Anything else: 422 TRADE_REJECTED with status FAILED or REJECTED_*, and the fee is cancelled. Executing a job again answers its first outcome without charging.',
      price: { usd: '0.15' },
      deferredPayment: true,
      body: ExecuteRequest,
      response: ExecuteResult,
      errors: ['TRADE_REJECTED', 'JOB_NOT_FOUND', 'JOB_CONFLICT', 'UPSTREAM_UNAVAILABLE'],
      errorBodies: { 422: TradeRejectedBody },
      rateLimit: 'scanner',
      tags: ['trade'],
      callOrder: {
        step: 5,
        when: 'with the transaction signed by your own wallet; the fee is charged only on confirmation',
      },
    },
    status: {
      method: 'GET',
      path: '/trade/status/:job_id',
      summary: "A trade job's status",
      description:
        'The job as stored: status, quote summary, risk gate, execution or rejection, fee, and every transition with its time. Quotes past their blockhash read EXPIRED.',
      price: 'free',
      params: StatusParams,
      response: JobView,
      errors: ['JOB_NOT_FOUND', 'UPSTREAM_UNAVAILABLE'],
      tags: ['trade'],
    },
    pairs: {
      method: 'GET',
      path: '/trade/pairs',
      summary: 'Verified tradeable tokens',
      description: "The tokens the aggregator's token list marks verified: mint, symbol, name, decimals.",
      price: 'free',
      response: PairsResult,
      errors: ['UPSTREAM_UNAVAILABLE'],
      tags: ['trade'],
    },
    currencies: {
      method: 'GET',
      path: '/trade/currencies',
      summary: 'Accepted payment currencies and chains',
      description:
        'USDC on each payment rail this service takes (network, asset, payTo, whether it is offered now: a seller on one chain lists that one only) and the price of every paid route.',
      price: 'free',
      response: CurrenciesResult,
      tags: ['trade'],
    },
  },
})
