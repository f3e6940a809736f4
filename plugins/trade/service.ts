/**
 * What the trade offers other features (their manifest's `dependsOn: ['trade']`): an exit ready to sign
 * (issue 34 §4; docs/trade.md, "An exit ready to sign"). A watch's high or critical alert carries one for
 * the holder it names: the whole holding sold back to USDC (or SOL), built by the quote's own path with
 * the risk gate aside, recorded as a trade job so that POST /trade/execute takes it as it takes a quote.
 * HTTP-free: every outcome is a value, never a throw.
 */
import type { ServiceContext } from '../../src/context.ts'
import type { ExitRating } from '../../src/kernel/vocabulary.ts'
import { WRAPPED_SOL_MINT_ADDRESS } from '../../src/onchain/programs.ts'
import { CallMeter, UpstreamError } from '../../src/sources/upstream.ts'
import { tokenAmount } from '../../src/rendering/format.ts'
import { EXIT_CHECK_DEADLINE_MS, EXIT_SIZE_USDC } from '../exit-check/schemas.ts'
import { exitCheckOf, mintBlockers, usdcOf } from '../exit-check/service.ts'
import { mintOfAccount } from '../../src/facts/mint.ts'
import { holdingOf } from './chain.ts'
import { Jobs } from './job.ts'
import { NO_ROUTE_CODES, quoteTrade } from './quote.ts'
import { type AlertExit, SLIPPAGE_BPS } from './schemas.ts'

export type { AlertExit } from './schemas.ts'
export { AlertExit as AlertExitSchema, EXIT_NOT_BUILT } from './schemas.ts'

/** What a watch knows of the holder's exit (its `exit` member) and the token alerted on. */
export interface ExitRequest {
  /** The token to sell out of. */
  mint: string
  /** The holder: the wallet whose holding is sold, which signs and pays for the transaction. */
  user_public_key: string
  /** Slippage the sale accepts, basis points (the quote's bounds: 1–1000; default 50). */
  slippage_bps?: number
  /** What to sell into: the service's USDC (default), or SOL. */
  to?: 'USDC' | 'SOL'
}

const USDC_UNITS = 1_000_000

/**
 * The holder's exit from `request.mint`, ready to sign: their whole sellable holding (every token
 * account of the mint, under either token program) quoted and built into an unsigned swap to USDC
 * (or SOL) for their wallet, kept as a QUOTED trade job (execute it with POST /trade/execute, the same
 * fee as any trade, charged only when it confirms), with the exit check's `exit_rating`. The risk gate
 * does not run and a price impact above the trade's limit does not refuse it: the holder wants out.
 * Nothing held, everything frozen, no route, an aggregator or chain out of reach: a not-built answer
 * saying so, never a throw.
 */
export async function exitFor(ctx: ServiceContext, request: ExitRequest): Promise<AlertExit> {
  const output = request.to === 'SOL' ? WRAPPED_SOL_MINT_ADDRESS : usdcOf(ctx)
  const notBuilt = (
    status: Exclude<AlertExit['status'], 'READY'>,
    code: string,
    reason: string,
    extra: { job_id?: string | null; exit_rating?: ExitRating | null } = {},
  ): AlertExit => ({ status, code, reason, job_id: extra.job_id ?? null, exit_rating: extra.exit_rating ?? null })

  const solana = ctx.sources.solana
  if (!solana) return notBuilt('UNAVAILABLE', 'NOT_CONFIGURED', 'no Solana RPC is configured on this service')
  // The holding and what the mint lets move, read together.
  const [holding, blocker] = await Promise.all([
    holdingOf(solana.rpc(new CallMeter()), request.user_public_key, request.mint).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error: error as Error }),
    ),
    saleBlocker(solana, request.mint),
  ])
  if (!holding.ok)
    return notBuilt(
      'UNAVAILABLE',
      'BALANCE_UNREADABLE',
      `the holder's balance of ${request.mint} could not be read (${holding.error.message}): no exit was built`,
    )
  const held = holding.value
  if (held.sellable === 0n && held.frozen > 0n)
    return notBuilt(
      'FROZEN',
      'FROZEN',
      `${request.user_public_key} holds ${tokenAmount(held.frozen, 0)} atomic units of ${request.mint}, all in frozen accounts: nothing can be sold until the freeze authority thaws them`,
      { exit_rating: 'BLOCKED' },
    )
  if (held.sellable === 0n)
    return notBuilt(
      'NOTHING_HELD',
      'NOTHING_HELD',
      `${request.user_public_key} holds none of ${request.mint}: nothing to sell`,
    )

  // A transaction the mint refuses (paused, non-transferable) would only fail: none is built, and no job kept.
  if (blocker)
    return notBuilt('BLOCKED', blocker.code, `${blocker.detail} No exit can be built until it moves again.`, {
      exit_rating: 'BLOCKED',
    })

  const jobs = new Jobs(ctx.store.jobs)
  const quoted = await quoteTrade(
    ctx,
    jobs,
    {
      input_mint: request.mint,
      output_mint: output,
      amount_in: held.sellable.toString(),
      slippage_bps: request.slippage_bps ?? SLIPPAGE_BPS.default,
      user_public_key: request.user_public_key,
    },
    // A new job of the holder's own: nothing to prove (a first quote needs no proof either).
    async () => null,
    'exit',
  )

  // The rating sizes the exit check at what the holding fetches in USDC; selling to SOL, at the check's default.
  const sizeUsdc =
    quoted.kind === 'quoted' && output !== WRAPPED_SOL_MINT_ADDRESS
      ? Math.min(EXIT_SIZE_USDC.max, Math.max(EXIT_SIZE_USDC.min, Number(quoted.quote.out_amount) / USDC_UNITS))
      : EXIT_SIZE_USDC.default
  const rating = await exitRatingFor(ctx, request.mint, sizeUsdc)

  if (quoted.kind === 'quoted') {
    const { quote } = quoted
    if (quote.last_valid_block_height === null)
      return notBuilt('UNAVAILABLE', 'SWAP_BUILD_INVALID', 'the built transaction has no expiry', {
        job_id: quoted.job_id,
        exit_rating: rating,
      })
    return {
      status: 'READY',
      job_id: quoted.job_id,
      transaction: quoted.unsigned_transaction_b64,
      quote: {
        input_mint: quote.input_mint,
        output_mint: quote.output_mint,
        in_amount: quote.in_amount,
        out_amount: quote.out_amount,
        min_out_amount: quote.min_out_amount,
        slippage_bps: quote.slippage_bps,
        price_impact_pct: quote.price_impact_pct,
        route: quote.route,
      },
      valid_until: { last_valid_block_height: quote.last_valid_block_height, estimated_at: quote.expires_at },
      exit_rating: rating,
    }
  }
  if (quoted.kind === 'refused') {
    const refused = quoted.job.rejection
    const code = refused?.code ?? 'INTERNAL'
    const reason = refused?.reason ?? 'the exit could not be quoted'
    // No route out is the honeypot's mark: the exit check agrees (BLOCKED) whatever it measured itself.
    if (code === 'NO_ROUTE')
      return notBuilt('NO_ROUTE', code, `nothing buys ${request.mint} now: ${reason}`, {
        job_id: quoted.job.job_id,
        exit_rating: 'BLOCKED',
      })
    return notBuilt('UNAVAILABLE', code, reason, { job_id: quoted.job.job_id, exit_rating: rating })
  }
  // A new job id cannot conflict or need proof; said plainly should it ever happen.
  return notBuilt('UNAVAILABLE', 'INTERNAL', `the exit's trade job could not be recorded (${quoted.kind})`, {
    exit_rating: rating,
  })
}

/** How Jupiter's /order (Swap API v2) says it found no route: it carries no error code. */
const NO_QUOTES = /failed to get quotes|could not find any route|no routes? found/i

/**
 * Whether anything buys `mint` now (a watch's sell route, issue 34 §2): the aggregator's price of
 * selling `amount` of it to USDC, asked without a holder — one request, no transaction, no job — read
 * as the quote reads a refusal. `open`: a route answered; `refused`: the aggregator says there is no
 * route (NO_ROUTE, the honeypot's mark); `unknown`: it could not say (out of reach, another refusal,
 * no aggregator configured), which a watch must not take for either.
 */
export async function sellRouteOf(
  ctx: Pick<ServiceContext, 'sources' | 'config'>,
  mint: string,
  amount: bigint,
): Promise<{ route: 'open' | 'refused' | 'unknown'; reason: string }> {
  const jupiter = ctx.sources.jupiter
  if (!jupiter) return { route: 'unknown', reason: 'no swap aggregator is configured' }
  try {
    const price = await jupiter.price(
      { inputMint: mint, outputMint: usdcOf(ctx), amount, slippageBps: SLIPPAGE_BPS.default },
      new CallMeter(),
    )
    return { route: 'open', reason: `${price.inAmount} atomic units sell for ${price.outAmount} of USDC` }
  } catch (error) {
    const refusal =
      error instanceof UpstreamError ? (error.body as { error?: string; errorCode?: string } | undefined) : undefined
    if (refusal?.errorCode && NO_ROUTE_CODES.has(refusal.errorCode))
      return { route: 'refused', reason: `${refusal.errorCode}: ${refusal.error ?? 'no route'}` }
    // Swap API v2's /order words a missing route without a code ("Failed to get quotes").
    if (error instanceof UpstreamError && error.reason === 'rejected' && NO_QUOTES.test(refusal?.error ?? ''))
      return { route: 'refused', reason: refusal?.error ?? 'no route' }
    return { route: 'unknown', reason: (error as Error).message }
  }
}

/** The exit check's rating of selling `sizeUsdc` of `mint` (null when it could not run or say). */
async function exitRatingFor(ctx: ServiceContext, mint: string, sizeUsdc: number): Promise<ExitRating | null> {
  try {
    const checked = await exitCheckOf(
      ctx,
      { token_address: mint, size_usdc: sizeUsdc },
      Date.now() + EXIT_CHECK_DEADLINE_MS,
    )
    return checked.exit_rating
  } catch (error) {
    ctx.logger.warn({ mint, err: (error as Error).message }, "an exit's exit check failed")
    return null
  }
}

/**
 * What on the mint stops any sale now (the exit check's blockers that block: paused, non-transferable),
 * or null — also when the mint cannot be read (the quote and the execute's simulation then say). Read
 * past the RPC's cache: an exit is built the moment a mint changes, and a pause seconds old is the news.
 */
async function saleBlocker(
  solana: NonNullable<ServiceContext['sources']['solana']>,
  mint: string,
): Promise<{ code: string; detail: string } | null> {
  try {
    const answer = await solana.ask('getAccountInfo', [mint, { encoding: 'jsonParsed', commitment: 'confirmed' }])
    const data = (answer.result as { value?: { data?: unknown } | null } | undefined)?.value?.data
    // The answer as sent (integers as bigints), in the JSON numbers the jsonParsed reader takes.
    const read = data === undefined ? undefined : mintOfAccount(JSON.parse(JSON.stringify(data, asJsonNumber)))
    return (read && mintBlockers(read).find((blocker) => blocker.blocks)) || null
  } catch {
    return null
  }
}

/** A bigint as a JSON number when it is one exactly, else as its decimal string (a u64 past 2^53). */
function asJsonNumber(_key: string, value: unknown): unknown {
  if (typeof value !== 'bigint') return value
  return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString()
}
