/**
 * `POST /trade/quote`: the risk gate, the aggregator's quote, the wallet's balance and the unsigned
 * transaction, gathered in parallel; the job recorded as QUOTED or REJECTED_* (docs/trade.md).
 */
import { getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit'
import type { ServiceContext } from '../../src/context.ts'
import type { Rpc, SolanaRpcApi } from '@solana/kit'
import { impactOfFraction, type JupiterBuild, type JupiterQuote } from '../../src/sources/jupiter.ts'
import { WRAPPED_SOL_MINT_ADDRESS } from '../../src/onchain/programs.ts'
import { CallMeter, UpstreamError } from '../../src/sources/upstream.ts'
import type { SignIn } from '../../src/payments/sign-in.ts'
import { type AssembledSwap, assembleSwap, COMPUTE_UNIT_LIMIT_MAX, unitLimitFor } from './build.ts'
import { blockHeight, spendable, unitsConsumed } from './chain.ts'
import { type Jobs, REQUOTABLE, type TradeJob, trackingAccountOf } from './job.ts'
import type { TradeOutcome } from './outcome.ts'
import { riskGate } from './risk-gate.ts'
import { rejection, statusOf, type RejectionCode } from './rejections.ts'
import { SLIPPAGE_BPS, type QuoteDetails, type QuoteRequest, type RiskGate } from './schemas.ts'
import { pct, tokenAmount } from '../../src/rendering/format.ts'

/** The rejections a quote can answer (they leave the job REJECTED_*). */
type QuoteRejection = Extract<
  RejectionCode,
  | 'SAME_MINT'
  | 'SLIPPAGE_OUT_OF_RANGE'
  | 'AMOUNT_OUT_OF_RANGE'
  | 'AGGREGATOR_REFUSED'
  | 'RISK_GATE'
  | 'NO_ROUTE'
  | 'PRICE_IMPACT'
  | 'INSUFFICIENT_BALANCE'
  | 'NOT_CONFIGURED'
  | 'AGGREGATOR_UNAVAILABLE'
  | 'SWAP_BUILD_FAILED'
  | 'SWAP_BUILD_INVALID'
>

/**
 * Price impact (percent) above which a quote is refused: the caller would give a seventh of the value
 * to the pool's curve, a wrong size or a pool too thin to trade. Above the warning level (where swap
 * front-ends start warning) the trade goes ahead with a WARN.
 */
export const PRICE_IMPACT_BLOCK_PCT = 15
export const PRICE_IMPACT_WARN_PCT = 3
/** How long the quote's risk gate may scan: the quote must answer well inside the 15 s end to end. */
const GATE_DEADLINE_MS = 4_000
/** Slot time used to estimate when the blockhash expires. */
const SLOT_MS = 400
const MAX_U64 = 2n ** 64n - 1n

/** Aggregator refusals that mean there is no way to make this swap. */
export const NO_ROUTE_CODES: ReadonlySet<string> = new Set([
  'COULD_NOT_FIND_ANY_ROUTE',
  'TOKEN_NOT_TRADABLE',
  'MARKET_NOT_FOUND',
  'NO_ROUTES_FOUND',
])

/** The quote's terms as both swap APIs answer them (v1's quote, v2's build). */
type QuoteTerms = Pick<
  JupiterQuote,
  'inputMint' | 'outputMint' | 'inAmount' | 'outAmount' | 'otherAmountThreshold' | 'routePlan'
> & { priceImpactPct?: string }

/** Buying SOL itself (a sale of a token for SOL): the native coin has nothing to scan. */
const NATIVE_SOL_GATE: RiskGate = {
  verdict: 'PASS',
  token: WRAPPED_SOL_MINT_ADDRESS,
  grade: null,
  data_quality: 'FULL',
  reasons: [
    {
      code: 'NATIVE_SOL',
      severity: 'info',
      detail: 'The token bought is SOL itself: no authorities, holders or pools to judge.',
    },
  ],
}

export function newJobId(): string {
  return `job_${crypto.randomUUID().replaceAll('-', '')}`
}

/**
 * What the request's `SIGN-IN-WITH-X` header proves (verifySignIn, for this service's quote URL), or
 * null without one. Asked only when an existing job is quoted again.
 */
export type SignedIn = () => Promise<SignIn | null>

/**
 * Why a quote is asked: a trade (the risk gate on the token bought, the price-impact limit), or a
 * holder's exit (plugins/trade/service.ts): the holder wants out of what they hold, so neither stops it —
 * the gate is not run and a price impact above the limit is reported, not refused.
 */
export type QuotePurpose = 'trade' | 'exit'

/** An exit's gate: not run, and said so (the job's risk_gate; docs/trade.md "An exit ready to sign"). */
function exitGate(sold: string, bought: string): RiskGate {
  return {
    verdict: 'WARN',
    token: bought,
    grade: null,
    data_quality: 'LIMITED',
    reasons: [
      {
        code: 'EXIT',
        severity: 'info',
        detail: `An exit: the holder sells all of ${sold}. The risk gate and the ${PRICE_IMPACT_BLOCK_PCT}% price-impact limit do not stop a way out; the price impact is reported.`,
      },
    ],
  }
}

export async function quoteTrade(
  ctx: ServiceContext,
  jobs: Jobs,
  body: QuoteRequest,
  signedIn: SignedIn,
  purpose: QuotePurpose = 'trade',
): Promise<TradeOutcome> {
  const exit = purpose === 'exit'
  const jobId = body.job_id ?? newJobId()
  const request = {
    input_mint: body.input_mint,
    output_mint: body.output_mint,
    amount_in: body.amount_in,
    slippage_bps: body.slippage_bps ?? SLIPPAGE_BPS.default,
    user_public_key: body.user_public_key,
  }
  const previous = await jobs.get(jobId)
  if (previous && !REQUOTABLE.includes(previous.status))
    return { kind: 'job_conflict', job_id: jobId, job_status: previous.status }
  // An existing job is quoted again only with proof of its owner's key (docs/trade.md "Job ownership"):
  // a public key proves nothing, and job ids may be the caller's own, so neither is a secret.
  let owner: string | null = null
  if (previous) {
    const refused = await notProvenOwner(previous, request.user_public_key, signedIn)
    if (refused) return { kind: 'not_owner', job_id: jobId, reason: refused }
    owner = previous.request.user_public_key
  }

  const reject = async (
    code: QuoteRejection,
    reason: string,
    found: { quote?: QuoteDetails | null; risk_gate?: RiskGate | null } = {},
  ) => {
    const refused = rejection(code, reason)
    const outcome = {
      status: statusOf(code),
      quote: found.quote ?? null,
      risk_gate: found.risk_gate ?? null,
      unsigned_transaction_b64: null,
      rejection: refused,
      note: code,
    }
    const job = await jobs.quoted(jobId, request, outcome, owner)
    if (!job) return notRecorded(jobs, jobId, owner)
    return { kind: 'refused' as const, job }
  }

  if (request.input_mint === request.output_mint)
    return reject('SAME_MINT', 'input_mint and output_mint are the same token: nothing to swap')
  if (request.slippage_bps < SLIPPAGE_BPS.min || request.slippage_bps > SLIPPAGE_BPS.max)
    return reject(
      'SLIPPAGE_OUT_OF_RANGE',
      `slippage_bps must be ${SLIPPAGE_BPS.min} to ${SLIPPAGE_BPS.max} (got ${request.slippage_bps})`,
    )
  const amount = BigInt(request.amount_in)
  if (amount === 0n || amount > MAX_U64)
    return reject('AMOUNT_OUT_OF_RANGE', `amount_in must be 1 to ${MAX_U64} atomic units (got ${request.amount_in})`)
  const { jupiter, solana } = ctx.sources
  if (!jupiter || !solana)
    return reject('NOT_CONFIGURED', 'the swap aggregator or the Solana RPC is not configured on this service')

  const meter = new CallMeter()
  const rpc = solana.rpc(meter)
  // Swap API v2 answers the quote and its instructions at once (/build); v1 quotes, then builds (/swap).
  const v2 = ctx.config.JUPITER_SWAP_API === 'v2'
  const terms = {
    inputMint: request.input_mint,
    outputMint: request.output_mint,
    amount,
    slippageBps: request.slippage_bps,
  }
  const settled = <T>(promise: Promise<T>) =>
    promise.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    )
  const [gate, quoted, balance, height] = await Promise.all([
    settled(
      exit
        ? Promise.resolve(exitGate(request.input_mint, request.output_mint))
        : request.output_mint === WRAPPED_SOL_MINT_ADDRESS
          ? Promise.resolve(NATIVE_SOL_GATE)
          : riskGate(ctx, request.output_mint, Date.now() + GATE_DEADLINE_MS),
    ),
    settled<JupiterQuote | JupiterBuild>(
      v2 ? jupiter.build({ ...terms, taker: request.user_public_key }, meter) : jupiter.quote(terms, meter),
    ),
    settled(spendable(rpc, request.user_public_key, request.input_mint)),
    settled(blockHeight(rpc)),
  ])

  // A gate that could not run is not a pass.
  const risk: RiskGate = gate.ok
    ? { ...gate.value, reasons: [...gate.value.reasons] }
    : {
        verdict: 'WARN',
        token: request.output_mint,
        grade: null,
        data_quality: 'LIMITED',
        reasons: [
          {
            code: 'GATE_UNAVAILABLE',
            severity: 'medium',
            detail: `The risk gate could not run: ${(gate.error as Error).message}`,
          },
        ],
      }
  if (risk.verdict === 'BLOCK')
    return reject(
      'RISK_GATE',
      `the risk gate blocks buying ${request.output_mint}: ${risk.reasons.map((entry) => entry.detail).join(' ') || `grade ${risk.grade}`}`,
      { risk_gate: risk },
    )

  if (!quoted.ok) {
    const error = quoted.error
    const refusal =
      error instanceof UpstreamError ? (error.body as { error?: string; errorCode?: string } | undefined) : undefined
    if (refusal?.errorCode && NO_ROUTE_CODES.has(refusal.errorCode))
      return reject(
        'NO_ROUTE',
        `the aggregator has no route from ${request.input_mint} to ${request.output_mint} (${refusal.errorCode}: ${refusal.error ?? ''})`,
        { risk_gate: risk },
      )
    if (refusal?.errorCode === 'CIRCULAR_ARBITRAGE_IS_DISABLED')
      return reject('SAME_MINT', 'the aggregator refuses a swap into the same token')
    if (error instanceof UpstreamError && error.reason === 'rejected')
      return reject('AGGREGATOR_REFUSED', `the aggregator refused the request: ${refusal?.error ?? error.message}`, {
        risk_gate: risk,
      })
    return reject(
      'AGGREGATOR_UNAVAILABLE',
      `the swap aggregator could not be reached (${(error as Error).message}); nothing was charged: retry`,
      { risk_gate: risk },
    )
  }
  const quote = quoted.value
  // No transaction yet: its expiry is not known (a rejected quote reports none).
  const details = quoteDetails(quote, request.slippage_bps)
  if (details.price_impact_pct === null) {
    // Not reported (v2's /build lists priceImpactPct only since 2026-08-21): unmeasured, never zero.
    // Neither limit could be checked, so the caller is told and decides.
    risk.reasons.push({
      code: 'PRICE_IMPACT_UNKNOWN',
      severity: 'medium',
      detail: `The aggregator did not report this size's price impact: the ${PRICE_IMPACT_BLOCK_PCT}% limit could not be checked. Compare what it buys (out_amount) with the market price before signing.`,
    })
    if (risk.verdict === 'PASS') risk.verdict = 'WARN'
  } else if (details.price_impact_pct > PRICE_IMPACT_BLOCK_PCT && !exit)
    return reject(
      'PRICE_IMPACT',
      `this size moves the price ${pct(details.price_impact_pct)}, above the ${PRICE_IMPACT_BLOCK_PCT}% limit: trade a smaller amount`,
      { quote: details, risk_gate: risk },
    )
  if (details.price_impact_pct !== null && details.price_impact_pct > PRICE_IMPACT_WARN_PCT) {
    risk.reasons.push({
      code: 'PRICE_IMPACT_HIGH',
      severity: 'medium',
      detail: `This size moves the price ${pct(details.price_impact_pct)}.`,
    })
    if (risk.verdict === 'PASS') risk.verdict = 'WARN'
  }
  if (balance.ok && balance.value < amount)
    return reject(
      'INSUFFICIENT_BALANCE',
      `${request.user_public_key} can spend ${tokenAmount(balance.value, 0)} atomic units of ${request.input_mint}, less than amount_in ${tokenAmount(amount, 0)}`,
      { quote: details, risk_gate: risk },
    )
  if (!balance.ok)
    risk.reasons.push({
      code: 'BALANCE_UNCHECKED',
      severity: 'info',
      detail: "The wallet's balance could not be read: the swap may fail if it is short.",
    })

  let swap: AssembledSwap
  if (v2)
    try {
      swap = await assembled(rpc, quote as JupiterBuild, request.user_public_key, jobId)
    } catch (error) {
      return reject(
        'SWAP_BUILD_INVALID',
        `the aggregator's instructions do not make a transaction (${(error as Error).message}); quote again`,
        { quote: details, risk_gate: risk },
      )
    }
  else
    try {
      const answer = await jupiter.swap(
        {
          quote: quote as JupiterQuote,
          userPublicKey: request.user_public_key,
          trackingAccount: trackingAccountOf(jobId),
        },
        meter,
      )
      swap = { transaction: answer.swapTransaction, lastValidBlockHeight: BigInt(answer.lastValidBlockHeight) }
    } catch (error) {
      const refusal = error instanceof UpstreamError ? (error.body as { error?: string } | undefined) : undefined
      return reject(
        'SWAP_BUILD_FAILED',
        `the aggregator could not build the transaction: ${refusal?.error ?? (error as Error).message}; quote again`,
        { quote: details, risk_gate: risk },
      )
    }
  const built = checkBuilt(swap.transaction, request.user_public_key)
  if (!built.ok) return reject('SWAP_BUILD_INVALID', built.reason, { quote: details, risk_gate: risk })
  const final = quoteDetails(quote, request.slippage_bps, {
    lastValid: swap.lastValidBlockHeight,
    height: height.ok ? height.value : undefined,
  })
  const job = await jobs.quoted(
    jobId,
    request,
    {
      status: 'QUOTED',
      quote: final,
      risk_gate: risk,
      unsigned_transaction_b64: swap.transaction,
      rejection: null,
      note: exit ? 'EXIT' : risk.verdict,
    },
    owner,
  )
  if (!job) return notRecorded(jobs, jobId, owner)
  return {
    kind: 'quoted',
    job_id: jobId,
    quote: final,
    risk_gate: risk,
    unsigned_transaction_b64: swap.transaction,
  }
}

/**
 * A v2 `/build` answer as the job's transaction: compiled once at the most compute units to simulate
 * it, then again with the units it used plus Jupiter's margin (the most when the simulation fails: the
 * execute's own simulation says why). The job's memo makes its transaction its own.
 */
async function assembled(rpc: Rpc<SolanaRpcApi>, build: JupiterBuild, taker: string, jobId: string) {
  const memo = `solsentry:${trackingAccountOf(jobId)}`
  const trial = assembleSwap(build, taker, memo, COMPUTE_UNIT_LIMIT_MAX)
  const consumed = await unitsConsumed(rpc, trial.transaction).catch(() => null)
  return consumed === null ? trial : assembleSwap(build, taker, memo, unitLimitFor(consumed))
}

/**
 * Why the caller is not proven to own `job` (which they asked to quote again as `wallet`), or null when
 * they are: the request names the job's wallet and carries a sign-in that wallet signed.
 */
async function notProvenOwner(job: TradeJob, wallet: string, signedIn: SignedIn): Promise<string | null> {
  const owner = job.request.user_public_key
  if (wallet !== owner) return 'the job was quoted for another wallet than this request names'
  const proof = await signedIn()
  if (!proof) return 'no SIGN-IN-WITH-X header'
  if (!proof.isValid) return `the SIGN-IN-WITH-X header proves no wallet (${proof.invalidReason})`
  if (proof.address !== owner) return `the SIGN-IN-WITH-X header is signed by ${proof.address}, not by the job's wallet`
  return null
}

/**
 * The quote could not be recorded (Jobs.quoted checks again as it writes): another quote created the
 * job meanwhile (its owner not proven here), or the job moved on to executing.
 */
async function notRecorded(jobs: Jobs, jobId: string, owner: string | null): Promise<TradeOutcome> {
  const current = await jobs.get(jobId)
  if (current && REQUOTABLE.includes(current.status) && current.request.user_public_key !== owner)
    return { kind: 'not_owner', job_id: jobId, reason: 'another quote created this job meanwhile' }
  return { kind: 'job_conflict', job_id: jobId, ...(current ? { job_status: current.status } : {}) }
}

/**
 * The quote's terms; with the built transaction's `expiry`, its last valid block height and (when the
 * current height was read) the estimated wall time of it. Without them both are null, never guessed.
 */
function quoteDetails(
  quote: QuoteTerms,
  slippageBps: number,
  expiry?: { lastValid: bigint; height: bigint | undefined },
): QuoteDetails {
  return {
    input_mint: quote.inputMint,
    output_mint: quote.outputMint,
    in_amount: quote.inAmount,
    out_amount: quote.outAmount,
    min_out_amount: quote.otherAmountThreshold,
    slippage_bps: slippageBps,
    // v2's /build schema gained priceImpactPct in August 2026: an answer without it measured none (null).
    price_impact_pct: impactOfFraction(quote.priceImpactPct),
    route: quote.routePlan.map((leg) => ({
      venue: leg.swapInfo.label ?? 'unknown',
      pool: leg.swapInfo.ammKey,
      input_mint: leg.swapInfo.inputMint,
      output_mint: leg.swapInfo.outputMint,
      percent: leg.percent,
    })),
    last_valid_block_height: expiry ? Number(expiry.lastValid) : null,
    expires_at:
      expiry?.height !== undefined
        ? new Date(Date.now() + Math.max(0, Number(expiry.lastValid - expiry.height)) * SLOT_MS).toISOString()
        : null,
  }
}

/** The aggregator's transaction must decode and be paid and signed by the user, whose slot is still empty. */
function checkBuilt(b64: string, user: string): { ok: true } | { ok: false; reason: string } {
  try {
    const transaction = getTransactionDecoder().decode(Buffer.from(b64, 'base64'))
    const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes)
    if (message.staticAccounts[0] !== user)
      return { ok: false, reason: 'the aggregator built a transaction paid by another wallet: refused' }
    if (!(user in transaction.signatures))
      return { ok: false, reason: 'the aggregator built a transaction the user does not sign: refused' }
    const unsigned = Object.entries(transaction.signatures).find(([key, signature]) => key !== user && !signature)
    if (unsigned)
      return { ok: false, reason: `the aggregator built a transaction ${unsigned[0]} must also sign: refused` }
    return { ok: true }
  } catch (error) {
    return { ok: false, reason: `the aggregator's transaction does not decode: ${(error as Error).message}` }
  }
}
