import { address, getCompiledTransactionMessageDecoder, getTransactionDecoder, type Instruction } from '@solana/kit'
import { buildPartiallySigned } from '../chain/transactions.ts'
import type { Pool } from '../world/pool-book.ts'
import { swapInstructions } from '../world/swap.ts'
import type { World } from '../world/world.ts'
import {
  badBody,
  circularArbitrage,
  ERROR_CODES,
  exactOutNotSupported,
  noRoute,
  ok,
  refuse,
  type Outcome,
  type Refusal,
} from './errors.ts'
import { parseBodyInteger, parsePubkey } from './params.ts'

/** Legs a swap may chain: what the quote builds (direct, or two through wSOL), and what fits one transaction. */
export const MAX_ROUTE_HOPS = 2
/**
 * The runtime's compute budget for a transaction that sets none: 200k units per instruction, capped
 * at 1.4M. The stand-in adds no SetComputeUnitLimit, so this is the limit its transactions run under.
 */
export const DEFAULT_COMPUTE_UNITS_PER_INSTRUCTION = 200_000
export const MAX_COMPUTE_UNITS = 1_400_000

/** The body of `POST /swap/v1/swap` as far as the stand-in reads it. */
export interface SwapRequest {
  quoteResponse: unknown
  userPublicKey: string
  /** Accepted for compatibility; the sandbox always wraps SOL in and unwraps it out. */
  wrapAndUnwrapSol?: boolean
  /** Accepted for compatibility; the transaction carries no compute-budget instruction. */
  dynamicComputeUnitLimit?: boolean
  /** Accepted for compatibility; sandbox swaps pay no priority fee. */
  prioritizationFeeLamports?: unknown
  /** Jupiter's integrator tracking key ("any public key"): added read-only to the swap, as Jupiter does. */
  trackingAccount?: string
}

/** The answer of `POST /swap/v1/swap`, in Jupiter's shape. */
export interface SwapResponse {
  /** The v0 transaction, base64: paid by the user, the pools' side signed, the user's slot empty. */
  swapTransaction: string
  lastValidBlockHeight: number
  prioritizationFeeLamports: number
  computeUnitLimit: number
  dynamicSlippageReport: null
  simulationError: null
}

/** The parts of a quote the swap needs, parsed. */
interface QuotedSwap {
  inputMint: string
  outputMint: string
  inAmount: bigint
  outAmount: bigint
  otherAmountThreshold: bigint
  swapMode: 'ExactIn' | 'ExactOut'
  legs: { ammKey: string; inputMint: string; outputMint: string; outAmount: bigint }[]
}

/** A leg as it will execute: the pool, what goes in and what the pool pays. */
interface Leg {
  pool: Pool
  inputMint: string
  amountIn: bigint
  amountOut: bigint
}

/**
 * Answers `POST /swap/v1/swap`: re-prices the quoted route against the pools as they stand now, refuses
 * when the fresh output is below the quote's threshold (the price moved beyond the slippage), and
 * otherwise builds the transaction paying min(fresh, quoted) on every leg.
 */
export async function swapFromBody(world: World, body: unknown): Promise<Outcome<SwapResponse>> {
  if (!isRecord(body)) return badBody('', `invalid type: ${jsonType(body)}, expected struct SwapRequest`)
  if (!('quoteResponse' in body)) return badBody('', 'missing field `quoteResponse`')
  if (!('userPublicKey' in body)) return badBody('', 'missing field `userPublicKey`')
  const quoted = readQuote(body.quoteResponse)
  if (!quoted.ok) return quoted
  const user = readPubkey(body.userPublicKey, 'userPublicKey')
  if (!user.ok) return user
  const tracking = body.trackingAccount === undefined ? undefined : readPubkey(body.trackingAccount, 'trackingAccount')
  if (tracking && !tracking.ok) return tracking

  const quote = quoted.value
  if (quote.inputMint === quote.outputMint) return circularArbitrage()
  if (quote.swapMode === 'ExactOut') return exactOutNotSupported()
  const legs = priceLegs(world, quote)
  if (!legs.ok) return legs
  const paid = legs.value.at(-1)!.amountOut
  if (paid < quote.otherAmountThreshold)
    return refuse(
      400,
      `Price moved beyond the slippage tolerance: the route now pays ${paid}, below the quote's otherAmountThreshold ` +
        `${quote.otherAmountThreshold}; ask for a new quote`,
      ERROR_CODES.SLIPPAGE_TOLERANCE_EXCEEDED,
    )

  const built = await buildSwap(world, user.value, legs.value, tracking?.value)
  const transaction = getTransactionDecoder().decode(built.wire)
  const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes)
  // Legacy and v0 messages list their instructions; the stand-in only builds v0.
  const instructions = 'instructions' in message ? message.instructions.length : 0
  return ok({
    swapTransaction: Buffer.from(built.wire).toString('base64'),
    lastValidBlockHeight: Number(built.lastValidBlockHeight),
    prioritizationFeeLamports: 0,
    computeUnitLimit: Math.min(MAX_COMPUTE_UNITS, instructions * DEFAULT_COMPUTE_UNITS_PER_INSTRUCTION),
    dynamicSlippageReport: null,
    simulationError: null,
  })
}

/**
 * Walks the quoted legs against the current pools: each leg takes what the previous one paid and pays
 * the lesser of its fresh output and its quoted output, so a price that moved in the user's favour
 * never pays more than was quoted.
 */
function priceLegs(world: World, quote: QuotedSwap): Outcome<Leg[]> {
  if (quote.legs.length === 0) return refuse(400, 'Invalid route plan: it has no steps')
  if (quote.legs.length > MAX_ROUTE_HOPS) return refuse(400, `Invalid route plan: more than ${MAX_ROUTE_HOPS} steps`)
  const legs: Leg[] = []
  let mint = quote.inputMint
  let amount = quote.inAmount
  for (const [index, quotedLeg] of quote.legs.entries()) {
    const pool = world.pools.get(quotedLeg.ammKey)
    if (!pool) return refuse(400, `Market ${quotedLeg.ammKey} not found`, ERROR_CODES.MARKET_NOT_FOUND)
    const pair = [pool.baseMint, pool.quoteMint]
    if (
      quotedLeg.inputMint !== mint ||
      !pair.includes(quotedLeg.inputMint) ||
      !pair.includes(quotedLeg.outputMint) ||
      quotedLeg.inputMint === quotedLeg.outputMint
    )
      return refuse(400, `Invalid route plan: step ${index} does not trade ${mint} on ${pool.address}`)
    const fresh = world.pools.quote(pool, mint, amount).amountOut
    const cap =
      index === quote.legs.length - 1 && quote.outAmount < quotedLeg.outAmount ? quote.outAmount : quotedLeg.outAmount
    const amountOut = fresh < cap ? fresh : cap
    if (amountOut === 0n) return noRoute()
    legs.push({ pool, inputMint: mint, amountIn: amount, amountOut })
    mint = quotedLeg.outputMint
    amount = amountOut
  }
  if (mint !== quote.outputMint) return refuse(400, `Invalid route plan: it ends in ${mint}, not ${quote.outputMint}`)
  return ok(legs)
}

/**
 * One leg is the world's own aggregator-style swap. Several legs chain in one transaction: a leg into
 * wSOL unwraps to the user and the next leg wraps the same lamports again, so nothing is left over.
 */
async function buildSwap(world: World, user: string, legs: readonly Leg[], trackingAccount: string | undefined) {
  if (legs.length === 1) {
    const [leg] = legs as [Leg]
    return world.unsignedSwap(address(user), leg.pool, leg.inputMint, leg.amountIn, leg.amountOut, trackingAccount)
  }
  const instructions: Instruction[] = []
  for (const leg of legs)
    instructions.push(
      ...(await swapInstructions({ ...leg, user: address(user), operator: world.operator, trackingAccount })),
    )
  return buildPartiallySigned(world.chain, address(user), instructions)
}

function readQuote(value: unknown): Outcome<QuotedSwap> {
  const path = 'quoteResponse'
  if (!isRecord(value)) return badBody(path, `invalid type: ${jsonType(value)}, expected struct QuoteResponse`)
  const fields = requireFields(value, path, [
    'inputMint',
    'inAmount',
    'outputMint',
    'outAmount',
    'otherAmountThreshold',
    'swapMode',
    'routePlan',
  ])
  if (fields) return fields
  const inputMint = readPubkey(value.inputMint, `${path}.inputMint`)
  if (!inputMint.ok) return inputMint
  const outputMint = readPubkey(value.outputMint, `${path}.outputMint`)
  if (!outputMint.ok) return outputMint
  const inAmount = readAmount(value.inAmount, `${path}.inAmount`)
  if (!inAmount.ok) return inAmount
  const outAmount = readAmount(value.outAmount, `${path}.outAmount`)
  if (!outAmount.ok) return outAmount
  const threshold = readAmount(value.otherAmountThreshold, `${path}.otherAmountThreshold`)
  if (!threshold.ok) return threshold
  if (value.swapMode !== 'ExactIn' && value.swapMode !== 'ExactOut')
    return badBody(
      `${path}.swapMode`,
      `unknown variant \`${String(value.swapMode)}\`, expected \`ExactIn\` or \`ExactOut\``,
    )
  if (!Array.isArray(value.routePlan))
    return badBody(`${path}.routePlan`, `invalid type: ${jsonType(value.routePlan)}, expected a sequence`)

  const legs: QuotedSwap['legs'] = []
  for (const [index, step] of value.routePlan.entries()) {
    const stepPath = `${path}.routePlan[${index}]`
    if (!isRecord(step)) return badBody(stepPath, `invalid type: ${jsonType(step)}, expected struct RoutePlanStep`)
    const swapInfo = step.swapInfo
    const infoPath = `${stepPath}.swapInfo`
    if (!isRecord(swapInfo)) return badBody(stepPath, 'missing field `swapInfo`')
    const missing = requireFields(swapInfo, infoPath, ['ammKey', 'inputMint', 'outputMint', 'outAmount'])
    if (missing) return missing
    const ammKey = readPubkey(swapInfo.ammKey, `${infoPath}.ammKey`)
    if (!ammKey.ok) return ammKey
    const legInput = readPubkey(swapInfo.inputMint, `${infoPath}.inputMint`)
    if (!legInput.ok) return legInput
    const legOutput = readPubkey(swapInfo.outputMint, `${infoPath}.outputMint`)
    if (!legOutput.ok) return legOutput
    const legOut = readAmount(swapInfo.outAmount, `${infoPath}.outAmount`)
    if (!legOut.ok) return legOut
    legs.push({ ammKey: ammKey.value, inputMint: legInput.value, outputMint: legOutput.value, outAmount: legOut.value })
  }
  return ok({
    inputMint: inputMint.value,
    outputMint: outputMint.value,
    inAmount: inAmount.value,
    outAmount: outAmount.value,
    otherAmountThreshold: threshold.value,
    swapMode: value.swapMode,
    legs,
  })
}

function requireFields(value: Record<string, unknown>, path: string, names: readonly string[]): Refusal | undefined {
  const missing = names.find((name) => value[name] === undefined)
  return missing === undefined ? undefined : badBody(path, `missing field \`${missing}\``)
}

function readPubkey(value: unknown, path: string): Outcome<string> {
  if (typeof value !== 'string') return badBody(path, `invalid type: ${jsonType(value)}, expected a string`)
  const parsed = parsePubkey(value)
  return parsed.ok ? parsed : badBody(path, `Parse error: ${parsed.reason}`)
}

function readAmount(value: unknown, path: string): Outcome<bigint> {
  if (typeof value !== 'string') return badBody(path, `invalid type: ${jsonType(value)}, expected a string`)
  const parsed = parseBodyInteger(value)
  return parsed.ok ? parsed : badBody(path, parsed.reason)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** serde's words for the JSON type it found. */
function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'sequence'
  if (typeof value === 'object') return 'map'
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`
  if (typeof value === 'number') return `${Number.isInteger(value) ? 'integer' : 'floating point'} \`${value}\``
  if (typeof value === 'boolean') return `boolean \`${value}\``
  return 'unit value'
}
