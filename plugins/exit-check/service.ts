import { USDC_MINT_ADDRESS } from '../../src/onchain/programs.ts'
import type { ServiceContext } from '../../src/context.ts'
import type { Static } from '@sinclair/typebox'
import type { TokenContext } from '../../src/facts/token-context.ts'
import type { MintFact } from '../../src/facts/types.ts'
import type { JupiterPrice } from '../../src/sources/jupiter.ts'
import { UpstreamError } from '../../src/sources/upstream.ts'
import type { ExitRating } from '../../src/kernel/vocabulary.ts'
import { withFacts } from '../../src/facts/index.ts'
import { amount, count, pct } from '../../src/rendering/format.ts'
import { EXIT_SIZE_USDC, type ExitCheckResult } from './schemas.ts'

type Answer = Static<typeof ExitCheckResult>
type Blocker = Answer['blockers'][number]

const USDC_UNITS = 1_000_000
/** The slippage the sell is quoted at (0.5%): what a holder would set. */
const SLIPPAGE_BPS = 50

/**
 * A round trip losing less than this (percent of the size) is a CLEAN exit: two pool fees (0.25–1% each)
 * and a little price impact on a liquid pool stay under it; above it the way out costs more than fees.
 */
export const CLEAN_EXIT_LOSS_PCT = 3
/**
 * A round trip losing more than this (percent), or a sale that alone moves the price more (the route
 * cannot absorb the size: a holder who bought earlier loses that much), is PUNITIVE: a fifth of the
 * position gone to get out. Between the two, COSTLY. docs/catalogue.md, "POST /exit/check".
 */
export const PUNITIVE_EXIT_LOSS_PCT = 20

/**
 * The exit's rating from what the check measured; null when it could not say whether the token sells.
 * A Token-2022 transfer fee (`feeBps`) is taken on the buy and again on the sale, so the rating counts
 * it twice over the quoted round trip. Without the mint read (`mintRead` false), a freeze, a pause or
 * a hook could stop the sale unseen: a cheap exit cannot be vouched for (null), a dear one stays dear.
 */
export function exitRatingOf(
  sellable: boolean | null,
  lossPct: number | null,
  impactPct: number | null,
  feeBps = 0,
  mintRead = true,
): ExitRating | null {
  if (sellable === false) return 'BLOCKED'
  if (sellable === null || lossPct === null) return null
  const kept = (1 - lossPct / 100) * (1 - feeBps / 10_000) ** 2
  const lost = (1 - kept) * 100
  if (lost > PUNITIVE_EXIT_LOSS_PCT || (impactPct ?? 0) > PUNITIVE_EXIT_LOSS_PCT) return 'PUNITIVE'
  if (!mintRead) return null
  return lost < CLEAN_EXIT_LOSS_PCT ? 'CLEAN' : 'COSTLY'
}

/** What a round trip of `sizeUsdc` returning `returned` loses, percent of the size (2 decimals). */
function lossPctOf(sizeUsdc: number, returned: number | null): number | null {
  if (returned === null || sizeUsdc <= 0) return null
  return Math.round(((sizeUsdc - returned) / sizeUsdc) * 10_000) / 100 + 0
}

/** The exit's blockers, from the mint account: what stops a sale, and what puts one at risk. */
export function mintBlockers(mint: MintFact): Blocker[] {
  const { extensions } = mint
  const blockers: Blocker[] = []
  if (extensions.nonTransferable)
    blockers.push({
      code: 'NON_TRANSFERABLE',
      blocks: true,
      detail: 'The token is non-transferable: it cannot be sold.',
    })
  if (extensions.pausable?.paused)
    blockers.push({ code: 'PAUSED', blocks: true, detail: 'Transfers are paused by the pause authority.' })
  if (extensions.defaultAccountState === 'frozen')
    blockers.push({
      code: 'DEFAULT_FROZEN',
      blocks: false,
      detail: 'New token accounts start frozen: an account must be thawed by the freeze authority before it can move.',
    })
  if (mint.freezeAuthority !== null)
    blockers.push({
      code: 'FREEZE_AUTHORITY_LIVE',
      blocks: false,
      detail: `The freeze authority (${mint.freezeAuthority}) can freeze any holder's account, and its sale with it.`,
    })
  if (extensions.permanentDelegate)
    blockers.push({
      code: 'PERMANENT_DELEGATE',
      blocks: false,
      detail: `A permanent delegate (${extensions.permanentDelegate}) can move or burn any holder's tokens.`,
    })
  const fee = extensions.transferFee
  if (fee && (fee.basisPoints > 0 || feeCanRise(mint)))
    blockers.push({
      code: 'TRANSFER_FEE',
      blocks: false,
      detail: `Every transfer pays ${pct(fee.basisPoints / 100)}${feeCanRise(mint) ? ', and the fee can rise' : ''}.`,
    })
  if (extensions.transferHook?.programId)
    blockers.push({
      code: 'TRANSFER_HOOK',
      blocks: false,
      detail: `Every transfer runs program ${extensions.transferHook.programId}, which may refuse it.`,
    })
  return blockers
}

function feeCanRise(mint: MintFact): boolean {
  const fee = mint.extensions.transferFee
  return fee !== null && (fee.configAuthority !== null || fee.newerBasisPoints > fee.basisPoints)
}

/**
 * The exit check: what `sizeUsdc` of the token buys now (a USDC → token quote), quoted back to USDC
 * (token → USDC), with the mint's blockers. No price is assumed: both sides are the aggregator's quotes.
 * `usdcMint` is the USDC the service is paid in (SOLANA_PAYMENT_ASSET; mainnet's by default).
 */
export async function exitCheck(facts: TokenContext, sizeUsdc: number, usdcMint: string): Promise<Answer> {
  const mintAddress = facts.mint
  const missing = new Set<string>()
  // The mint and the quotes do not wait for each other.
  const [mint, quoted] = await Promise.all([
    facts.fact('mint'),
    mintAddress === usdcMint ? null : sellQuote(facts, sizeUsdc, usdcMint),
  ])
  if (!mint) missing.add('mint')
  const blockers = mint ? mintBlockers(mint) : []
  const base = {
    schema_version: '2.0' as const,
    token_address: mintAddress,
    size_usdc: sizeUsdc,
    transfer_fee_bps: mint?.extensions.transferFee?.basisPoints ?? 0,
    transfer_fee_can_rise: mint ? feeCanRise(mint) : false,
  }
  if (quoted === null)
    return finish(
      { ...base, sellable: true, expected_return_usdc: sizeUsdc, exit_price_impact_pct: 0, route_count: 0 },
      blockers,
      missing,
    )

  const sell = quoted.kind === 'quote' ? quoted.quote : null
  if (quoted.kind === 'missing') missing.add('sell_quote')
  // A sale quoted without its price impact (a v2 answer may leave it out) measured no impact: not zero.
  if (sell && sell.priceImpactPct === null) missing.add('exit_price_impact_pct')
  if (quoted.kind === 'no_route')
    blockers.unshift({
      code: 'NO_SELL_ROUTE',
      blocks: true,
      detail: 'No route sells this size of the token to USDC now.',
    })
  const blocked = blockers.some((blocker) => blocker.blocks)
  const measured = sell !== null || blocked
  return finish(
    {
      ...base,
      sellable: measured ? sell !== null && !blocked : null,
      expected_return_usdc: sell ? Number(sell.outAmount) / USDC_UNITS : null,
      exit_price_impact_pct: sell ? sell.priceImpactPct : null,
      route_count: sell ? sell.legs : 0,
    },
    blockers,
    missing,
  )
}

/**
 * What `sizeUsdc` of USDC buys of the token now, quoted back to USDC, before the scan's deadline, through
 * the configured swap API (`JUPITER_SWAP_API`: v2 `/swap/v2/order` without a taker, v1 `/swap/v1/quote`).
 * The aggregator answering that nothing routes is a fact about the token; anything else is missing data.
 */
async function sellQuote(
  facts: TokenContext,
  sizeUsdc: number,
  usdcMint: string,
): Promise<{ kind: 'quote'; quote: JupiterPrice } | { kind: 'no_route' } | { kind: 'missing' }> {
  const jupiter = facts.sources.jupiter
  if (!jupiter) return { kind: 'missing' }
  const quote = (inputMint: string, outputMint: string, amount: bigint) =>
    jupiter.price({ inputMint, outputMint, amount, slippageBps: SLIPPAGE_BPS }, facts.meter)
  try {
    return await facts.untilDeadline(
      (async () => {
        const buy = await quote(usdcMint, facts.mint, BigInt(Math.round(sizeUsdc * USDC_UNITS)))
        return { kind: 'quote' as const, quote: await quote(facts.mint, usdcMint, BigInt(buy.outAmount)) }
      })(),
    )
  } catch (error) {
    return error instanceof UpstreamError && error.reason === 'rejected' ? { kind: 'no_route' } : { kind: 'missing' }
  }
}

function finish(
  measured: Omit<Answer, 'blockers' | 'summary' | 'data_quality' | 'missing_fields' | 'exit_loss_pct' | 'exit_rating'>,
  blockers: Blocker[],
  missing: Set<string>,
): Answer {
  // Not sellable: the whole position is lost, whatever a route would pay if it could sell.
  const exit_loss_pct = measured.sellable === false ? 100 : lossPctOf(measured.size_usdc, measured.expected_return_usdc)
  const exit_rating = exitRatingOf(
    measured.sellable,
    exit_loss_pct,
    measured.exit_price_impact_pct,
    measured.transfer_fee_bps,
    !missing.has('mint'),
  )
  const answer = { ...measured, exit_loss_pct, exit_rating }
  const data_quality = missing.size === 0 ? 'FULL' : missing.size === 1 ? 'PARTIAL' : 'LIMITED'
  const verdict =
    answer.sellable === null
      ? 'The exit could not be checked'
      : answer.sellable
        ? `${amount(answer.size_usdc, 'USDC')} of it sells back for ${amount(answer.expected_return_usdc, 'USDC')} (${answer.exit_price_impact_pct === null ? 'price impact not reported' : `${pct(answer.exit_price_impact_pct)} impact`}, ${count(answer.route_count ?? 0, 'leg')}): exit ${exit_rating ?? 'not rated'}, ${pct(exit_loss_pct)} lost`
        : 'It cannot be sold now'
  const risks = blockers.map((blocker) => blocker.code.toLowerCase().replaceAll('_', ' '))
  return {
    ...answer,
    data_quality,
    missing_fields: [...missing],
    blockers,
    summary: `${verdict}.${risks.length ? ` ${blockers.some((b) => b.blocks) ? 'Blocked by' : 'Risks'}: ${risks.join(', ')}.` : ''}`,
  }
}

/** The USDC the service is paid in on Solana: what "back to USDC" means here. */
export const usdcOf = (ctx: Pick<ServiceContext, 'config'>) => ctx.config.SOLANA_PAYMENT_ASSET ?? USDC_MINT_ADDRESS

/**
 * A request's exit check: the token's facts opened under the route's deadline (ms since epoch), the
 * exit checked for `size_usdc` (10 USDC by default) back to the USDC the service is paid in, the facts closed.
 */
export function exitCheckOf(
  ctx: Pick<ServiceContext, 'config' | 'sources' | 'logger'>,
  body: { token_address: string; size_usdc?: number },
  deadlineAt: number,
): Promise<Answer> {
  return withFacts(
    body.token_address,
    ctx.sources,
    deadlineAt,
    (facts) => exitCheck(facts, body.size_usdc ?? EXIT_SIZE_USDC.default, usdcOf(ctx)),
    { logger: ctx.logger },
  )
}
