import type { Static } from '@sinclair/typebox'
import { beforeDeadline } from '../../src/kernel/deadline.ts'
import type { TokenContext } from '../../src/facts/token-context.ts'
import { HOME_CHAINS, type HomeChain, LIFI_NO_QUOTE, type LifiQuote, type LifiSource } from '../../src/sources/lifi.ts'
import { UpstreamError } from '../../src/sources/upstream.ts'
import type { ServiceContext } from '../../src/context.ts'
import { withFacts } from '../../src/facts/index.ts'
import { amount, inAbout, pct } from '../../src/rendering/format.ts'
import { EXIT_SIZE_USDC } from '../exit-check/schemas.ts'
import { exitCheck, usdcOf } from '../exit-check/service.ts'
import type { ExitCrossCheckResult } from './schemas.ts'

type Answer = Static<typeof ExitCrossCheckResult>

const USDC_UNITS = 1_000_000
const round = (value: number, places = 6) => Math.round(value * 10 ** places) / 10 ** places + 0

/** What the cross-check is asked, resolved: the body's defaults applied, the quote's addresses chosen. */
export interface CrossCheckInput {
  sizeUsdc: number
  home: HomeChain
  usdcMint: string
  /** Who the quote is for: the caller's addresses, else the service's own. */
  fromAddress: string
  toAddress: string
  /** When the bridge quote must have answered (epoch ms). */
  bridgeDeadlineAt: number
}

const usd = (value: string | null | undefined) => (value ? Number(value) : 0)

/** The bridge member of the answer from a LI.FI quote. */
export function bridgeOf(quote: LifiQuote): NonNullable<Answer['bridge']> {
  const { estimate, action } = quote
  const decimals = 10 ** action.toToken.decimals
  return {
    tool: quote.tool,
    tool_name: quote.toolDetails.name,
    from_usdc: Number(estimate.fromAmount) / 10 ** action.fromToken.decimals,
    output_usdc: Number(estimate.toAmount) / decimals,
    min_output_usdc: Number(estimate.toAmountMin) / decimals,
    fee_usd: round(
      (estimate.feeCosts ?? [])
        .filter((fee) => fee.included !== false)
        .reduce((sum, fee) => sum + usd(fee.amountUSD), 0),
      4,
    ),
    gas_usd: round(
      (estimate.gasCosts ?? []).reduce((sum, gas) => sum + usd(gas.amountUSD), 0) +
        (estimate.feeCosts ?? [])
          .filter((fee) => fee.included === false)
          .reduce((sum, fee) => sum + usd(fee.amountUSD), 0),
      4,
    ),
    duration_s: estimate.executionDuration,
  }
}

/**
 * The exit cross-check: the exit check, then — when the sale returns USDC — a LI.FI quote bridging that
 * USDC to native USDC on the home chain. LI.FI answering that nothing routes is a fact (`bridgeable:
 * false`); anything else leaves `bridge_quote` missing.
 */
export async function crossCheck(facts: TokenContext, lifi: LifiSource, request: CrossCheckInput): Promise<Answer> {
  const exit = await exitCheck(facts, request.sizeUsdc, request.usdcMint)
  const missing = new Set(exit.missing_fields)
  let bridge: Answer['bridge'] = null
  let bridgeable: boolean | null = null
  const returned = exit.sellable ? exit.expected_return_usdc : null
  if (returned !== null && returned > 0) {
    try {
      const quote = await beforeDeadline(
        lifi.quote(
          {
            fromToken: request.usdcMint,
            home: request.home,
            amount: BigInt(Math.floor(returned * USDC_UNITS)),
            fromAddress: request.fromAddress,
            toAddress: request.toAddress,
          },
          facts.meter,
        ),
        request.bridgeDeadlineAt,
      )
      bridge = bridgeOf(quote)
      bridgeable = true
    } catch (error) {
      const noRoute =
        error instanceof UpstreamError &&
        error.reason === 'rejected' &&
        (error.body as { code?: number } | undefined)?.code === LIFI_NO_QUOTE
      if (noRoute) bridgeable = false
      else missing.add('bridge_quote')
    }
  }
  const net = bridge ? bridge.output_usdc : null
  const allIn =
    bridge && net !== null ? round(((request.sizeUsdc - net + bridge.gas_usd) / request.sizeUsdc) * 100, 4) : null
  const data_quality = missing.size === 0 ? 'FULL' : exit.sellable === null ? 'LIMITED' : 'PARTIAL'
  return {
    schema_version: exit.schema_version,
    data_quality,
    missing_fields: [...missing],
    token_address: exit.token_address,
    size_usdc: request.sizeUsdc,
    home_chain: request.home,
    sellable: exit.sellable,
    expected_return_usdc: exit.expected_return_usdc,
    exit_price_impact_pct: exit.exit_price_impact_pct,
    exit_loss_pct: exit.exit_loss_pct,
    exit_rating: exit.exit_rating,
    blockers: exit.blockers,
    bridgeable,
    bridge,
    net_home_output_usdc: net,
    all_in_cost_pct: allIn,
    summary: summarise(exit.summary, request, bridge, bridgeable, allIn, missing.has('bridge_quote')),
  }
}

function summarise(
  exitSummary: string,
  request: CrossCheckInput,
  bridge: Answer['bridge'],
  bridgeable: boolean | null,
  allIn: number | null,
  bridgeMissing: boolean,
): string {
  const home = HOME_CHAINS[request.home].name
  if (bridge)
    return `${exitSummary} Bridged to ${home} via ${bridge.tool_name}: ${amount(bridge.output_usdc, 'USDC')} arrives ${inAbout(bridge.duration_s)}; all in, the exit costs ${pct(allIn)} of ${amount(request.sizeUsdc, 'USDC')}.`
  if (bridgeable === false) return `${exitSummary} No bridge route carries that USDC to ${home} now.`
  if (bridgeMissing) return `${exitSummary} The bridge quote could not be read now (listed in missing_fields).`
  return `${exitSummary} Nothing to bridge.`
}

/**
 * A request's cross-check: the token's facts opened until `deadline.exitAt`, the exit as the exit check
 * reads it, then the bridge quote home until `deadline.bridgeAt` (ms since epoch); the facts closed. The
 * quote is for the caller's addresses when given, else the service's own receiving ones.
 */
export function crossCheckOf(
  ctx: Pick<ServiceContext, 'config' | 'sources' | 'logger'>,
  lifi: LifiSource,
  body: {
    token_address: string
    size_usdc?: number
    home_chain?: HomeChain
    wallet_address?: string
    home_address?: string
  },
  deadline: { exitAt: number; bridgeAt: number },
): Promise<Answer> {
  return withFacts(
    body.token_address,
    ctx.sources,
    deadline.exitAt,
    (facts) =>
      crossCheck(facts, lifi, {
        sizeUsdc: body.size_usdc ?? EXIT_SIZE_USDC.default,
        home: body.home_chain ?? 'base',
        usdcMint: usdcOf(ctx),
        // Without PAY_TO_SOLANA (a test), any valid Solana address quotes alike: the mint is one.
        fromAddress: body.wallet_address ?? ctx.config.PAY_TO_SOLANA ?? body.token_address,
        toAddress: body.home_address ?? ctx.config.PAY_TO_BASE ?? ZERO_EVM_ADDRESS,
        bridgeDeadlineAt: deadline.bridgeAt,
      }),
    { logger: ctx.logger },
  )
}

/** Used only when neither the caller nor the operator names an EVM address (PAY_TO_BASE unset). */
const ZERO_EVM_ADDRESS = '0x0000000000000000000000000000000000000000'
