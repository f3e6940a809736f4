import type { Pool, PoolBook, PoolKind, Quote } from '../world/pool-book.ts'
import { bestRoute, NATIVE_MINT } from '../world/swap.ts'
import type { World } from '../world/world.ts'
import {
  badQueryParameter,
  circularArbitrage,
  ERROR_CODES,
  exactOutNotSupported,
  noRoute,
  ok,
  refuse,
  type Outcome,
} from './errors.ts'
import { parseBool, parsePubkey, parseQueryInteger, U16_MAX } from './params.ts'

/** Jupiter's slippage when a quote names none (0.5%). */
export const DEFAULT_SLIPPAGE_BPS = 50
/** 100%: beyond it the minimum a swap must pay would be negative. */
export const MAX_SLIPPAGE_BPS = 10_000
/** The one intermediate a two-hop route may pass through: every sandbox market is quoted in wSOL. */
export const INTERMEDIATE_MINT = NATIVE_MINT
const BPS = 10_000n

/** The venue names Jupiter's route plans print in `swapInfo.label`, per sandbox pool kind. */
export const VENUE_LABELS: Record<PoolKind, string> = {
  'raydium-amm-v4': 'Raydium',
  pumpswap: 'Pump.fun Amm',
  'orca-whirlpool': 'Whirlpool',
  'meteora-dlmm': 'Meteora DLMM',
  'pump-curve': 'Pump.fun',
}

/** One leg of a route: which pool, which way, and what it pays. */
export interface SwapInfo {
  ammKey: string
  label: string
  inputMint: string
  outputMint: string
  inAmount: string
  outAmount: string
  feeAmount: string
  feeMint: string
}

/** One entry of `routePlan`: a leg and the share of the input it carries. */
export interface RoutePlanStep {
  swapInfo: SwapInfo
  /** Share of the input this leg carries; the stand-in never splits, so always 100. */
  percent: number
  /** The same share in basis points, as current Jupiter answers also carry it. */
  bps: number
}

/**
 * The terms every quote states, v1's `/quote` and Swap API v2's `/order` and `/build` alike (amounts
 * are decimal strings of atomic units): the stand-in prices all three with the v1 quote.
 */
export interface QuoteTerms {
  inputMint: string
  inAmount: string
  outputMint: string
  outAmount: string
  /** The least the swap may pay: outAmount less slippageBps, rounded down. */
  otherAmountThreshold: string
  swapMode: 'ExactIn'
  slippageBps: number
}

/** The body of `GET /swap/v1/quote`, in Jupiter's shape. */
export interface QuoteResponse extends QuoteTerms {
  platformFee: null
  /** A fraction, not a percent ("0.0123" is 1.23%), as Jupiter reports it. */
  priceImpactPct: string
  routePlan: RoutePlanStep[]
  contextSlot: number
  /** Seconds spent quoting. */
  timeTaken: number
}

/** A step of a route plan as Swap API v2 prints it: v2's SwapInfo has no fee members (v1's has feeAmount and feeMint). */
export type V2RoutePlanStep = Omit<RoutePlanStep, 'swapInfo'> & { swapInfo: Omit<SwapInfo, 'feeAmount' | 'feeMint'> }

/** A v1 quote's terms and its route plan as v2's `/order` and `/build` answer them. */
export function inV2Shape(quote: QuoteResponse): QuoteTerms & { routePlan: V2RoutePlanStep[] } {
  const { inputMint, inAmount, outputMint, outAmount, otherAmountThreshold, swapMode, slippageBps } = quote
  return {
    inputMint,
    inAmount,
    outputMint,
    outAmount,
    otherAmountThreshold,
    swapMode,
    slippageBps,
    routePlan: quote.routePlan.map(({ swapInfo: { feeAmount: _amount, feeMint: _mint, ...swapInfo }, ...step }) => ({
      ...step,
      swapInfo,
    })),
  }
}

/** A leg of a route against the pool book's current state. */
export interface RouteHop {
  pool: Pool
  inputMint: string
  outputMint: string
  quote: Quote
}

/**
 * The best direct route (one pool) for `amountIn`; when there is none and multi-hop routes are
 * allowed, two legs through wSOL, each leg on the pool that pays most for it.
 */
export function findRoute(
  book: PoolBook,
  inputMint: string,
  outputMint: string,
  amountIn: bigint,
  options: { onlyDirectRoutes: boolean },
): RouteHop[] | undefined {
  const direct = bestRoute(book, inputMint, outputMint, amountIn)
  if (direct) return [{ pool: direct.pool, inputMint, outputMint, quote: direct.quote }]
  if (options.onlyDirectRoutes || inputMint === INTERMEDIATE_MINT || outputMint === INTERMEDIATE_MINT) return undefined
  const first = bestRoute(book, inputMint, INTERMEDIATE_MINT, amountIn)
  if (!first) return undefined
  const second = bestRoute(book, INTERMEDIATE_MINT, outputMint, first.quote.amountOut)
  if (!second) return undefined
  return [
    { pool: first.pool, inputMint, outputMint: INTERMEDIATE_MINT, quote: first.quote },
    { pool: second.pool, inputMint: INTERMEDIATE_MINT, outputMint, quote: second.quote },
  ]
}

/** `outAmount` reduced by `slippageBps`, rounded down (Jupiter's otherAmountThreshold for ExactIn). */
export function minimumOut(outAmount: bigint, slippageBps: number): bigint {
  return (outAmount * (BPS - BigInt(slippageBps))) / BPS
}

/** Price impacts compound across legs: what is left after each leg multiplies. */
export function routePriceImpact(hops: readonly RouteHop[]): number {
  const kept = hops.reduce((left, hop) => left * (1 - hop.quote.priceImpact), 1)
  return Math.min(1, Math.max(0, 1 - kept))
}

/**
 * A fraction as a plain decimal string. Jupiter never answers in exponent notation ("1e-7"), and
 * clients parse the field with decimal parsers, so small impacts are spelled out.
 */
export function formatFraction(value: number): string {
  if (!(value > 0)) return '0'
  const text = String(value)
  const match = /^(\d)(?:\.(\d+))?e-(\d+)$/.exec(text)
  if (!match) return text
  const [, lead, rest = '', exponent] = match
  return `0.${'0'.repeat(Number(exponent) - 1)}${lead}${rest}`
}

/** The route plan of a route, in Jupiter's shape. The pool book takes its fee from the input. */
export function routePlanOf(hops: readonly RouteHop[]): RoutePlanStep[] {
  return hops.map((hop) => ({
    swapInfo: {
      ammKey: hop.pool.address,
      label: VENUE_LABELS[hop.pool.kind],
      inputMint: hop.inputMint,
      outputMint: hop.outputMint,
      inAmount: hop.quote.amountIn.toString(),
      outAmount: hop.quote.amountOut.toString(),
      feeAmount: hop.quote.feeAmount.toString(),
      feeMint: hop.inputMint,
    },
    percent: 100,
    bps: 10_000,
  }))
}

/** A mint the stand-in can route: a world token with at least one pool. */
export function isTradable(world: World, mint: string): boolean {
  return world.tokens.has(mint) && world.pools.poolsOf(mint).length > 0
}

/** Answers `GET /swap/v1/quote` from its query string against the pools as they stand now. */
export function quoteFromQuery(world: World, query: URLSearchParams): Outcome<QuoteResponse> {
  const started = performance.now()
  const inputMint = requiredPubkey(query, 'inputMint')
  if (!inputMint.ok) return inputMint
  const outputMint = requiredPubkey(query, 'outputMint')
  if (!outputMint.ok) return outputMint
  const amountText = query.get('amount')
  if (amountText === null) return refuse(400, 'Query parameter amount is required')
  const amount = parseQueryInteger(amountText)
  if (!amount.ok) return badQueryParameter('amount', amount.reason)

  let slippageBps = DEFAULT_SLIPPAGE_BPS
  const slippageText = query.get('slippageBps')
  if (slippageText !== null) {
    const parsed = parseQueryInteger(slippageText, U16_MAX)
    if (!parsed.ok) return badQueryParameter('slippageBps', parsed.reason)
    if (parsed.value > BigInt(MAX_SLIPPAGE_BPS))
      return refuse(400, `slippageBps must be at most ${MAX_SLIPPAGE_BPS} (100%)`)
    slippageBps = Number(parsed.value)
  }
  const swapMode = query.get('swapMode') ?? 'ExactIn'
  if (swapMode === 'ExactOut') return exactOutNotSupported()
  if (swapMode !== 'ExactIn')
    return badQueryParameter('swapMode', `unknown variant \`${swapMode}\`, expected \`ExactIn\` or \`ExactOut\``)
  let onlyDirectRoutes = false
  const directText = query.get('onlyDirectRoutes')
  if (directText !== null) {
    const parsed = parseBool(directText)
    if (!parsed.ok) return badQueryParameter('onlyDirectRoutes', parsed.reason)
    onlyDirectRoutes = parsed.value
  }

  if (inputMint.value === outputMint.value) return circularArbitrage()
  for (const mint of [inputMint.value, outputMint.value])
    if (!isTradable(world, mint))
      return refuse(400, `The token ${mint} is not tradable`, ERROR_CODES.TOKEN_NOT_TRADABLE)
  // Jupiter answers a zero amount with "no route" rather than a parse error.
  if (amount.value === 0n) return noRoute()
  const hops = findRoute(world.pools, inputMint.value, outputMint.value, amount.value, { onlyDirectRoutes })
  if (!hops) return noRoute()

  const outAmount = hops.at(-1)!.quote.amountOut
  return ok({
    inputMint: inputMint.value,
    inAmount: amount.value.toString(),
    outputMint: outputMint.value,
    outAmount: outAmount.toString(),
    otherAmountThreshold: minimumOut(outAmount, slippageBps).toString(),
    swapMode: 'ExactIn',
    slippageBps,
    platformFee: null,
    priceImpactPct: formatFraction(routePriceImpact(hops)),
    routePlan: routePlanOf(hops),
    contextSlot: Number(world.chain.slot),
    timeTaken: (performance.now() - started) / 1000,
  })
}

function requiredPubkey(query: URLSearchParams, name: string): Outcome<string> {
  const text = query.get(name)
  if (text === null) return refuse(400, `Query parameter ${name} is required`)
  const parsed = parsePubkey(text)
  return parsed.ok ? parsed : badQueryParameter(name, parsed.reason)
}
